// The documentation every report needs about a rule id, whether the id is a rule module or one of
// pvlint's own diagnostics (pvlint/parse, ...), which have no module but still need a SARIF descriptor.
import { DIAGNOSTIC_FIXES } from '../engine/diagnostic.js';
import type { RuleModule, RuleReference, Severity } from '../types.js';

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

export function ruleDoc(rule: RuleModule): RuleDoc {
  const { meta } = rule;
  return {
    id: rule.id,
    kind: 'rule',
    severity: meta.severity,
    summary: meta.summary,
    why: meta.why,
    trigger: meta.trigger,
    exceptions: meta.exceptions,
    fix: meta.fix,
    reportsAt: meta.reportsAt,
    references: meta.references,
    ...(meta.catalogueId ? { catalogueId: meta.catalogueId } : {}),
  };
}

function diagnosticDoc(id: string, summary: string, why: string, fix?: string): RuleDoc {
  return { id, kind: 'diagnostic', severity: 'error', summary, why, fix: fix ?? DIAGNOSTIC_FIXES[id] ?? '', references: [] };
}

/**
 * Every id pvlint itself reports under. SARIF always lists all of them, so a rule's index in the driver
 * does not change with what a particular run happened to find.
 */
export const DIAGNOSTIC_DOCS: readonly RuleDoc[] = [
  diagnosticDoc(
    'pvlint/config',
    'The pvlint configuration file is invalid.',
    'pvlint could not use the configuration as written (a syntax error, an unknown key or an invalid value), so it could not lint the way the configuration asks.',
    'Correct the key or value the message names; `schemas/config.schema.json` describes what the configuration accepts.',
  ),
  diagnosticDoc(
    'pvlint/parse',
    'A YAML document could not be parsed.',
    'pvlint reads every document of a file on its own. A document with a YAML syntax error (or a duplicate key, or too many aliases) cannot be read, so its resources are not linted; the other documents of the file still are.',
  ),
  diagnosticDoc(
    'pvlint/read',
    'A file could not be read.',
    'The file could not be opened, or it is binary (it contains NUL bytes), so none of its resources were linted.',
  ),
  diagnosticDoc(
    'pvlint/render',
    'A Kustomize overlay or Helm chart could not be rendered.',
    'pvlint lints what a cluster would receive, so it renders every overlay and chart first. When the renderer fails, that environment is not linted; the other environments still are.',
  ),
  diagnosticDoc(
    'pvlint/render-skipped',
    'Environments were skipped because their renderer is not installed.',
    'With --skip-missing-renderers, Kustomize roots or Helm charts whose renderer (kustomize/kubectl, helm) is not on PATH are left out instead of failing the run; their storage objects were not linted.',
  ),
  diagnosticDoc(
    'pvlint/rule-crash',
    'A rule failed with an internal error.',
    'A bug in a rule stopped it on this input. The other rules still ran, but this rule may have missed findings in this environment.',
  ),
];

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
