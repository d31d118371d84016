// Which kinds a run has to parse: what the storage model indexes, what the shape check validates and what review
// mode compares are parsed up front; the other kinds the active rules declare (`meta.kinds`: a ConfigMap a subPath
// rule may look at, a Service the mesh rule may look at) are deferred: parsed only if a rule asks the model for them.
// Every other document is skipped by the kind pre-scan (src/load/document-scan.ts) unless it carries a marker that
// changes results.
import type { KindPlan } from '../load/parse-resources.js';
import { MODEL_KINDS } from '../model/storage-model.js';
import { SHAPE_SCHEMAS } from './shape-check.js';
import type { RuleModule } from './rule-module.js';

/** What the engine needs to know of a rule to plan the kinds it reads. */
type ReadsKinds = { meta: { kinds: readonly string[] } };

/**
 * The plan for a run with these rules, or undefined when every document must be parsed: a rule that declares no
 * kinds (a custom rule may) reads whatever it finds in the model. The kinds of `changeRules` (`--base`) are always
 * parsed: review compares them between two runs whatever rules each runs.
 */
export function kindPlan(rules: readonly RuleModule[], changeRules: readonly ReadsKinds[]): KindPlan | undefined {
  const parse = new Set<string>([...MODEL_KINDS, ...Object.keys(SHAPE_SCHEMAS)]);
  for (const rule of changeRules) for (const kind of rule.meta.kinds) parse.add(kind);
  const defer = new Set<string>();
  for (const rule of rules) {
    if (rule.meta.kinds.length === 0) return undefined;
    for (const kind of rule.meta.kinds) if (!parse.has(kind)) defer.add(kind);
  }
  return { parse, defer };
}

/** Every kind of a plan, parsed or deferred. */
export function planKinds(plan: KindPlan): ReadonlySet<string> {
  return new Set([...plan.parse, ...(plan.defer ?? [])]);
}

/** Every kind the rules may read, parsed or deferred (undefined: all kinds). */
export function relevantKinds(rules: readonly RuleModule[], changeRules: readonly ReadsKinds[]): ReadonlySet<string> | undefined {
  const plan = kindPlan(rules, changeRules);
  return plan && planKinds(plan);
}
