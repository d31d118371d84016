// What a custom rule module's default export must look like, and the part of it that is plain data: checked and
// taken where the module is loaded (the worker thread of isolated-rule.ts, or the main thread when custom rules run
// in-process), so the main thread never runs the module's code to learn a rule's id and metadata.
import { rulePageText } from '../engine/rule-module.js';
import { SEVERITIES, type Severity } from '../types.js';

const RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)?$/;

/** Why `rule` is not a rule (id, meta, check), or undefined. */
export function shapeProblem(rule: any): string | undefined {
  if (!rule || typeof rule !== 'object') return 'has no default export of a rule (export default defineRule({ id, meta, check }))';
  if (typeof rule.id !== 'string' || !RULE_ID.test(rule.id)) {
    return `rule id ${JSON.stringify(rule.id)} is not a lower-case kebab-case id (optionally with one "/" prefix, e.g. "acme/prod-classes")`;
  }
  if (rule.id.startsWith('pvlint/')) return `rule id "${rule.id}": the pvlint/ prefix is reserved for pvlint's own diagnostics`;
  if (typeof rule.check !== 'function') return `rule "${rule.id}" has no check(context) function`;
  const meta = rule.meta;
  if (!meta || typeof meta !== 'object') return `rule "${rule.id}" has no meta`;
  if (!SEVERITIES.includes(meta.severity)) return `rule "${rule.id}": meta.severity must be one of ${SEVERITIES.join(', ')}`;
  if (!meta.messages || typeof meta.messages !== 'object' || Object.values(meta.messages).some((m) => typeof m !== 'function')) {
    return `rule "${rule.id}": meta.messages must map message ids to functions`;
  }
  if (meta.kinds !== undefined && (!Array.isArray(meta.kinds) || meta.kinds.some((k: unknown) => typeof k !== 'string'))) {
    return `rule "${rule.id}": meta.kinds must be a list of kinds`;
  }
  if (meta.options !== undefined && (typeof meta.options?.schema !== 'object' || meta.options.schema === null)) {
    return `rule "${rule.id}": meta.options must be { schema, defaults }`;
  }
  return undefined;
}

/** A rule's id and metadata as data that crosses threads: its messages (functions) stand as their ids. */
export interface RuleData {
  id: string;
  meta: {
    catalogueId?: string;
    severity: Severity;
    kinds?: string[];
    summary?: unknown;
    why?: unknown;
    trigger?: unknown;
    exceptions?: unknown;
    fix?: unknown;
    reportsAt?: unknown;
    references?: unknown;
    examples?: unknown;
    options?: { schema: Record<string, unknown>; defaults?: unknown };
    messageIds: string[];
  };
}

/** The data of a rule that passed shapeProblem(). */
export function ruleData(rule: any): RuleData {
  const { meta } = rule;
  return {
    id: rule.id,
    meta: {
      ...(typeof meta.catalogueId === 'string' ? { catalogueId: meta.catalogueId } : {}),
      severity: meta.severity,
      ...(meta.kinds !== undefined ? { kinds: [...meta.kinds] } : {}),
      ...rulePageText(meta),
      examples: meta.examples,
      ...(meta.options !== undefined ? { options: { schema: meta.options.schema, defaults: meta.options.defaults } } : {}),
      messageIds: Object.keys(meta.messages),
    },
  };
}
