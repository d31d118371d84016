// A chart as a HelmRelease, an Argo CD Application or a kustomization names it: where it comes from (a chart
// repository URL, an OCI reference, or a path inside this repository) and which version. The configuration's
// `helm.charts` maps such references to local copies.
import path from 'node:path';

/** A chart fetched from outside the repository. */
export interface RemoteChart {
  /** `https://…` chart repository URL, or `oci://host/path` (the chart's own reference, name included). */
  repository: string;
  /** The chart's name (for OCI: the last segment of `repository`). */
  chart: string;
  /** An exact version, a semver range, or undefined for the newest. */
  version?: string;
  oci: boolean;
}

/** How a chart reads in messages: `app-template 4.1.1 from oci://ghcr.io/bjw-s-labs/helm/app-template`. */
export function describeRemote(chart: RemoteChart): string {
  return `${chart.chart}${chart.version ? ` ${chart.version}` : ''} from ${chart.repository}`;
}

/** The OCI reference `oci://host/path/name` as a RemoteChart. */
export function ociChart(reference: string, version?: string): RemoteChart {
  const trimmed = reference.replace(/\/+$/, '');
  return { repository: trimmed, chart: trimmed.slice(trimmed.lastIndexOf('/') + 1), version, oci: true };
}

/** A chart of a repository: an `oci://` repository holds charts as `<url>/<chart>`, an HTTP one lists them in index.yaml. */
export function repositoryChart(url: string, chart: string, version?: string): RemoteChart {
  const base = url.replace(/\/+$/, '');
  if (base.startsWith('oci://')) return ociChart(`${base}/${chart}`, version);
  return { repository: base, chart, version, oci: false };
}

/** One `helm.charts` entry that maps a chart reference to a local chart directory or `.tgz`. */
export interface ChartMapping {
  /** As written in the configuration: `oci://…/name`, `https://repo/name`, or a bare `name`, each with an optional `@version`. */
  reference: string;
  /** Absolute path of the chart directory or archive. */
  path: string;
}

interface ParsedReference {
  url?: string;
  name: string;
  version?: string;
}

function parseReference(reference: string): ParsedReference {
  // `@` after the last `/` is a version; an `@` inside the host part (credentials) is not.
  const slash = reference.lastIndexOf('/');
  const at = reference.indexOf('@', slash + 1);
  const body = at === -1 ? reference : reference.slice(0, at);
  const version = at === -1 ? undefined : reference.slice(at + 1) || undefined;
  const trimmed = body.replace(/\/+$/, '');
  if (!trimmed.includes('://')) return { name: trimmed, version };
  return { url: trimmed, name: trimmed.slice(trimmed.lastIndexOf('/') + 1), version };
}

/** Without a scheme and trailing slashes, so `https://a/b/` and `http://a/b` compare equal. */
function normalizeUrl(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '').toLowerCase();
}

/**
 * The mapped local copy of `chart`, the most specific entry first: URL and version, URL, name and version, name.
 * A version in an entry must equal the requested one (ranges are not evaluated: a vendored copy is one version).
 */
export function mappedChart(mappings: readonly ChartMapping[], chart: RemoteChart): ChartMapping | undefined {
  const full = chart.oci ? chart.repository : `${chart.repository}/${chart.chart}`;
  let best: { mapping: ChartMapping; score: number } | undefined;
  for (const mapping of mappings) {
    const ref = parseReference(mapping.reference);
    if (ref.version !== undefined && ref.version !== chart.version?.replace(/^v/, '') && ref.version !== chart.version) continue;
    let score: number;
    if (ref.url !== undefined) {
      if (normalizeUrl(ref.url) !== normalizeUrl(full)) continue;
      score = 2;
    } else {
      if (ref.name !== chart.chart) continue;
      score = 0;
    }
    if (ref.version !== undefined) score += 1;
    if (!best || score > best.score) best = { mapping, score };
  }
  return best?.mapping;
}

/** True for a chart archive (`helm template` takes it as it is). */
export function isChartArchive(file: string): boolean {
  return /\.t(?:ar\.)?gz$/i.test(path.basename(file));
}
