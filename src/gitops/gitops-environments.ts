// The clusters a GitOps repository describes, as environments: Flux entries found under the linted
// directories, each followed from the repository root. It also says which kustomize roots and files the
// clusters read, so the plain per-root environments and loose manifests leave them to the clusters.
import { existsSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { makeResource } from '../load/parse-resources.js';
import { resolveLimits, type Limits } from '../load/limits.js';
import { directoryListings } from '../load/directory-listings.js';
import { readAtMost } from '../load/read-at-most.js';
import { diagnostic } from '../engine/diagnostic.js';
import { DEFAULT_RENDER_TIMEOUT_MS, dependencySupply, helmCommand, kustomizeCommand } from '../render/render-all.js';
import type { ChartMapping } from '../render/helm-release/chart-reference.js';
import { buildArgoClusters, inferHomeUrls } from './argocd-clusters.js';
import { ProcessSlots } from '../render/pool.js';
import type { RenderedScope } from '../render/rendered-scope.js';
import type { SourceCache } from '../render/source-cache.js';
import type { LocateAt, Resource } from '../types.js';
import { buildFluxCluster, type FluxCluster } from './flux-cluster.js';
import { BuildReach, findFluxEntries, fluxPath } from './flux-entries.js';
import { scanGitopsObjects } from './scan-gitops-objects.js';
import type { DeclaredCluster } from './gitops-options.js';
import type { ObjectLookup } from './flux-variables.js';

export interface GitopsSettings {
  kustomizeCommand?: string;
  renderTimeoutMs?: number;
  limits?: Partial<Limits>;
  concurrency?: number;
  ignore?: readonly string[];
  helmCommand?: string;
  /** repoURLs that mean this repository (Argo CD sources); inferred when empty. */
  repoURLs?: readonly string[];
  /** Argo CD `kustomize.buildOptions`; read from an argocd-cm ConfigMap in the repository when undefined. */
  argocdBuildOptions?: string;
  /** Clusters declared in the configuration: they replace the entries found for the same directories. */
  clusters?: readonly DeclaredCluster[];
  /** Where dependencies of Argo CD helm sources come from when `charts/` lacks them (as for HelmRelease charts). */
  chartCache?: string;
  helmChartMappings?: readonly ChartMapping[];
  pullCharts?: boolean;
  bundledCharts?: boolean;
  /** Places what a cluster could not interpret and its render problems (the run's locate stage). */
  locateAt: LocateAt;
}

export interface GitopsOutcome {
  clusters: FluxCluster[];
  /** Kustomize roots and Helm charts a cluster builds: not environments of their own. */
  coveredRoots: Set<string>;
  /** Files a cluster reads: not loose manifests. */
  coveredFiles: Set<string>;
  stats: { renders: number; ms: number };
}

// A `name:`/`generateName:` whose double-quoted value has an escape (`"argocd\x2dcm"`): the name need not appear as written.
const ESCAPED_NAME = /[nN]ame["']?\s*:[^\n"]*"[^"\n]*\\/;
/** Files the repository-wide lookup reads to find the ConfigMaps and Secrets it is asked for: over this one is skipped. */
const MAX_LOOKUP_FILE_BYTES = 4 * 1024 * 1024;
/** Entries of any kind the lookup's walk of the repository may list besides twice `maxFiles` (as discovery's listing). */
const LOOKUP_LISTING_SLACK = 65_536;

/** The repository's ConfigMaps and Secrets by kind, namespace and name, and why the search was cut short, if it was. */
interface RepositoryObjects {
  lookup: ObjectLookup;
  /** Set once the search stopped at a bound: an object not found may lie past it. */
  cut(): string | undefined;
}

/**
 * ConfigMaps and Secrets written anywhere in the repository, found on the first variable source a cluster lacks. Only
 * the files that could hold the name asked for are parsed: its text, or an escape that could spell it. The walk and
 * the reading are bounded as the run's input is (entries as discovery's listing, maxTotalBytes of candidate files),
 * since the repository root may be far larger than what is linted.
 */
