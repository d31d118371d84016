// Expands the command-line paths into the files to read, skipping what is never a manifest.
import fg from 'fast-glob';
import { stat } from 'node:fs/promises';
import path from 'node:path';

export interface DiscoverOptions {
  cwd: string;
  /** Extra globs to skip, relative to each directory argument (or absolute). */
  ignore?: readonly string[];
}

export interface DiscoveredInput {
  /** The argument as the user gave it. */
  argument: string;
  /** `-` reads standard input. */
  stdin: boolean;
  files: string[];
  /** Helm chart directories found under the argument (their templates are not plain manifests). */
  charts: string[];
}

export class UsageError extends Error {}

const MANIFEST_GLOB = '**/*.{yaml,yml,json}';
const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];

export async function discover(argument: string, options: DiscoverOptions): Promise<DiscoveredInput> {
  if (argument === '-') return { argument, stdin: true, files: [], charts: [] };
  const absolute = path.resolve(options.cwd, argument);
  let info;
  try {
    info = await stat(absolute);
  } catch {
    throw new UsageError(`path not found: ${argument}`);
  }
  if (info.isFile()) return { argument, stdin: false, files: [absolute], charts: [] };
  if (!info.isDirectory()) throw new UsageError(`not a file or directory: ${argument}`);
  const ignore = [...ALWAYS_IGNORED, ...(options.ignore ?? [])];
  const charts = (await fg('**/Chart.yaml', { cwd: absolute, ignore, dot: false, followSymbolicLinks: false }))
    .map((chartFile) => path.dirname(chartFile));
  // Chart templates are Go templates, not YAML; the Helm renderer reads them, the YAML loader must not.
  const chartIgnores = charts.flatMap((dir) => (dir === '.' ? ['templates/**', 'charts/**'] : [`${dir}/templates/**`, `${dir}/charts/**`]));
  const files = await fg(MANIFEST_GLOB, {
    cwd: absolute,
    ignore: [...ignore, ...chartIgnores],
    dot: false,
    followSymbolicLinks: false,
    onlyFiles: true,
  });
  files.sort();
  return {
    argument,
    stdin: false,
    files: files.map((file) => path.join(absolute, file)),
    charts: charts.sort().map((dir) => path.join(absolute, dir)),
  };
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
