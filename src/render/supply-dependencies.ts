// What `helm dependency build` does before Argo CD's repo-server renders an umbrella chart, done offline-first: each
// dependency `charts/` lacks is obtained the way HelmRelease charts are (the `helm.charts` mapping, the chart cache, a
// pull unless pulling is off, pvlint's bundled app-template), a `file://` one is copied from the repository, and one
// its condition or tags certainly disable gets an empty stand-in (helm only checks that it is there). All of it goes
// into a temporary copy of the chart: the user's repository is never written to.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { certainlyDisabled, chartValues, declaredDependencies, vendoredChartNames, archiveVersion, type ChartDependencies, type DeclaredDependency } from './chart-dependencies.js';
import { isChartArchive, mappedChart, repositoryChart, describeRemote, type RemoteChart } from './helm-release/chart-reference.js';
import { localChartVersion } from './helm-release/chart-version.js';
import { obtainRemoteChart, type BundledFallback, type ChartSupply } from './helm-release/obtain-chart.js';

/** A dependency pvlint put into the copy. */
export interface SuppliedDependency {
  /** Keys from the umbrella's values down to the dependency's (alias or name; nested for dependencies of `file://` ones). */
  keys: string[];
  dependency: DeclaredDependency;
  /** Absolute path (in the repository) of the file that declares it. */
  declaredIn: string;
  /** `file`: copied from the repository; `remote`: obtained; `disabled`: an empty stand-in. */
  how: 'file' | 'remote' | 'disabled';
  /** A `file://` dependency's directory in the repository. */
  sourceDir?: string;
  /** The remote chart as requested. */
  chart?: RemoteChart;
  /** The version rendered, when known. */
  version?: string;
  bundled?: BundledFallback;
  stale?: string;
}

export interface UnavailableDependency {
  dependency: DeclaredDependency;
  declaredIn: string;
  /** How the chart reads in messages. */
  label: string;
  reason: string;
  chart?: RemoteChart;
}

export type PreparedChart =
  | { kind: 'ready'; dir: string; supplied: SuppliedDependency[]; cleanup: () => void }
  | { kind: 'unavailable'; missing: UnavailableDependency };

const isMap = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Dependencies of `file://` dependencies are followed this deep (a chart that depends on itself stops here). */
const MAX_DEPTH = 5;

function missingOf(dir: string): { declared: ChartDependencies; missing: DeclaredDependency[] } | undefined {
  const declared = declaredDependencies(dir);
  if (!declared) return undefined;
  const vendored = vendoredChartNames(dir);
  const missing = declared.list.filter((d) => !vendored.has(d.name));
  return missing.length > 0 ? { declared, missing } : undefined;
}

function isWithin(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The remote chart a dependency names; undefined when it names none (helm then says it is missing). */
function remoteOf(dependency: DeclaredDependency): RemoteChart | { reason: string } | undefined {
  const repository = dependency.repository;
  if (repository === '') return undefined;
  if (/^(oci|https?):\/\//i.test(repository)) return repositoryChart(repository, dependency.name, dependency.version);
  if (repository.startsWith('@') || repository.startsWith('alias:')) {
    return { reason: `its repository ${repository} names a helm repository of the local helm configuration of whoever builds the chart; map ${dependency.name} with helm.charts` };
  }
  return { reason: `its repository ${repository} is not a chart repository URL` };
}

function stubChart(dir: string, dependency: DeclaredDependency, apiVersion: string): string {
  const version = dependency.version && /^v?\d+\.\d+\.\d+/.test(dependency.version) && !/[\s<>=~^*|,]/.test(dependency.version) ? dependency.version : '0.0.0';
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'Chart.yaml'), stringify({ apiVersion, name: dependency.name, version, description: 'pvlint: an empty stand-in for a dependency that is disabled' }));
  return version;
}

interface Supplying {
  supply: ChartSupply;
  root: string;
  supplied: SuppliedDependency[];
  /** Obtained charts already copied into a `charts/` directory, by source path and target directory. */
  copied: Set<string>;
}

/**
 * Puts what `missing` lacks into `copyDir/charts`, recording it. `sourceDir` is where the chart lives in the
 * repository (for `file://` paths and locations), `values` the values helm would coalesce for it.
 */
