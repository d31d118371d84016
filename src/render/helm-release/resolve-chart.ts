// Which chart a Flux HelmRelease renders: `spec.chart.spec` (a chart of a HelmRepository, a path in a GitRepository
// or Bucket) or `spec.chartRef` (an OCIRepository, a HelmChart), followed through the source objects of the
// repository. The result is a local chart (in this repository, or mapped by `helm.charts`), a remote one to pull,
// or the reason it cannot be had.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { mappedChart, ociChart, repositoryChart, describeRemote, type ChartMapping, type RemoteChart } from './chart-reference.js';
import type { JsonPath, Resource } from '../../types.js';

export type ChartResolution =
  /** A chart directory or archive on disk; `label` names it in messages. */
  | { kind: 'local'; path: string; label: string; inRepository: boolean; mapped?: { reference: string; version?: string } }
  | { kind: 'remote'; chart: RemoteChart; label: string }
  | { kind: 'unavailable'; label: string; reason: string };

export interface ChartRequest {
  resolution: ChartResolution;
  /** Where the chart is named in the HelmRelease (for findings that have no better place). */
  chartPath: JsonPath;
}

const isMap = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

/** The Flux source object `ref` names (its namespace defaults to the referring object's). */
function findSource(objects: readonly Resource[], ref: unknown, namespace: string): Resource | undefined {
  if (!isMap(ref)) return undefined;
  const ns = text(ref.namespace) ?? namespace;
  return objects.find((o) => o.kind === ref.kind && o.name === ref.name && (o.namespace ?? namespace) === ns && /(^|\.)fluxcd\.io\//.test(String(o.apiVersion)));
}

function remote(chart: RemoteChart, mappings: readonly ChartMapping[]): ChartResolution {
  const mapped = mappedChart(mappings, chart);
  if (mapped) return { kind: 'local', path: mapped.path, label: describeRemote(chart), inRepository: false, mapped: { reference: mapped.reference, version: chart.version } };
  return { kind: 'remote', chart, label: describeRemote(chart) };
}

/** A chart path inside a GitRepository artifact: only this repository's own tree can be read offline. */
function gitChart(chartPath: string, source: Resource, repoRoot: string): ChartResolution {
  const label = `${chartPath} from GitRepository ${source.name}`;
  const dir = path.resolve(repoRoot, chartPath);
  if (path.relative(repoRoot, dir).startsWith('..')) return { kind: 'unavailable', label, reason: 'the chart path leaves the repository' };
  try {
    if (statSync(dir).isDirectory() && existsSync(path.join(dir, 'Chart.yaml'))) return { kind: 'local', path: dir, label, inRepository: true };
    if (statSync(dir).isFile()) return { kind: 'local', path: dir, label, inRepository: true };
  } catch {
    // not in this checkout
  }
  const url = text(source.object?.spec?.url);
  return { kind: 'unavailable', label, reason: `no chart at ${chartPath} in this repository${url ? ` (the GitRepository is ${url})` : ''}` };
}

function chartFromHelmRepository(name: string, version: string | undefined, source: Resource, mappings: readonly ChartMapping[]): ChartResolution {
  const url = text(source.object?.spec?.url);
  if (!url) return { kind: 'unavailable', label: `${name} from HelmRepository ${source.name}`, reason: 'the HelmRepository has no spec.url' };
  const oci = source.object?.spec?.type === 'oci' || url.startsWith('oci://');
  return remote(repositoryChart(oci && !url.startsWith('oci://') ? `oci://${url}` : url, name, version), mappings);
}

/** The chart of a `chart.spec`-shaped object (a HelmRelease's `spec.chart.spec`, a HelmChart's `spec`). */
function chartOfSpec(spec: Record<string, any>, namespace: string, objects: readonly Resource[], mappings: readonly ChartMapping[], repoRoot: string): ChartResolution {
  const name = text(spec.chart) ?? '';
  const version = text(spec.version);
  const label = `${name}${version ? ` ${version}` : ''}`;
  const ref = isMap(spec.sourceRef) ? spec.sourceRef : {};
  const source = findSource(objects, ref, namespace);
  const refText = `${String(ref.kind ?? 'source')} ${String(ref.name ?? '')}`;
  if (!source) {
    // The source may be defined in another environment or only in the cluster; a mapped chart name still works.
    const mapped = mappedChart(mappings, { repository: '', chart: name, version, oci: false });
    if (mapped && ref.kind !== 'GitRepository' && ref.kind !== 'Bucket') return { kind: 'local', path: mapped.path, label, inRepository: false, mapped: { reference: mapped.reference, version } };
    return { kind: 'unavailable', label: `${label} from ${refText}`, reason: `${refText} is not in the repository` };
  }
  switch (source.kind) {
    case 'HelmRepository':
      return chartFromHelmRepository(name, version, source, mappings);
    case 'GitRepository':
      return gitChart(name, source, repoRoot);
    case 'Bucket':
      return { kind: 'unavailable', label: `${label} from Bucket ${source.name}`, reason: 'charts in a Bucket are not followed' };
    default:
      return { kind: 'unavailable', label: `${label} from ${refText}`, reason: `${source.kind} is not a chart source` };
  }
}

/** The version an OCIRepository `ref` selects: `digest` wins over `semver`, which wins over `tag`; default `latest`. */
function ociVersion(ref: unknown): string | undefined {
  if (!isMap(ref)) return undefined;
  return text(ref.digest) ?? text(ref.semver) ?? text(ref.tag);
}

export function resolveReleaseChart(release: Resource, namespace: string, objects: readonly Resource[], mappings: readonly ChartMapping[], repoRoot: string): ChartRequest {
  const spec = release.object?.spec ?? {};
  if (isMap(spec.chart) && isMap(spec.chart.spec)) {
    return { resolution: chartOfSpec(spec.chart.spec, namespace, objects, mappings, repoRoot), chartPath: ['spec', 'chart', 'spec', 'chart'] };
  }
  const chartPath: JsonPath = ['spec', 'chartRef', 'name'];
  if (!isMap(spec.chartRef)) return { resolution: { kind: 'unavailable', label: 'no chart', reason: 'neither spec.chart nor spec.chartRef is set' }, chartPath: ['kind'] };
  const ref = spec.chartRef;
  const source = findSource(objects, ref, namespace);
  const refText = `${String(ref.kind ?? 'source')} ${String(ref.name ?? '')}`;
  if (!source) return { resolution: { kind: 'unavailable', label: refText, reason: `${refText} is not in the repository` }, chartPath };
  if (source.kind === 'OCIRepository') {
    const url = text(source.object?.spec?.url);
    if (!url) return { resolution: { kind: 'unavailable', label: refText, reason: 'the OCIRepository has no spec.url' }, chartPath };
    return { resolution: remote(ociChart(url, ociVersion(source.object?.spec?.ref)), mappings), chartPath };
  }
  if (source.kind === 'HelmChart' && isMap(source.object?.spec)) {
    return { resolution: chartOfSpec(source.object.spec, source.namespace ?? namespace, objects, mappings, repoRoot), chartPath };
  }
  return { resolution: { kind: 'unavailable', label: refText, reason: `${source.kind} charts are not followed` }, chartPath };
}
