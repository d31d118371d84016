// A resolved chart as a path helm can render: local charts as they are, remote ones from the chart cache or pulled
// into it once per run. Shared by HelmReleases, Argo CD helm sources and anything else that names a remote chart.
import { bundledChartFor } from './bundled-chart.js';
import { cachedChart, lastRangePull, pullChart, type PullResult } from './chart-cache.js';
import { mappedChart, type ChartMapping, type RemoteChart } from './chart-reference.js';
import type { ChartResolution } from './resolve-chart.js';

/** A chart pvlint ships, rendered because the requested one could not be had. */
export interface BundledFallback {
  version: string;
  /** Why the requested chart could not be had. */
  unavailable: string;
}

/**
 * A chart helm can render (`stale`: why it may not be the version the source would resolve today; `bundled`: it is
 * pvlint's own copy, not the requested one), or why not.
 */
export type ObtainedChart = { path: string; stale?: string; bundled?: BundledFallback } | { reason: string };

export interface ChartSupply {
  /** `['helm']` or the configured command; undefined when helm is not installed. */
  helm: readonly string[] | undefined;
  /** `--chart-cache`. */
  chartCache: string;
  /** `helm.charts` entries that map a chart reference to a local copy. */
  chartMappings: readonly ChartMapping[];
  /** Pull charts that are not in the cache (default true); false uses only local, mapped and cached charts. */
  pull?: boolean;
  timeoutMs: number;
  /** Pulls already started in this run, by chart: each chart is pulled once. */
  pulls: Map<string, Promise<PullResult>>;
  /** Render a chart pvlint ships when the requested one cannot be had (default true). */
  bundledCharts?: boolean;
}

/** A remote chart as a local path: the `helm.charts` mapping, the cache, a pull into the cache, or pvlint's own copy. */
export async function obtainRemoteChart(chart: RemoteChart, supply: ChartSupply): Promise<ObtainedChart> {
  const obtained = await obtainPublishedChart(chart, supply);
  if (!('reason' in obtained) || supply.bundledCharts === false) return obtained;
  const bundled = bundledChartFor(chart);
  return bundled ? { path: bundled.path, bundled: { version: bundled.version, unavailable: obtained.reason } } : obtained;
}

async function obtainPublishedChart(chart: RemoteChart, supply: ChartSupply): Promise<ObtainedChart> {
  const mapped = mappedChart(supply.chartMappings, chart);
  if (mapped) return { path: mapped.path };
  const cached = cachedChart(supply.chartCache, chart);
  if (cached) return { path: cached };
  if (supply.pull === false) return { reason: 'not in the chart cache (pulling is off)' };
  if (!supply.helm) return { reason: 'helm is not installed' };
  const key = JSON.stringify([chart.repository, chart.chart, chart.version ?? '']);
  let pulled = supply.pulls.get(key);
  if (!pulled) {
    pulled = pullChart(supply.helm, supply.chartCache, chart, supply.timeoutMs);
    supply.pulls.set(key, pulled);
  }
  const result = await pulled;
  if ('archive' in result) return { path: result.archive };
  const previous = lastRangePull(supply.chartCache, chart);
  return previous ? { path: previous, stale: `${result.error}; rendered the version an earlier pull resolved ${chart.version ?? 'the newest version'} to` } : { reason: result.error };
}

export async function obtainChart(resolution: ChartResolution, supply: ChartSupply): Promise<ObtainedChart> {
  if (resolution.kind === 'local') return { path: resolution.path };
  if (resolution.kind === 'unavailable') return { reason: resolution.reason };
  return obtainRemoteChart(resolution.chart, supply);
}
