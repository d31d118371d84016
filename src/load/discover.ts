// Expands the command-line paths into what to lint: Kustomize roots and Helm charts to render (each one
// environment), and loose manifests that nothing renders. Files a kustomization reads are never loose.
import fg from 'fast-glob';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { findEntryPoints } from '../render/entry-points.js';
import { KUSTOMIZATION_FILES } from '../render/kustomization.js';
import { SourceCache } from '../render/source-cache.js';

export interface DiscoverOptions {
  cwd: string;
  /** Extra globs to skip, relative to each directory argument (or absolute). */
  ignore?: readonly string[];
  /** Shared with the renderers so each kustomization is read once per run. */
  cache?: SourceCache;
}

export interface DiscoveredInput {
  /** The argument as the user gave it. */
  argument: string;
  /** `-` reads standard input. */
  stdin: boolean;
  /** Loose manifests: not inside a chart, not read by any kustomization under the argument. */
  files: string[];
  /** Helm chart directories to render (subcharts and kustomize chart homes excluded). */
  charts: string[];
  /** Kustomize roots to render: the argument itself when it is one, else roots no other root includes. */
  kustomizations: string[];
}

export class UsageError extends Error {}

const MANIFEST_GLOBS = ['**/*.{yaml,yml,json}', '**/Kustomization'];
const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];
const KUSTOMIZATION_NAMES = new Set<string>(KUSTOMIZATION_FILES);

/** True when `dir` or an ancestor up to `stop` is in `dirs`: a walk up the tree, not a scan of `dirs`. */
function withinAny(dir: string, dirs: ReadonlySet<string>, stop: string): boolean {
  let current = dir;
  for (;;) {
    if (dirs.has(current)) return true;
    if (current === stop) return false;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

export async function discover(argument: string, options: DiscoverOptions): Promise<DiscoveredInput> {
  const empty = { argument, stdin: false, files: [], charts: [], kustomizations: [] };
  if (argument === '-') return { ...empty, stdin: true };
  const absolute = path.resolve(options.cwd, argument);
  let info;
  try {
    info = await stat(absolute);
  } catch {
    throw new UsageError(`path not found: ${argument}`);
  }
  if (info.isFile()) {
    const base = path.basename(absolute);
    // Naming a kustomization or Chart.yaml means "render this", like naming its directory.
    if (KUSTOMIZATION_NAMES.has(base)) return { ...empty, kustomizations: [path.dirname(absolute)] };
    if (base === 'Chart.yaml') return { ...empty, charts: [path.dirname(absolute)] };
    return { ...empty, files: [absolute] };
  }
  if (!info.isDirectory()) throw new UsageError(`not a file or directory: ${argument}`);
  const ignore = [...ALWAYS_IGNORED, ...(options.ignore ?? [])];
  const found = await fg(MANIFEST_GLOBS, { cwd: absolute, ignore, dot: false, followSymbolicLinks: false, onlyFiles: true });
  const kustomizationDirs = new Set<string>();
  const chartDirs = new Set<string>();
  const candidates: string[] = [];
  for (const rel of found) {
    const file = path.join(absolute, rel);
    const base = path.basename(file);
    if (KUSTOMIZATION_NAMES.has(base)) kustomizationDirs.add(path.dirname(file));
    else if (base === 'Chart.yaml') chartDirs.add(path.dirname(file));
    else candidates.push(file);
  }
  const cache = options.cache ?? new SourceCache(options.cwd);
  // Kustomizations inside a chart are chart content (e.g. templates), not roots.
  const roots = [...kustomizationDirs].filter((dir) => !withinAny(dir, chartDirs, absolute));
  const entries = findEntryPoints(cache, roots, [...chartDirs], absolute);
  const files = candidates
    .filter((file) => !entries.referenced.has(file) && !withinAny(path.dirname(file), chartDirs, absolute))
    .sort();
  return { argument, stdin: false, files, charts: entries.charts, kustomizations: entries.kustomizations };
}

/** The repository root that report paths are relative to: the enclosing git work tree, else the cwd. */
export async function findRepoRoot(cwd: string): Promise<string> {
  let dir = path.resolve(cwd);
  for (;;) {
    try {
      await stat(path.join(dir, '.git'));
      return dir;
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return path.resolve(cwd);
      dir = parent;
    }
  }
}
