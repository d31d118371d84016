// Stage 2: Kustomize roots and Helm charts render (child processes, in parallel with the reading of loose
// manifests), and what they and the GitOps clusters produced becomes scopes.
import type { NotInterpreted } from '../gitops/not-interpreted.js';
import { renderOverNodeBudget, type NodeBudget } from '../load/node-budget.js';
import { rendersEverything, type GitopsOutcome } from '../gitops/gitops-environments.js';
import { renderAll, type RenderOutcome, type RenderSettings } from '../render/render-all.js';
import { appendAll } from '../engine/append.js';
import type { Finding } from '../types.js';
import { isSelected, type DiscoveredRun } from './discover-stage.js';
import type { RunContext } from './run-context.js';
import { originFiles, type Scope } from './scope.js';

/** Starts rendering the selected roots and charts; the promise never counts as an unhandled rejection before it is awaited. */
export function startRenders(run: RunContext, discovered: DiscoveredRun, settings: RenderSettings): Promise<RenderOutcome> {
  const kustomizations = new Set<string>();
  const charts = new Set<string>();
  for (const environment of discovered.environments) {
    if (!isSelected(discovered, environment.name)) continue;
    if (environment.kind === 'kustomize') kustomizations.add(environment.entry);
    else if (environment.kind === 'helm') charts.add(environment.entry);
  }
  const rendering = renderAll(run.sources, [...kustomizations], [...charts], { ...settings, relevantKinds: run.renderKinds, lintCache: run.lintCache }, run.cwd);
  rendering.catch(() => undefined);
  return rendering;
}

/** The rendered environments as scopes (a failed render with nothing to show is none), their diagnostics in `findings`. */
export function renderedScopes(rendered: RenderOutcome, findings: Finding[], nodeBudget: NodeBudget): { scopes: Scope[]; documents: number; notRendered: NotInterpreted[] } {
  const scopes: Scope[] = [];
  // Charts whose dependencies could not be had: listed with the GitOps objects that were not followed.
  const notRendered: NotInterpreted[] = [];
  let documents = 0;
  appendAll(findings, rendered.diagnostics);
  for (const scope of rendered.scopes) {
    appendAll(findings, scope.diagnostics);
    documents += scope.documents;
    if (scope.notInterpreted) {
      notRendered.push({ environment: scope.name, kind: 'chart', name: scope.name, ...scope.notInterpreted });
      continue;
    }
    if (scope.diagnostics.some((d) => d.ruleId === 'pvlint/render') && scope.resources.length === 0) continue;
    if (renderOverNodeBudget(scope.name, scope.resources, nodeBudget, scope.name, findings)) continue;
    scopes.push({ name: scope.name, kind: scope.renderer, files: originFiles(scope.resources), resources: scope.resources, deferred: [], defaultNamespace: scope.defaultNamespace, removed: scope.removed });
  }
  return { scopes, documents, notRendered };
}

/** The selected GitOps clusters as scopes, their diagnostics in `findings`. */
export function clusterScopes(gitops: GitopsOutcome, discovered: DiscoveredRun, findings: Finding[], nodeBudget: NodeBudget): { scopes: Scope[]; documents: number } {
  const scopes: Scope[] = [];
  let documents = 0;
  for (const cluster of gitops.clusters) {
    if (!isSelected(discovered, cluster.name)) continue;
    findings.push(...cluster.diagnostics);
    documents += cluster.documents;
    // A cluster with nothing rendered has only its not-interpreted list to say.
    if (cluster.resources.length === 0) continue;
    if (renderOverNodeBudget(cluster.name, cluster.resources, nodeBudget, cluster.resources[0].file.path, findings)) continue;
    scopes.push({ name: cluster.name, kind: cluster.name.startsWith('argocd:') ? 'argocd' : 'flux', files: originFiles(cluster.resources), resources: cluster.resources, deferred: [], ...(cluster.facts ? { cluster: cluster.facts } : {}), wholeCluster: rendersEverything(cluster) });
  }
  return { scopes, documents };
}
