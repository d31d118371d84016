// What every stage of one run shares: where it runs, its limits, which kinds it parses, the parse cache and the
// per-run cache of source files. Made once, before discovery.
import path from 'node:path';
import { parserStamp } from '../cache/cached-parse.js';
import { LintCache } from '../cache/lint-cache.js';
import { kindPlan, planKinds } from '../engine/relevant-kinds.js';
import type { RuleSetting } from '../engine/run-rules.js';
import { findRepoRoot } from '../load/discover.js';
import { resolveLimits, type Limits } from '../load/limits.js';
import type { NodeBudget } from '../load/node-budget.js';
import type { KindPlan } from '../load/parse-resources.js';
import { CHANGE_RULES, defaultRuleSettings } from '../registry.js';
import { HELM_RELEASE_INPUT_KINDS, VALUES_SOURCE_KINDS } from '../render/helm-release/expand.js';
import { SourceCache } from '../render/source-cache.js';
import { LocateStage } from '../locate/locate-stage.js';
import { pvlintVersion } from '../version.js';
import type { LintOptions } from './lint-options.js';

export interface RunContext {
  cwd: string;
  /** The directory finding paths are relative to. */
  root: string;
  rules: readonly RuleSetting[];
  limits: Limits;
  /** Kinds parsed and deferred for loose manifests; undefined parses every document. */
  plan: KindPlan | undefined;
  /** Kinds a renderer's output is parsed for; undefined: all. */
  renderKinds: ReadonlySet<string> | undefined;
  lintCache: LintCache | undefined;
  sources: SourceCache;
  /** Places findings by their resource's origin; the stages before the rules that must name a place use it too. */
  locating: LocateStage;
  /** The run's parse-node budget: loose files, worker parses and rendered environments all count against it. */
  nodeBudget: NodeBudget;
}

export async function openRun(options: LintOptions): Promise<RunContext> {
  const cwd = options.cwd ?? process.cwd();
  const root = options.root ?? (await findRepoRoot(cwd));
  const rules = options.rules ?? defaultRuleSettings();
  const limits = resolveLimits(options.limits);
  // Documents of other kinds are not parsed (the kind pre-scan reads their `kind:` line as text); those of kinds only
  // some rule may look at are parsed when it does.
  const rulePlan = options.parseAllDocuments ? undefined : kindPlan(rules.map((s) => s.rule), CHANGE_RULES);
  // HelmReleases render into objects the rules read, from sources and values the rules do not read.
  const parse = rulePlan && new Set([...rulePlan.parse, ...HELM_RELEASE_INPUT_KINDS]);
  const plan = rulePlan && { parse: parse!, defer: new Set([...(rulePlan.defer ?? []), ...VALUES_SOURCE_KINDS.filter((kind) => !parse!.has(kind))]) };
  const lintCache = options.cacheLocation === undefined ? undefined : LintCache.open(path.resolve(cwd, options.cacheLocation), cacheContext(plan, limits));
  return { cwd, root, rules, limits, plan, renderKinds: plan && planKinds(plan), lintCache, sources: new SourceCache(root), locating: new LocateStage({ positions: lintCache?.positions }), nodeBudget: { limits, used: 0 } };
}

/** Everything besides a file's text that decides what parsing it gives: a cache made under another is not used. */
function cacheContext(plan: KindPlan | undefined, limits: Limits): string {
  return JSON.stringify({
    pvlint: pvlintVersion(),
    code: parserStamp(),
    parse: plan ? [...plan.parse].sort() : 'all',
    defer: plan?.defer ? [...plan.defer].sort() : [],
    limits,
  });
}
