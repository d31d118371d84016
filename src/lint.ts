// The programmatic entry point, as the pipeline's stages in order: discover inputs → GitOps clusters → render
// (Kustomize roots, Helm charts) while the loose manifests are read and parsed → HelmReleases → per environment:
// model, then rules → the report tail (suppress, merge). Each stage is a file of src/pipeline/ and gets only its
// slice of the options.
import { appendAll } from './engine/append.js';
import { clusterScopes, renderedScopes, startRenders } from './pipeline/render-stage.js';
import { discoverEnvironments, isSelected, looseName } from './pipeline/discover-stage.js';
import { expandHelmReleases } from './pipeline/helm-release-stage.js';
import type { LintOptions } from './pipeline/lint-options.js';
import { ManifestReader } from './pipeline/read-stage.js';
import { finishRun, type RuledRun } from './pipeline/report-tail.js';
import { modelScope, runScopeRules, type ModelledScope } from './pipeline/rules-stage.js';
import { openRun } from './pipeline/run-context.js';
import type { Scope } from './pipeline/scope.js';
import { discoverySettings, gitopsSettings, helmReleaseSettings, modelSettings, readSettings, renderSettings, tailSettings } from './pipeline/stage-settings.js';
import type { LintResult } from './report/lint-result.js';
import type { Finding } from './types.js';

export type { HelmChartSettings, LintOptions } from './pipeline/lint-options.js';
export type { LintedScope, LintResult, ReviewSummary, ScopeSummary } from './report/lint-result.js';

export async function lint(options: LintOptions): Promise<LintResult> {
  const { scopeFindings } = options;
  return finishRun(await lintUntilReport(options), tailSettings(options), scopeFindings && ((s) => scopeFindings(s.model, s.scope.kind)));
}

/** Every stage up to the report tail: each environment with its model and its rules' findings, nothing suppressed yet. */
export async function lintUntilReport(options: LintOptions): Promise<RuledRun> {
  const run = await openRun(options);
  const findings: Finding[] = [];
  const scopes: Scope[] = [];
  const discovered = await discoverEnvironments(run, discoverySettings(options), gitopsSettings(options, run.locating.at));
  // Renders run while the loose manifests are read below; findings keep their order: each argument's, then the renders'.
  const rendering = startRenders(run, discovered, renderSettings(options));
  const reader = new ManifestReader(run, readSettings(options), discovered.claimedFiles, options.lazyPositionsAfterBytes);
  for (const [argument, input] of discovered.inputs) {
    const name = looseName(run, argument);
    if (!isSelected(discovered, name)) {
      reader.claim(input);
      continue;
    }
    const read = await reader.readArgument(name, input);
    appendAll(findings, read.findings);
    appendAll(scopes, read.scopes);
  }
  await reader.close();
  const rendered = renderedScopes(await rendering, findings, run.nodeBudget);
  appendAll(scopes, rendered.scopes);
  const clusters = clusterScopes(discovered.gitops, discovered, findings, run.nodeBudget);
  appendAll(scopes, clusters.scopes);
  const selectedClusters = discovered.gitops.clusters.filter((c) => isSelected(discovered, c.name));
  const expanded = await expandHelmReleases(run, scopes, selectedClusters, helmReleaseSettings(options, run.limits, run.locating.at), options.cluster, findings, rendered.notRendered);
  const modelled: ModelledScope[] = [];
  const model = modelSettings(options);
  for (const scope of scopes) {
    const built = await modelScope(run, scope, expanded.borrowed.get(scope.name)?.resources ?? [], model);
    if ('crash' in built) {
      modelled.push({ scope, crash: built.crash });
      continue;
    }
    const ruled = runScopeRules(built.model, run.rules, built.rejected);
    modelled.push({ scope, model: built.model, shapeFindings: built.shapeFindings, ...ruled });
  }
  return {
    run,
    findings,
    scopes: modelled,
    documents: reader.documents + rendered.documents + clusters.documents,
    templateFiles: reader.templateFiles,
    notInterpreted: expanded.notInterpreted,
  };
}
