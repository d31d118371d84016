// The dependencies a local chart declares (Chart.yaml `dependencies:`, or requirements.yaml for apiVersion v1
// charts), which of them its `charts/` directory already holds, and which ones helm would leave out because a
// `condition` or `tags` disables them. `helm template` refuses a chart whose dependencies are not all in
// `charts/` (it compares chart names only, action.CheckDependencies); it then removes the disabled ones
// (chartutil.processDependencyEnabled): the first `condition` path that holds a boolean decides, else the tags.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { coalesceValues } from './coalesce-values.js';

export interface DeclaredDependency {
  /** Index in the declaring file's `dependencies` list. */
  index: number;
  name: string;
  alias?: string;
  /** An exact version, a range, or undefined. */
  version?: string;
  /** `https://…`, `oci://…`, `file://…`, `@name` / `alias:name`, or '' when none is declared. */
  repository: string;
  condition?: string;
  tags: string[];
}

export interface ChartDependencies {
  /** Absolute path of the file that declares them (Chart.yaml or requirements.yaml). */
  file: string;
  apiVersion: string;
  list: DeclaredDependency[];
}

const isMap = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);

function readYaml(file: string): unknown {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The chart's declared dependencies; undefined when it declares none (or its files do not parse: helm says why). */
export function declaredDependencies(chartDir: string): ChartDependencies | undefined {
  const chartFile = path.join(chartDir, 'Chart.yaml');
  const chart = readYaml(chartFile);
  if (!isMap(chart)) return undefined;
  const apiVersion = text(chart.apiVersion) ?? 'v1';
  let file = chartFile;
  let entries: unknown = chart.dependencies;
  // helm reads requirements.yaml only for apiVersion v1 charts (and ignores it, with a warning, for v2).
  if (apiVersion === 'v1') {
    const requirementsFile = path.join(chartDir, 'requirements.yaml');
    const requirements = readYaml(requirementsFile);
    if (isMap(requirements) && Array.isArray(requirements.dependencies)) {
      file = requirementsFile;
      entries = requirements.dependencies;
    }
  }
  if (!Array.isArray(entries)) return undefined;
  const list: DeclaredDependency[] = [];
  entries.forEach((entry, index) => {
    if (!isMap(entry) || !text(entry.name)) return;
    list.push({
      index,
      name: text(entry.name)!,
      alias: text(entry.alias),
      version: text(entry.version),
      repository: text(entry.repository) ?? '',
      condition: text(entry.condition),
      tags: Array.isArray(entry.tags) ? entry.tags.filter((t): t is string => typeof t === 'string') : [],
    });
  });
  return list.length > 0 ? { file, apiVersion, list } : undefined;
}

/** `name-1.2.3.tgz` as `helm dependency build` and `helm pull` name archives. */
const ARCHIVE = /^(.+?)-v?\d+\.\d+\.\d+[^/]*\.tgz$/;

/** Names of the charts `charts/` holds: subdirectories by their Chart.yaml name, archives by their file name. */
export function vendoredChartNames(chartDir: string): Set<string> {
  const names = new Set<string>();
  let entries: import('node:fs').Dirent[] = [];
  try {
    entries = readdirSync(path.join(chartDir, 'charts'), { withFileTypes: true });
  } catch {
    return names;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) {
      const chart = readYaml(path.join(chartDir, 'charts', entry.name, 'Chart.yaml'));
      if (isMap(chart) && text(chart.name)) names.add(text(chart.name)!);
    } else {
      const archive = ARCHIVE.exec(entry.name);
      if (archive) names.add(archive[1]);
    }
  }
  return names;
}

/** The version in an archive's file name (`app-template-4.1.1.tgz` → `4.1.1`). */
export function archiveVersion(file: string): string | undefined {
  return /-(v?\d+\.\d+\.\d+[^/]*)\.tgz$/.exec(path.basename(file))?.[1];
}

/** The chart's values.yaml with each values file on top (later files win), as helm coalesces them. */
export function chartValues(chartDir: string, valueFiles: readonly string[]): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const file of [path.join(chartDir, 'values.yaml'), ...valueFiles]) {
    const values = readYaml(file);
    if (isMap(values)) coalesceValues(merged, values);
  }
  return merged;
}

/** helm's `Values.PathValue`: `a.b.c` through nested maps. */
function pathValue(values: Record<string, unknown>, dotted: string): unknown {
  let node: unknown = values;
  for (const key of dotted.split('.')) {
    if (!isMap(node) || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * True only when helm certainly leaves the dependency out: a `condition` path holds `false` in the values the
 * repository gives, or its tags disable it and it has no condition. A condition no value answers may be answered by
 * the dependency's own defaults, which pvlint does not have while the dependency is missing: not certain.
 */
export function certainlyDisabled(dependency: DeclaredDependency, values: Record<string, unknown>): boolean {
  // helm trims the whole condition, not each path of the list.
  for (const condition of (dependency.condition ?? '').trim().split(',')) {
    if (condition === '') continue;
    const value = pathValue(values, condition);
    if (typeof value === 'boolean') return !value;
  }
  if (dependency.condition !== undefined && dependency.condition.trim() !== '') return false;
  const tags = values.tags;
  if (!isMap(tags) || dependency.tags.length === 0) return false;
  const set = dependency.tags.map((tag) => tags[tag]).filter((v): v is boolean => typeof v === 'boolean');
  return set.includes(false) && !set.includes(true);
}
