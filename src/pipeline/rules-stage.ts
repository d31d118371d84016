// Stage 5, per environment: the shape check, the storage model, then the rules. Suppression and merging come after,
// in the report tail (src/pipeline/report-tail.ts), so that review can add the change rules' findings in between.
import { recordShapeResults, shapeCleanBefore } from '../cache/cached-parse.js';
import { diagnostic } from '../engine/diagnostic.js';
import { runRules, type RuleSetting } from '../engine/run-rules.js';
import { checkShapes } from '../engine/shape-check.js';
import type { ClusterFacts } from '../model/cluster-facts.js';
import { StorageModel } from '../model/storage-model.js';
import { parseDeferred, type DeferredDocument } from '../load/parse-resources.js';
import type { Limits } from '../load/limits.js';
import type { Finding, RawFinding, Resource } from '../types.js';
import type { RunContext } from './run-context.js';
import { fileStart, type Scope } from './scope.js';

/** What the model stage reads of LintOptions. */
export interface ModelSettings {
  bundleComplete?: boolean;
  cluster?: ClusterFacts;
}

/** One environment after its rules: its model and its findings, not yet suppressed; or why it has no model. */
export type ModelledScope =
  | { scope: Scope; model: StorageModel; shapeFindings: RawFinding[]; ruleFindings: RawFinding[]; crashes: RawFinding[] }
  | { scope: Scope; model?: undefined; crash: Finding };

/** Shape check and model of one environment. `borrowed`: objects other environments define that it is assumed to have. */
export async function modelScope(run: RunContext, scope: Scope, borrowed: readonly Resource[], settings: ModelSettings): Promise<{ model: StorageModel; shapeFindings: RawFinding[]; rejected: ReadonlySet<Resource> } | { crash: Finding }> {
  // Fields with a type the API cannot decode are findings of their own; rules see the objects without them.
  const shaped = await checkShapes(scope.resources, scope.name, run.lintCache ? shapeCleanBefore : undefined);
  if (run.lintCache) recordShapeResults(scope.resources, shaped.clean);
  try {
    const model = new StorageModel([...shaped.resources, ...borrowed], {
      scope: scope.name,
      bundleComplete: settings.bundleComplete,
      ...(scope.wholeCluster ? { wholeCluster: true } : {}),
      defaultNamespace: scope.defaultNamespace,
      cluster: scope.cluster ?? settings.cluster,
      meshDefaults: (scope.cluster ?? settings.cluster)?.mesh,
      deferred: deferredLoaders(scope.deferred, run.limits),
      removed: scope.removed,
    });
    return { model, shapeFindings: shaped.findings, rejected: shaped.rejected };
  } catch (error) {
    // A bug, but one environment must not stop the others.
    const anchor = shaped.resources[0];
    const location = { file: anchor ? anchor.file.path : scope.name, region: fileStart() };
    return { crash: diagnostic('pvlint/rule-crash', `building the storage model of ${scope.name} failed: ${(error as Error)?.message ?? String(error)}; this environment was not linted`, location, 'error', [scope.name]) };
  }
}

/** The rules over one environment's model. */
export function runScopeRules(model: StorageModel, rules: readonly RuleSetting[], rejected: ReadonlySet<Resource>): { ruleFindings: RawFinding[]; crashes: RawFinding[] } {
  const result = runRules(model, rules, rejected);
  return { ruleFindings: result.findings, crashes: result.crashes };
}

/** For each deferred kind, how to parse its documents. */
function deferredLoaders(documents: readonly DeferredDocument[], limits: Limits): Map<string, () => Resource[]> {
  const byKind = new Map<string, DeferredDocument[]>();
  for (const d of documents) {
    const list = byKind.get(d.kind);
    if (list) list.push(d);
    else byKind.set(d.kind, [d]);
  }
  return new Map([...byKind].map(([kind, list]) => [kind, () => parseDeferred(list, limits)]));
}
