// The documentation every report needs about a rule id, whether the id is a rule module or one of
// pvlint's own diagnostics (pvlint/parse, ...), which have no module but still need a SARIF descriptor.
import { DIAGNOSTICS } from '../engine/diagnostic.js';
import { rulePageText } from '../engine/rule-module.js';
import type { RuleDescription } from '../review/change-rule.js';
import type { RuleReference, Severity } from '../types.js';

export interface RuleDoc {
  id: string;
  kind: 'rule' | 'diagnostic';
  severity: Severity;
  summary: string;
  why: string;
  trigger?: string;
  exceptions?: string;
  fix: string;
  reportsAt?: string;
  references: readonly RuleReference[];
  catalogueId?: string;
}

export function ruleDoc(rule: RuleDescription): RuleDoc {
  const { meta } = rule;
  return {
    id: rule.id,
    kind: 'rule',
    severity: meta.severity,
    ...rulePageText(meta),
    ...(meta.catalogueId ? { catalogueId: meta.catalogueId } : {}),
  };
}

/**
 * Every id pvlint itself reports under (src/engine/diagnostic.ts describes them). SARIF always lists all of them, so
 * a rule's index in the driver does not change with what a particular run happened to find.
 */
export const DIAGNOSTIC_DOCS: readonly RuleDoc[] = Object.entries(DIAGNOSTICS).map(([id, d]) => ({
  id,
  kind: 'diagnostic',
  severity: d.severity,
  summary: d.summary,
  why: d.why,
  fix: d.fix,
  references: [],
}));

/** A placeholder for an id that neither the rule list nor pvlint's diagnostics know (e.g. a custom rule not passed in). */
export function unknownRuleDoc(id: string, severity: Severity): RuleDoc {
  return {
    id,
    kind: 'rule',
    severity,
    summary: `Findings of rule ${id}.`,
    why: `Rule ${id} is not among the rules this report was given, so its description is unavailable.`,
    fix: '',
    references: [],
  };
}
