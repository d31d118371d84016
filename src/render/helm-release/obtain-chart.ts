// A resolved chart as a path helm can render: local charts as they are, remote ones from the chart cache or pulled
// into it once per run. Shared by HelmReleases, Argo CD helm sources and anything else that names a remote chart.
import { cachedChart, lastRangePull, pullChart, type PullResult } from './chart-cache.js';
import { mappedChart, type ChartMapping, type RemoteChart } from './chart-reference.js';
import type { ChartResolution } from './resolve-chart.js';

/** A chart helm can render (`stale`: why it may not be the version the source would resolve today), or why not. */
export type ObtainedChart = { path: string; stale?: string } | { reason: string };

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
}

/** A remote chart as a local path: the `helm.charts` mapping, the cache, or a pull into the cache. */
export async function obtainRemoteChart(chart: RemoteChart, supply: ChartSupply): Promise<ObtainedChart> {
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