async function supplyMissing(sourceDir: string, copyDir: string, found: { declared: ChartDependencies; missing: DeclaredDependency[] }, values: Record<string, unknown>, keys: string[], state: Supplying, depth: number): Promise<UnavailableDependency | undefined> {
  const { declared, missing } = found;
  const declaredIn = path.join(sourceDir, path.basename(declared.file));
  const charts = path.join(copyDir, 'charts');
  mkdirSync(charts, { recursive: true });
  const versions = new Map<number, string>();
  for (const dependency of missing) {
    const key = dependency.alias ?? dependency.name;
    const record = { keys: [...keys, key], dependency, declaredIn };
    if (certainlyDisabled(dependency, values)) {
      versions.set(dependency.index, stubChart(path.join(charts, `${dependency.name}-disabled-${dependency.index}`), dependency, declared.apiVersion));
      state.supplied.push({ ...record, how: 'disabled' });
      continue;
    }
    if (dependency.repository.startsWith('file://')) {
      const dir = path.resolve(sourceDir, dependency.repository.slice('file://'.length));
      const label = `${dependency.name} from ${dependency.repository}`;
      if (!isWithin(state.root, dir)) return { dependency, declaredIn, label, reason: 'its path leaves the repository' };
      // Not there: `helm dependency build` fails on it as well, and so does the render (a broken chart, not a missing network).
      if (!existsSync(path.join(dir, 'Chart.yaml'))) continue;
      const target = path.join(charts, `${dependency.name}-file-${dependency.index}`);
      cpSync(dir, target, { recursive: true, filter: (source) => path.basename(source) !== '.git' });
      state.supplied.push({ ...record, how: 'file', sourceDir: dir });
      const nested = depth < MAX_DEPTH ? missingOf(dir) : undefined;
      if (nested) {
        const own = chartValues(dir, []);
        const given = values[key];
        const problem = await supplyMissing(dir, target, nested, isMap(given) ? mergedOver(own, given) : own, [...keys, key], state, depth + 1);
        if (problem) return problem;
      }
      continue;
    }
    const remote = remoteOf(dependency);
    if (remote === undefined) continue;
    const label = 'reason' in remote ? `${dependency.name}${dependency.version ? ` ${dependency.version}` : ''} from ${dependency.repository}` : describeRemote(remote);
    if ('reason' in remote) {
      const mapped = mappedChart(state.supply.chartMappings, { repository: '', chart: dependency.name, version: dependency.version, oci: false });
      if (!mapped) return { dependency, declaredIn, label, reason: remote.reason };
      const version = await placeChart(mapped.path, charts, dependency, state);
      if (version) versions.set(dependency.index, version);
      state.supplied.push({ ...record, how: 'remote', version });
      continue;
    }
    const obtained = await obtainRemoteChart(remote, state.supply);
    if ('reason' in obtained) return { dependency, declaredIn, label, reason: obtained.reason, chart: remote };
    const placed = await placeChart(obtained.path, charts, dependency, state);
    const version = obtained.bundled?.version ?? placed;
    // The copy renders under the dependency's alias and condition only when its version satisfies the declared one.
    if (version) versions.set(dependency.index, version);
    state.supplied.push({ ...record, how: 'remote', chart: remote, version, ...(obtained.bundled ? { bundled: obtained.bundled } : {}), ...(obtained.stale ? { stale: obtained.stale } : {}) });
  }
  if (versions.size > 0) {
    const file = path.join(copyDir, path.basename(declared.file));
    const document = parseDocument(readFileSync(file, 'utf8'));
    for (const [index, version] of versions) document.setIn(['dependencies', index, 'version'], version);
    writeFileSync(file, document.toString());
  }
  return undefined;
}

function mergedOver(base: Record<string, unknown>, top: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(top)) out[key] = isMap(out[key]) && isMap(value) ? mergedOver(out[key] as Record<string, unknown>, value) : value;
  return out;
}

/** Copies a chart (archive or directory) into `charts`, once per target; returns its version. */
async function placeChart(source: string, charts: string, dependency: DeclaredDependency, state: Supplying): Promise<string | undefined> {
  const archive = isChartArchive(source) || (() => {
    try {
      return statSync(source).isFile();
    } catch {
      return false;
    }
  })();
  const target = archive ? path.join(charts, path.basename(source)) : path.join(charts, `${dependency.name}-${dependency.index}`);
  const key = `${source}\0${target}`;
  if (!state.copied.has(key)) {
    state.copied.add(key);
    if (archive) copyFileSync(source, target);
    else cpSync(source, target, { recursive: true });
  }
  if (archive) return archiveVersion(source) ?? (state.supply.helm ? await localChartVersion(state.supply.helm, source, state.supply.timeoutMs) : undefined);
  return localChartVersion([], source, state.supply.timeoutMs);
}

/**
 * The chart at `chartDir` ready for `helm template`: undefined when `charts/` already holds every dependency (render
 * it as it is), a temporary copy with the missing ones supplied (call `cleanup` after rendering), or the first
 * dependency that cannot be had. `valueFiles` are the values helm is given (conditions are read from them).
 */
export async function prepareDependencies(chartDir: string, valueFiles: readonly string[], supply: ChartSupply, root: string): Promise<PreparedChart | undefined> {
  const found = missingOf(chartDir);
  if (!found) return undefined;
  const temp = mkdtempSync(path.join(os.tmpdir(), 'pvlint-chart-'));
  const cleanup = () => rmSync(temp, { recursive: true, force: true });
  try {
    const copy = path.join(temp, path.basename(chartDir));
    cpSync(chartDir, copy, { recursive: true, filter: (source) => path.basename(source) !== '.git' });
    const state: Supplying = { supply, root, supplied: [], copied: new Set() };
    const missing = await supplyMissing(chartDir, copy, found, chartValues(chartDir, valueFiles), [], state, 0);
    if (missing) {
      cleanup();
      return { kind: 'unavailable', missing };
    }
    return { kind: 'ready', dir: copy, supplied: state.supplied, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}
