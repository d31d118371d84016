// Remote charts pulled once with `helm pull` into a per-user cache, keyed by repository URL, chart and version, and
// rendered from there afterwards without network. A version range or no version is resolved by helm at each pull, so
// only exact versions are served from the cache offline.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../process.js';
import { cleanRendererMessage } from '../rendered-scope.js';
import { describeRemote, type RemoteChart } from './chart-reference.js';

/** `$XDG_CACHE_HOME/pvlint/charts`, else `~/.cache/pvlint/charts`. */
export function defaultChartCache(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'pvlint', 'charts');
}

/** An exact version (`1.2.3`, `v1.2.3-rc.1`): ranges (`>=1`, `1.x`, `*`) are not cacheable. */
export function isExactVersion(version: string | undefined): version is string {
  return version !== undefined && /^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.\-+]*)?$/.test(version);
}

function entryDir(cacheDir: string, chart: RemoteChart): string {
  const key = createHash('sha256').update(JSON.stringify([chart.repository.replace(/\/+$/, ''), chart.chart, chart.version ?? ''])).digest('hex').slice(0, 24);
  return path.join(cacheDir, `${chart.chart.replace(/[^\w.-]/g, '_')}-${chart.version?.replace(/[^\w.-]/g, '_') ?? 'latest'}-${key}`);
}

/** The archive of `chart` in the cache, when an earlier pull left it there (exact versions only). */
export function cachedChart(cacheDir: string, chart: RemoteChart): string | undefined {
  return isExactVersion(chart.version) ? archiveIn(entryDir(cacheDir, chart)) : undefined;
}

/** For a version range: the chart the last successful pull resolved it to, for when pulling fails (offline). */
export function lastRangePull(cacheDir: string, chart: RemoteChart): string | undefined {
  return isExactVersion(chart.version) ? undefined : archiveIn(entryDir(cacheDir, chart));
}

function archiveIn(dir: string): string | undefined {
  try {
    const archive = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    return archive ? path.join(dir, archive) : undefined;
  } catch {
    return undefined;
  }
}

export type PullResult = { archive: string } | { error: string };

/**
 * Pulls `chart` with `helm pull` into the cache (into a temp dir first, renamed into place, so a failed or concurrent
 * pull never leaves half an entry). helm's own repository cache and config go to a temp home: the user's helm
 * repositories and credentials are neither read nor changed.
 */
export async function pullChart(helm: readonly string[], cacheDir: string, chart: RemoteChart, timeoutMs: number): Promise<PullResult> {
  const cached = cachedChart(cacheDir, chart);
  if (cached) return { archive: cached };
  let staging: string;
  try {
    mkdirSync(cacheDir, { recursive: true });
    staging = mkdtempSync(path.join(cacheDir, '.pull-'));
  } catch (error) {
    return { error: `the chart cache ${cacheDir} cannot be written: ${(error as Error).message}` };
  }
  const helmHome = mkdtempSync(path.join(os.tmpdir(), 'pvlint-helm-home-'));
  try {
    const args = chart.oci
      ? ['pull', chart.repository, '--destination', staging]
      : ['pull', chart.chart, '--repo', chart.repository, '--destination', staging];
    if (chart.version) args.push('--version', chart.version);
    const env = {
      ...process.env,
      HELM_CACHE_HOME: path.join(helmHome, 'cache'),
      HELM_CONFIG_HOME: path.join(helmHome, 'config'),
      HELM_DATA_HOME: path.join(helmHome, 'data'),
    };
    const result = await runCommand([...helm, ...args], { timeoutMs, env });
    if (result.status === 'missing') return { error: 'helm is not installed' };
    if (result.status === 'timeout') return { error: `helm pull did not finish within ${timeoutMs / 1000} s` };
    if (result.status !== 'ok') return { error: `helm pull failed: ${cleanRendererMessage(result.stderr, [[`${staging}/`, '']])}` };
    const archive = readdirSync(staging).find((name) => name.endsWith('.tgz'));
    if (!archive) return { error: `helm pull of ${describeRemote(chart)} left no chart archive` };
    const dir = entryDir(cacheDir, chart);
    // A range (or no version) resolves anew at every pull: its entry is replaced each time, and read without a pull
    // only when pulling fails (see lastRangePull).
    if (!isExactVersion(chart.version)) rmSync(dir, { recursive: true, force: true });
    writeFileSync(path.join(staging, 'source.json'), `${JSON.stringify({ repository: chart.repository, chart: chart.chart, version: chart.version }, null, 2)}\n`);
    try {
      renameSync(staging, dir);
    } catch {
      // Another run put the same entry in place first: use theirs.
      const existing = cachedChart(cacheDir, chart);
      if (existing) return { archive: existing };
      return { error: `the chart cache entry ${dir} cannot be written` };
    }
    return { archive: path.join(dir, archive) };
  } finally {
    rmSync(helmHome, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}