function repositoryObjects(cache: SourceCache, root: string, ignore: readonly string[], limits: Limits): RepositoryObjects {
  let candidates: { file: string; escaped: boolean }[] | undefined;
  let scratch: Buffer | undefined;
  let cut: string | undefined;
  const byName = new Map<string, Resource[]>();
  const candidateFiles = () => {
    const found: { file: string; escaped: boolean }[] = [];
    const reader = directoryListings(cache).bounded(2 * limits.maxFiles + LOOKUP_LISTING_SLACK);
    const files = fg.sync(['**/*.yaml', '**/*.yml'], { cwd: root, absolute: true, dot: true, ignore: ['**/.git/**', '**/node_modules/**', ...ignore], suppressErrors: true, fs: reader.fs });
    if (reader.passed()) cut = `after listing ${(2 * limits.maxFiles + LOOKUP_LISTING_SLACK).toLocaleString('en-US')} files and directories (twice maxFiles and more)`;
    const buffer = (scratch ??= Buffer.allocUnsafe(MAX_LOOKUP_FILE_BYTES + 1));
    let bytesLeft = limits.maxTotalBytes;
    for (const file of files.sort()) {
      const length = readAtMost(file, buffer);
      if (length === undefined || length > MAX_LOOKUP_FILE_BYTES) continue;
      const bytes = buffer.subarray(0, length);
      // Most files name neither kind: not worth decoding.
      if (!bytes.includes('ConfigMap') && !bytes.includes('Secret')) continue;
      const text = bytes.toString('utf8');
      if (!/^kind:\s*["']?(?:ConfigMap|Secret)\b/m.test(text)) continue;
      bytesLeft -= length;
      if (bytesLeft < 0) {
        cut = `after reading ${limits.maxTotalBytes.toLocaleString('en-US')} bytes of files that hold ConfigMaps or Secrets (maxTotalBytes)`;
        break;
      }
      found.push({ file, escaped: ESCAPED_NAME.test(text) });
    }
    return found;
  };
  const named = (name: string): Resource[] => {
    const index: Resource[] = [];
    for (const { file, escaped } of (candidates ??= candidateFiles())) {
      // Only a file that could hold the name is kept (and parsed) in the run's source cache; the others are read again.
      if (!escaped) {
        const buffer = (scratch ??= Buffer.allocUnsafe(MAX_LOOKUP_FILE_BYTES + 1));
        const length = readAtMost(file, buffer);
        if (length === undefined || !buffer.subarray(0, length).includes(name)) continue;
      }
      const source = cache.get(file);
      if (!source || (!source.file.text.includes(name) && !ESCAPED_NAME.test(source.file.text))) continue;
      for (const d of source.documents) {
        if ((d.object?.kind === 'ConfigMap' || d.object?.kind === 'Secret')) index.push(makeResource(source.file, d.docIndex, () => d.node, d.object));
      }
    }
    return index;
  };
  return {
    lookup: (kind, namespace, name) => {
      let index = byName.get(name);
      if (!index) byName.set(name, (index = named(name)));
      const matches = index.filter((r) => r.kind === kind && r.name === name);
      return matches.find((r) => r.namespace === namespace) ?? (matches.length === 1 ? matches[0] : undefined);
    },
    cut: () => cut,
  };
}

/**
 * A cluster's view of the repository's objects, noting what it asked for and did not find while the search was cut
 * short; `report` says so in the cluster's findings (the object may exist past the bound).
 */
function trackedLookup(repository: RepositoryObjects, cache: SourceCache, root: string): { lookup: ObjectLookup; report: (clusters: readonly FluxCluster[]) => void } {
  const missed: string[] = [];
  return {
    lookup: (kind, namespace, name) => {
      const found = repository.lookup(kind, namespace, name);
      const label = `${kind} ${namespace}/${name}`;
      if (!found && repository.cut() && !missed.includes(label)) missed.push(label);
      return found;
    },
    report: (clusters) => {
      if (missed.length === 0 || clusters.length === 0) return;
      const names = clusters.map((c) => c.name);
      clusters[0]!.diagnostics.push(
        diagnostic(
          'pvlint/limit',
          `the search of the repository (${cache.displayPath(root)}) for ${missed.join(', ')} stopped ${repository.cut()}; not found before that, so what the cluster reads from it is not interpreted`,
          { file: cache.displayPath(root), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } },
          'warning',
          names,
        ),
      );
    },
  };
}

export async function gitopsEnvironments(cache: SourceCache, root: string, searchDirs: readonly string[], settings: GitopsSettings): Promise<GitopsOutcome> {
  const started = Date.now();
  const outcome: GitopsOutcome = { clusters: [], coveredRoots: new Set(), coveredFiles: new Set(), stats: { renders: 0, ms: 0 } };
  const kustomizations: Resource[] = [];
  const argo: Resource[] = [];
  const scanned = new Set<string>();
  for (const dir of searchDirs) {
    const objects = await scanGitopsObjects(cache, dir, settings.ignore);
    argo.push(...objects.argo.filter((o) => !argo.some((known) => known.file.absPath === o.file.absPath && known.docIndex === o.docIndex)));
    for (const k of objects.flux) {
      const key = `${k.file.absPath}#${k.docIndex}#${k.name}`;
      if (!scanned.has(key)) {
        scanned.add(key);
        kustomizations.push(k);
      }
    }
  }
  const declared = settings.clusters ?? [];
  if (kustomizations.length === 0 && argo.length === 0 && declared.length === 0) return outcome;
  const reach = new BuildReach(cache);
  const declaredDirs = new Set(declared.flatMap((c) => c.entries));
  const entries = findFluxEntries(root, kustomizations, reach).filter((entry) => !declaredDirs.has(entry.dir));
  const command = kustomizeCommand(settings.kustomizeCommand) ?? ['kubectl', 'kustomize'];
  const memo = new Map<string, Promise<RenderedScope>>();
  const stats = { renders: 0 };
  const concurrency = settings.concurrency ?? (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
  const repository = repositoryObjects(cache, root, settings.ignore ?? [], resolveLimits(settings.limits));
  const timeoutMs = settings.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const clusters: FluxCluster[] = [];
  const slots = new ProcessSlots(concurrency);
  const buildSettings = { command, timeoutMs, limits: settings.limits, concurrency, memo, stats, locateAt: settings.locateAt, slots };
  for (const cluster of declared) {
    const tracked = trackedLookup(repository, cache, root);
    // An entry that syncs itself (gotk-sync.yaml) is built with that Kustomization's spec, as when found.
    const starts = cluster.entries.map((dir) => ({ dir, sync: kustomizations.find((k) => fluxPath(root, k.object?.spec?.path) === dir && reach.filesOf(dir).has(k.file.absPath)) }));
    const missing = starts.filter((start) => !existsSync(start.dir));
    const present = starts.filter((start) => existsSync(start.dir));
    const built: FluxCluster =
      present.length > 0
        ? await buildFluxCluster(cache, root, present, buildSettings, tracked.lookup, cluster.name)
        : { name: cluster.name, entry: root, resources: [], diagnostics: [], notInterpreted: [], built: [], documents: 0 };
    tracked.report([built]);
    for (const start of missing) {
      built.notInterpreted.push({ environment: cluster.name, file: cache.displayPath(start.dir), kind: 'root', name: cache.displayPath(start.dir), reason: `the entry ${cache.displayPath(start.dir)} declared in the configuration's clusters: does not exist` });
    }
    clusters.push(cluster.cluster ? { ...built, facts: cluster.cluster } : built);
  }
  for (const entry of entries) {
    const tracked = trackedLookup(repository, cache, root);
    const built = await buildFluxCluster(cache, root, [entry], buildSettings, tracked.lookup);
    tracked.report([built]);
    clusters.push(built);
  }
  if (argo.length > 0) {
    const tracked = trackedLookup(repository, cache, root);
    const buildOptions = settings.argocdBuildOptions ?? tracked.lookup('ConfigMap', 'argocd', 'argocd-cm')?.object?.data?.['kustomize.buildOptions'];
    const helm = helmCommand(settings.helmCommand);
    const argoClusters = await buildArgoClusters(cache, root, argo, reach, {
      kustomize: kustomizeCommand(settings.kustomizeCommand),
      helm,
      charts: dependencySupply(helm, settings, timeoutMs),
      buildOptions: typeof buildOptions === 'string' ? buildOptions.split(/\s+/).filter(Boolean) : [],
      timeoutMs,
      limits: settings.limits,
      memo,
      stats,
      concurrency,
      slots,
      homeUrls: inferHomeUrls(root, argo, settings.repoURLs ?? []),
      locateAt: settings.locateAt,
    });
    tracked.report(argoClusters);
    clusters.push(...argoClusters);
  }
  for (const cluster of clusters) {
    outcome.clusters.push(cluster);
    for (const dir of cluster.built) {
      outcome.coveredRoots.add(dir);
      reach.rootsOf(dir).forEach((r) => outcome.coveredRoots.add(r));
      reach.filesOf(dir).forEach((f) => outcome.coveredFiles.add(f));
    }
    for (const resource of cluster.resources) {
      const file = resource.origin?.file?.absPath ?? (resource.origin ? undefined : resource.file.absPath);
      if (file) outcome.coveredFiles.add(file);
    }
  }
  outcome.stats = { renders: stats.renders, ms: Date.now() - started };
  return outcome;
}

/** Whether a cluster's objects are all pvlint has of it: no HelmRelease or chart left unrendered. */
export function rendersEverything(cluster: FluxCluster): boolean {
  return cluster.notInterpreted.every((entry) => !entry.chart && entry.kind !== 'HelmRelease');
}

/** The arguments that are directories: where cluster entries are looked for. */
/**
 * The repository a directory argument belongs to, which Flux `spec.path` and Argo CD `source.path` are relative to:
 * the git work tree around it. Without one (a copy or an extracted archive), the nearest of the argument and its
 * ancestors where the paths its GitOps objects name exist: `pvlint copy/clusters/prod` finds `copy`, where
 * `./apps/prod` is. With no path to go by, the argument itself: a guess beyond it (the working directory, which may be
 * `$HOME` or `/`) would have the repository-wide lookups walk and read whatever lies around it, and the result
 * depend on where pvlint was started.
 */
export async function gitopsRootOf(dir: string, cache?: SourceCache): Promise<string> {
  for (let at = path.resolve(dir); ; ) {
    try {
      await stat(path.join(at, '.git'));
      return at;
    } catch {
      const parent = path.dirname(at);
      if (parent === at) break;
      at = parent;
    }
  }
  if (cache) {
    const named = await namedPaths(cache, dir);
    if (named.length > 0) {
      let best: { at: string; found: number } | undefined;
      for (let at = path.resolve(dir), depth = 0; depth < 8; depth++) {
        const found = named.filter((p) => existsSync(fluxPath(at, p))).length;
        if (found > 0 && (!best || found > best.found)) best = { at, found };
        if (found === named.length) break;
        const parent = path.dirname(at);
        if (parent === at) break;
        at = parent;
      }
      if (best) return best.at;
    }
  }
  return path.resolve(dir);
}

/** The repository paths the Flux Kustomizations and Argo CD Applications under a directory name. */
async function namedPaths(cache: SourceCache, dir: string): Promise<string[]> {
  const objects = await scanGitopsObjects(cache, dir);
  const paths = [
    ...objects.flux.map((k) => k.object?.spec?.path),
    ...objects.argo.flatMap((a) => [a.object?.spec?.source?.path, ...((a.object?.spec?.sources ?? []) as any[]).map((x) => x?.path)]),
  ];
  return [...new Set(paths.filter((p): p is string => typeof p === 'string' && p !== '' && !p.includes('{{') && !p.includes('${')))];
}

/** Directory arguments grouped by the repository they belong to (`gitopsRootOf`), in argument order. */
export async function directoriesByRepository(dirs: readonly string[], cache?: SourceCache): Promise<Map<string, string[]>> {
  const groups = new Map<string, string[]>();
  for (const dir of dirs) {
    const repository = await gitopsRootOf(dir, cache);
    groups.set(repository, [...(groups.get(repository) ?? []), dir]);
  }
  return groups;
}

/**
 * The GitOps clusters of the path arguments, each repository's built from its own root (`gitopsRootOf`). Clusters
 * declared in the configuration go with the repository that holds their entries.
 */
export async function gitopsForPaths(cache: SourceCache, paths: readonly string[], cwd: string, root: string, settings: GitopsSettings): Promise<GitopsOutcome> {
  const repositories = await directoriesByRepository(directoryArguments(paths, cwd), cache);
  if (repositories.size === 0 && (settings.clusters?.length ?? 0) > 0) repositories.set(root, []);
  const outcomes: GitopsOutcome[] = [];
  for (const [repository, dirs] of repositories) {
    const clusters = settings.clusters?.filter((c) => repositories.size === 1 || c.entries.some((entry) => isWithin(repository, entry)));
    outcomes.push(await gitopsEnvironments(cache, repository, dirs, { ...settings, ...(clusters ? { clusters } : {}) }));
  }
  return mergeOutcomes(outcomes);
}

function isWithin(dir: string, file: string): boolean {
  const relative = path.relative(dir, path.resolve(dir, file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Outcomes of several repositories as one. */
export function mergeOutcomes(outcomes: readonly GitopsOutcome[]): GitopsOutcome {
  const merged: GitopsOutcome = { clusters: [], coveredRoots: new Set(), coveredFiles: new Set(), stats: { renders: 0, ms: 0 } };
  for (const outcome of outcomes) {
    merged.clusters.push(...outcome.clusters);
    outcome.coveredRoots.forEach((dir) => merged.coveredRoots.add(dir));
    outcome.coveredFiles.forEach((file) => merged.coveredFiles.add(file));
    merged.stats.renders += outcome.stats.renders;
    merged.stats.ms += outcome.stats.ms;
  }
  return merged;
}

export function directoryArguments(paths: readonly string[], cwd: string): string[] {
  return paths
    .filter((p) => p !== '-')
    .map((p) => path.resolve(cwd, p))
    .filter((p) => {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    });
}
