// `pvlint --list-environments`: the environments of the given paths with an estimate of their size, found without
// rendering anything, to spread a large repository over CI jobs (one `--environment NAME` each).
import fg from 'fast-glob';
import { statSync } from 'node:fs';
import { findRepoRoot, isManifestName } from '../load/discover.js';
import { resolveLimits } from '../load/limits.js';
import { toDisplayPath } from '../load/source-file.js';
import { SourceCache } from '../render/source-cache.js';
import { discoverInputs } from './discover-inputs.js';
import { gitopsForPaths } from '../gitops/gitops-environments.js';
import { BuildReach } from '../gitops/flux-entries.js';
import type { GitopsOptions } from '../gitops/gitops-options.js';
import { LocateStage } from '../locate/locate-stage.js';
import { enumerateEnvironments, type EnvironmentKind } from './environments.js';

export interface ListedEnvironment {
  name: string;
  kind: EnvironmentKind;
  /** Repo-relative path of the root, chart or argument (`-` for standard input). */
  entry: string;
  /**
   * An estimate of the work: for loose manifests the files read; for a Kustomize root the files its kustomizations
   * and theirs reference (remote bases and chart inflation not counted); for a chart the manifests and templates
   * under its directory.
   */
  files: number;
  bytes: number;
}

export interface ListOptions {
  paths: readonly string[];
  cwd: string;
  ignore?: readonly string[];
  followSymlinks?: boolean;
  limits?: Parameters<typeof resolveLimits>[0];
  /** Clusters declared by hand and this repository's repoURLs (the configuration's `clusters:` and `gitops:`). */
  gitops?: GitopsOptions;
}

function sizeOf(files: Iterable<string>): { files: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const file of files) {
    try {
      bytes += statSync(file).size;
      count++;
    } catch {
      // Gone or unreadable: linting it reports why; it adds nothing to the estimate.
    }
  }
  return { files: count, bytes };
}

function filesUnder(dir: string, ignore: readonly string[]): string[] {
  return fg
    .sync(['**/*'], { cwd: dir, absolute: true, onlyFiles: true, dot: false, followSymbolicLinks: false, suppressErrors: true, ignore: ['**/.git/**', '**/node_modules/**', ...ignore] })
    .filter((file) => isManifestName(file.slice(file.lastIndexOf('/') + 1)) || file.endsWith('.tpl'));
}

export async function listEnvironments(options: ListOptions): Promise<ListedEnvironment[]> {
  const root = await findRepoRoot(options.cwd);
  const cache = new SourceCache(root);
  // Listing is not linting: an argument with nothing in it is listed (empty), not refused.
  const inputs = await discoverInputs({ ...options, root, cache, maxFiles: resolveLimits(options.limits).maxFiles, allowEmpty: true });
  // A GitOps cluster is known once its Kustomizations or Applications are followed, which builds them.
  const gitops = await gitopsForPaths(cache, options.paths, options.cwd, root, { ...options, ...options.gitops, locateAt: new LocateStage().at });
  // The local files a Kustomize build reads, following the kustomizations it includes.
  const reach = new BuildReach(cache);
  const clusterFiles = new Map(gitops.clusters.map((c) => [c.name, new Set(c.resources.map((r) => r.origin?.file?.absPath ?? r.file.absPath))]));
  return enumerateEnvironments(inputs, root, options.cwd, gitops).map((e) => ({
    name: e.name,
    kind: e.kind,
    entry: e.entry === '-' ? '-' : toDisplayPath(e.entry, root),
    ...sizeOf(e.kind === 'manifests' ? (e.files ?? []) : e.kind === 'kustomize' ? reach.filesOf(e.entry) : clusterFiles.get(e.name) ?? filesUnder(e.entry, options.ignore ?? [])),
  }));
}

export function environmentsJson(environments: readonly ListedEnvironment[]): string {
  return `${JSON.stringify({ environments }, null, 2)}\n`;
}

export function environmentsText(environments: readonly ListedEnvironment[]): string {
  const header = ['environment', 'kind', 'files', 'bytes'];
  const rows = environments.map((e) => [e.name, e.kind, String(e.files), String(e.bytes)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line), ''].join('\n');
}
