// An Argo CD source that names a chart of a Helm repository (`repoURL` + `chart` + `targetRevision`): the chart is
// had as HelmRelease charts are (the helm.charts mapping, the chart cache, a pull, pvlint's bundled app-template) and
// rendered with the values the Application gives it, so the Application's own values are linted and a finding they
// explain is reported at their line. An OCI repository is written without a scheme in Argo CD (`ghcr.io/org/charts`,
// with `enableOCI` on its repository Secret) or with `oci://` ([ARGO:helm §Helm OCI]).
import { parse } from 'yaml';
import { holdsTemplateExpression, adaptAppTemplateValues } from '../render/helm-release/bundled-chart.js';
import { describeRemote, repositoryChart, type RemoteChart } from '../render/helm-release/chart-reference.js';
import { obtainRemoteChart } from '../render/helm-release/obtain-chart.js';
import { renderChartObjects } from '../render/helm-release/render-objects.js';
import { coalesceValues } from '../render/coalesce-values.js';
import type { SourceCache } from '../render/source-cache.js';
import type { NotInterpreted } from './not-interpreted.js';
import type { Resource } from '../types.js';
import type { ArgoRenderSettings, HelmInputs } from './argocd-source.js';
import { writtenObject, type SourceAt } from './argocd-helm-values.js';
import { readFileSync } from 'node:fs';

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The chart a source names, as pvlint's chart supply reads references. */
export function sourceChart(source: any): RemoteChart {
  const url = String(source.repoURL ?? '');
  const repository = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `oci://${url}`;
  const version = typeof source.targetRevision === 'string' && source.targetRevision !== '' && source.targetRevision !== 'HEAD' ? source.targetRevision : undefined;
  return repositoryChart(repository, String(source.chart), version);
}

export interface RemoteChartRender {
  resources: Resource[];
  /** What was not linted, or assumed, with the chart it is about. */
  skipped: { reason: string; chart?: NotInterpreted['chart'] }[];
}

/**
 * Renders the chart `source` names for Application `name`; `helm` are its inputs resolved in this repository (value
 * files of a `ref:` source; a relative value file is a file of the chart itself and is passed as `inChart`).
 */
export async function renderRemoteChart(cache: SourceCache, source: any, helm: HelmInputs, inChart: readonly string[], written: SourceAt, name: string, settings: ArgoRenderSettings): Promise<RemoteChartRender> {
  const chart = sourceChart(source);
  const about = { name: chart.chart, ...(chart.version ? { version: chart.version } : {}), url: chart.repository };
  const label = describeRemote(chart);
  const skipped: RemoteChartRender['skipped'] = [];
  if (!settings.charts || !settings.helm) return { resources: [], skipped: [{ reason: `Helm chart ${label} not rendered (helm is not installed)`, chart: about }] };
  const obtained = await obtainRemoteChart(chart, settings.charts);
  if ('reason' in obtained) return { resources: [], skipped: [{ reason: `Helm chart ${label} not available (${obtained.reason}), so its objects are not linted`, chart: about }] };
  if (inChart.length > 0) skipped.push({ reason: `values files of chart ${label} not read (${inChart.join(', ')}): rendered without them`, chart: about });
  let values: Record<string, unknown> = {};
  for (const file of helm.valueFiles) {
    try {
      const parsed = parse(readFileSync(file, 'utf8'));
      if (isMap(parsed)) values = coalesceValues(values, parsed);
    } catch {
      skipped.push({ reason: `values file ${cache.displayPath(file)} does not parse: rendered without it` });
    }
  }
  if (helm.inline) values = coalesceValues(values, helm.inline);
  const requested = chart.version;
  const standIn = obtained.bundled && requested?.replace(/^v/, '') !== obtained.bundled.version;
  if (obtained.bundled) skipped.push({ reason: `Helm chart ${label} not available (${obtained.bundled.unavailable}); rendered with pvlint's bundled ${chart.chart} ${obtained.bundled.version}${standIn ? `: values that only ${requested ?? 'the newest version'} understands may render differently` : ''}`, chart: about });
  if (obtained.stale) skipped.push({ reason: `Helm chart ${label}: ${obtained.stale}`, chart: about });
  if (standIn) values = adaptAppTemplateValues(values, [], requested, { name: helm.release, namespace: helm.namespace }).values;
  const holder = writtenObject(written.holder);
  const shown = obtained.bundled ? `${label} (as pvlint's bundled ${obtained.bundled.version} renders it)` : label;
  const rendered = await renderChartObjects({
    cache,
    helm: settings.helm,
    kustomize: settings.kustomize,
    chart: obtained.path,
    label: shown,
    release: helm.release,
    namespace: helm.namespace,
    values,
    leaves: [],
    chartAt: { resource: holder, path: [...written.path, 'chart'] },
    origin: { file: holder.file, docIndex: holder.docIndex, note: `rendered by helm from chart ${shown} (Application ${name})` },
    stream: { absPath: `${holder.file.absPath}#argocd:${name}:${written.path.join('.')}`, path: `${holder.file.path} (Application ${name} rendered by helm)` },
    timeoutMs: settings.timeoutMs,
    limits: settings.limits,
  });
  if (!rendered.ok) return { resources: [], skipped: [...skipped, { reason: `Helm chart ${label} not rendered: ${rendered.error}`, chart: about }] };
  for (const message of rendered.parseErrors) skipped.push({ reason: `the output of chart ${label} does not parse: ${message}`, chart: about });
  // A stand-in of another version may pass through as text what the requested version evaluates: not linted.
  const kept = standIn ? rendered.resources.filter((r) => !holdsTemplateExpression(r.object)) : rendered.resources;
  const left = rendered.resources.filter((r) => !kept.includes(r));
  if (left.length > 0) skipped.push({ reason: `${left.map((r) => `${r.kind} ${r.name}`).join(', ')} of chart ${label} still hold template expressions that ${chart.chart} ${requested ?? ''} evaluates but pvlint's bundled copy does not, so they are not linted`.replace('  ', ' '), chart: about });
  return { resources: kept, skipped };
}
