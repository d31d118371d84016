// One Flux cluster as kustomize-controller applies it: the entry is built, every Flux Kustomization in the
// (patched, substituted) output that builds from this repository is built in turn, level by level, and all
// objects together are the cluster's environment. What is not followed is said, never skipped silently.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../engine/diagnostic.js';
import { deriveResource, derivedFrom } from '../load/parse-resources.js';
import type { Limits } from '../load/limits.js';
import { renderKustomization } from '../render/kustomize-render.js';
import type { ProcessSlots } from '../render/pool.js';
import { mapPool } from '../render/pool.js';
import type { RenderedScope } from '../render/rendered-scope.js';
import type { SourceCache } from '../render/source-cache.js';
import type { ClusterFacts } from '../model/cluster-facts.js';
import type { Finding, LocateAt, Resource } from '../types.js';
import { buildSpecOf, fluxWrapper, planFluxBuild, type FluxBuildPlan } from './flux-build.js';
import { fluxSpecLayer } from './flux-spec-layer.js';
import { fluxPath, isFluxKustomization, type FluxEntry } from './flux-entries.js';
import { loadVariables, type ObjectLookup } from './flux-variables.js';
import { gitopsKey, type NotInterpreted } from './not-interpreted.js';
import { isStoragePath, unsetVariables, unsubstitutedPlaceholders } from './flux-placeholders.js';
import { substituteResource } from './substituted-resource.js';

export interface FluxBuildSettings {
  command: readonly string[];
  timeoutMs: number;
  limits?: Partial<Limits>;
  concurrency: number;
  /** Builds by plan key, shared by every cluster of a run: a path is rendered once per set of build options. */
  memo: Map<string, Promise<RenderedScope>>;
  /** Counts kustomize runs (measured in the closing note of the GitOps work, and by tests). */
  stats: { renders: number };
  /** Places what is not interpreted and build problems (the run's locate stage). */
  locateAt: LocateAt;
  /** The run's renderer processes, `concurrency` of them (see ProcessSlots). */
  slots?: ProcessSlots;
}

export interface FluxCluster {
  name: string;
  entry: string;
  resources: Resource[];
  diagnostics: Finding[];
  notInterpreted: NotInterpreted[];
  /** Directories built for this cluster (each Kustomization's `spec.path`, the entry). */
  built: string[];
  /** Facts of a cluster declared in the configuration. */
  facts?: ClusterFacts;
  /** Documents the builds printed (each build counted once per cluster). */
  documents: number;
}

interface Step {
  dir: string;
  /** The Flux Kustomization asking for the build; none for an entry directory without a sync object. */
  kustomization?: Resource;
  plan?: FluxBuildPlan;
}

/** Where an object is written in the repository (its source file, not the rendered stream). */
function placeOf(resource: Resource, locate: LocateAt): { file: string; line?: number } {
  try {
    const at = locate(resource, ['kind']).location;
    return { file: at.file, line: at.region.startLine };
  } catch {
    return { file: resource.file.path };
  }
}

function identity(r: Resource): string {
  return gitopsKey(r.apiVersion, r.kind, r.namespace, r.name);
}

/** Repository URLs compare without scheme, credentials, `.git` and trailing slashes. */
export function normalizeRepoUrl(url: string): string {
  return url
    .trim()
    .replace(/^[a-z+]+:\/\//i, '')
    .replace(/^[^@/]+@/, '')
    .replace(/:(?!\d)/, '/')
    .replace(/\.git\/?$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

function chartOf(release: Resource, all: readonly Resource[]): NotInterpreted['chart'] {
  const spec = release.object?.spec ?? {};
  const template = spec.chart?.spec;
  const ref = template?.sourceRef ?? spec.chartRef;
  const sourceKind = typeof ref?.kind === 'string' ? ref.kind : undefined;
  const sourceName = typeof ref?.name === 'string' ? ref.name : undefined;
  const sourceNamespace = typeof ref?.namespace === 'string' ? ref.namespace : release.namespace;
  const source = all.find((r) => r.kind === sourceKind && r.name === sourceName && (r.namespace ?? sourceNamespace) === sourceNamespace);
  const url = typeof source?.object?.spec?.url === 'string' ? source.object.spec.url : undefined;
  const tag = source?.object?.spec?.ref?.tag;
  const name = typeof template?.chart === 'string' ? template.chart : sourceKind === 'OCIRepository' && url ? url.split('/').at(-1)! : sourceName ?? '?';
  const version = typeof template?.version === 'string' ? template.version : typeof tag === 'string' ? tag : undefined;
  return { name, ...(version ? { version } : {}), ...(sourceKind ? { sourceKind } : {}), ...(sourceName ? { sourceName } : {}), ...(url ? { url } : {}) };
}

/**
 * @param entries the cluster's entry directories (one when found in the repository; a declared cluster may name
 * several); `name` defaults to the first one's path.
 */
export async function buildFluxCluster(cache: SourceCache, root: string, entries: readonly FluxEntry[], settings: FluxBuildSettings, repositoryLookup: ObjectLookup, clusterName?: string): Promise<FluxCluster> {
  const entry = entries[0];
  const name = clusterName ?? cache.displayPath(entry.dir);
  const cluster: FluxCluster = { name, entry: entry.dir, resources: [], diagnostics: [], notInterpreted: [], built: [], documents: 0 };
  const seen = new Set<string>();
  // The URL the cluster's own sync object pulls is "this repository"; GitRepositories elsewhere are other repositories.
  let homeUrl: string | undefined;
  const home = () => {
    if (homeUrl !== undefined || !entry.sync) return homeUrl;
    const ref = entry.sync.object?.spec?.sourceRef ?? {};
    const source = cluster.resources.find((r) => r.kind === 'GitRepository' && r.name === ref.name);
    homeUrl = typeof source?.object?.spec?.url === 'string' ? normalizeRepoUrl(source.object.spec.url) : undefined;
    return homeUrl;
  };
  const skip = (r: Resource, reason: string, extra: Partial<NotInterpreted> = {}) =>
    cluster.notInterpreted.push({ environment: name, ...placeOf(r, settings.locateAt), kind: r.kind, name: r.namespace ? `${r.namespace}/${r.name}` : r.name, reason, key: identity(r), ...extra });
  // Variable sources found only elsewhere in the repository: unless the cluster applies them after all (a later
  // level), the run assumes the cluster holds the same object, and says so.
  const readElsewhere: { kind: string; namespace: string; name: string; found: Resource; by: Resource }[] = [];
  const lookupFor = (by: Resource): ObjectLookup => (kind, namespace, objectName) => {
    const matches = cluster.resources.filter((r) => r.kind === kind && r.name === objectName);
    const own = matches.find((r) => (r.namespace ?? namespace) === namespace);
    if (own) return own;
    const found = repositoryLookup(kind, namespace, objectName);
    if (found) readElsewhere.push({ kind, namespace, name: objectName, found, by });
    return found;
  };
  /** Whether a GitRepository (by reference) is this repository; the reason it is not otherwise. */
  const otherRepository = (name: unknown, namespace: string): string | undefined => {
    const source = cluster.resources.find((r) => r.kind === 'GitRepository' && r.name === name && (r.namespace ?? namespace) === namespace);
    const url = typeof source?.object?.spec?.url === 'string' ? normalizeRepoUrl(source.object.spec.url) : undefined;
    if (url && home() !== undefined && url !== home()) return `GitRepository ${namespace}/${name} is ${source!.object.spec.url}, another repository`;
    if (url && home() === undefined && name !== 'flux-system') return `GitRepository ${namespace}/${name} (${source!.object.spec.url}) is not known to be this repository`;
    return undefined;
  };
  /** The repository directory a Kustomization builds, or why it builds nothing from this repository. */
  const sourceDir = (k: Resource): { dir: string } | { reason: string } => {
    const ref = k.object?.spec?.sourceRef ?? {};
    const namespace = ref.namespace ?? k.namespace ?? 'flux-system';
    const specPath = k.object?.spec?.path;
    if (ref.kind === 'GitRepository') {
      const other = otherRepository(ref.name, namespace);
      return other ? { reason: `its source ${other}, so its path was not built` } : { dir: fluxPath(root, specPath) };
    }
    if (ref.kind === 'ExternalArtifact') return artifactDir(ref.name, namespace, specPath);
    return { reason: `its source is ${ref.kind ?? 'not set'} ${ref.name ?? ''}, not this repository, so ${specPath ?? './'} was not built`.replace(/ {2,}/g, ' ') };
  };
  /**
   * An ExternalArtifact made by an ArtifactGenerator (source-watcher) that copies directories of this repository:
   * `@src/apps/production/**` copied to `@artifact/production/` puts the artifact's `production` at `apps/production`.
   */
  const artifactDir = (name: unknown, namespace: string, specPath: unknown): { dir: string } | { reason: string } => {
    const generator = cluster.resources.find((r) => r.kind === 'ArtifactGenerator' && (r.namespace ?? namespace) === namespace && Array.isArray(r.object?.spec?.artifacts) && r.object.spec.artifacts.some((a: any) => a?.name === name));
    if (!generator) return { reason: `its source ExternalArtifact ${namespace}/${name} is made by nothing in this repository, so its path was not built` };
    const artifact = generator.object.spec.artifacts.find((a: any) => a?.name === name);
    const aliases = new Map<string, any>((Array.isArray(generator.object.spec.sources) ? generator.object.spec.sources : []).map((s: any) => [String(s?.alias), s]));
    const wanted = path.posix.normalize(`/${typeof specPath === 'string' ? specPath : ''}/`);
    let best: { from: string; to: string } | undefined;
    for (const copy of Array.isArray(artifact.copy) ? artifact.copy : []) {
      const from = /^@([^/]+)\/(.*?)\/?\*\*$/.exec(String(copy?.from ?? ''));
      const to = /^@artifact(\/.*)?$/.exec(String(copy?.to ?? ''));
      if (!from || !to) continue;
      const source = aliases.get(from[1]);
      if (source?.kind !== 'GitRepository' || otherRepository(source.name, source.namespace ?? namespace)) continue;
      const target = path.posix.normalize(`${to[1] ?? '/'}/`);
      if (wanted.startsWith(target) && (!best || target.length > best.to.length)) best = { from: from[2], to: target };
    }
    if (!best) return { reason: `ExternalArtifact ${namespace}/${name}: no copy of this repository's directories in ArtifactGenerator ${generator.name} holds ${specPath ?? './'}, so its path was not built` };
    return { dir: fluxPath(root, `${best.from}/${wanted.slice(best.to.length)}`) };
  };
  const stepFor = (k: Resource): Step | undefined => {
    const key = identity(k);
    if (seen.has(key)) return undefined;
    seen.add(key);
    const source = sourceDir(k);
    if ('reason' in source) {
      skip(k, source.reason);
      return undefined;
    }
    const { dir } = source;
    if (!existsSync(dir)) {
      skip(k, `kustomization path not found: ${k.object?.spec?.path} does not exist in this repository (the controller fails the same way)`);
      return undefined;
    }
    return { dir, kustomization: k, plan: planFluxBuild(dir, buildSpecOf(k.object?.spec)) };
  };
  const build = (step: Step): Promise<RenderedScope> => {
    const plan = step.plan!;
    const owner = step.kustomization;
    let pending = settings.memo.get(plan.key);
    if (!pending) {
      settings.stats.renders++;
      pending = renderKustomization(plan.dir, {
        command: settings.command,
        enableHelm: false,
        timeoutMs: settings.timeoutMs,
        cache,
        limits: settings.limits,
        loadRestrictorNone: true,
        slots: settings.slots,
        wrapper: (relative) => fluxWrapper(plan, relative, cache),
        ...(owner ? { outerLayer: () => fluxSpecLayer(cache, owner) } : {}),
      });
      settings.memo.set(plan.key, pending);
    }
    return pending;
  };

  let level: Step[] = [];
  for (const start of entries) {
    if (start.sync) {
      seen.add(identity(start.sync));
      level.push({ dir: start.dir, kustomization: start.sync, plan: planFluxBuild(start.dir, buildSpecOf(start.sync.object?.spec)) });
    } else {
      level.push({ dir: start.dir, plan: planFluxBuild(start.dir, {}) });
    }
  }
  while (level.length > 0) {
    // Twice as many builds as renderers: one prepares or reads its output while the renderers run.
    const outputs = await mapPool(level, settings.slots ? 2 * settings.concurrency : settings.concurrency, (step) => build(step));
    const next: Step[] = [];
    level.forEach((step, i) => {
      const output = outputs[i];
      cluster.built.push(step.dir);
      cluster.documents += output.documents;
      if (output.missing) {
        cluster.diagnostics.push(diagnostic('pvlint/render', `${settings.command.join(' ')} was not found: the Flux cluster ${name} was not rendered`, { file: name, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } }, 'error', [name]));
        return;
      }
      for (const d of output.diagnostics) {
        const at = step.kustomization ? settings.locateAt(step.kustomization, ['spec', 'path']).location : d.location;
        cluster.diagnostics.push({ ...d, location: at, environments: [name], related: [...d.related, ...(step.kustomization ? [{ message: `the directory it builds: ${cache.displayPath(step.dir)}`, location: d.location }] : [])] });
      }
      if (output.diagnostics.length > 0 && output.resources.length === 0) {
        if (step.kustomization) skip(step.kustomization, `its build failed: ${output.diagnostics[0].message}`);
        else cluster.notInterpreted.push({ environment: name, file: cache.displayPath(step.dir), kind: 'root', name: cache.displayPath(step.dir), reason: `the build failed: ${output.diagnostics[0].message}` });
      }
      const k = step.kustomization;
      const variables = k ? loadVariables(k, lookupFor(k)) : undefined;
      if (k && variables) for (const unread of variables.unread) skip(k, unread.reason);
      // A source pvlint cannot read (or an optional one the repository lacks) may hold variables in the cluster:
      // substitution then runs there, so defaults apply here.
      const unknownSources = !!variables && variables.unread.length + variables.optionalAbsent.length > 0;
      const substitute = !!variables && (variables.values.size > 0 || unknownSources || k?.object?.spec?.postBuild?.substituteStrategy === 'Always');
      // Every source of variables is in the repository and readable: what is not set there is set nowhere.
      const allKnown = !!variables && !unknownSources;
      const common = k?.object?.spec?.commonMetadata;
      for (const rendered of output.resources) {
        let resource = rendered;
        if (substitute) {
          const result = substituteResource(rendered, variables!.values, variables!.sources, unknownSources);
          resource = result.resource;
          for (const unresolved of result.unresolved) {
            if (!isStoragePath(resource.kind, unresolved.path)) continue;
            if (allKnown && unresolved.variables.every((v) => !variables!.values.has(v))) {
              cluster.diagnostics.push(unsetVariables(resource, unresolved.path, unresolved.variables, k!, settings.locateAt, name));
              continue;
            }
            const at = settings.locateAt(rendered, unresolved.path).location;
            cluster.notInterpreted.push({
              environment: name,
              file: at.file,
              line: at.region.startLine,
              kind: 'variable',
              name: unresolved.variables.map((v) => `\${${v}}`).join(', '),
              reason: `${resource.kind} ${resource.name}: ${unresolved.path.join('.')} keeps an unresolved variable (no value in the repository), so checks on it were not run`,
            });
          }
        } else if (k && allKnown) {
          cluster.diagnostics.push(...unsubstitutedPlaceholders(rendered, k, settings.locateAt, name));
        }
        if (common && typeof common === 'object') resource = withCommonMetadata(resource, common);
        if (k) resource = deriveResource(resource, { appliedBy: { kind: 'flux-kustomization', object: k, name: k.name, prune: k.object?.spec?.prune === true } });
        cluster.resources.push(resource);
      }
    });
    // Children are read from the output just added (patched and substituted), as the controller applies them.
    for (const resource of cluster.resources.slice()) {
      if (!isFluxKustomization(resource.object) || seen.has(identity(resource))) continue;
      const step = stepFor(resource);
      if (step) next.push(step);
    }
    level = next;
  }
  for (const { kind, namespace, name: objectName, found, by } of readElsewhere) {
    if (cluster.resources.some((r) => r.kind === kind && r.name === objectName && (r.namespace ?? namespace) === namespace)) continue;
    const where = placeOf(found, settings.locateAt);
    skip(by, `${kind} ${namespace}/${objectName} named in postBuild.substituteFrom is not applied by this cluster; its variables are read from ${where.file}${where.line ? `:${where.line}` : ''}, assuming the cluster holds the same object`);
  }
  for (const resource of cluster.resources) {
    if (resource.kind === 'HelmRelease' && resource.apiVersion.startsWith('helm.toolkit.fluxcd.io/')) {
      const chart = chartOf(resource, cluster.resources);
      skip(resource, `HelmRelease not rendered: chart ${chart!.name}${chart!.version ? `@${chart!.version}` : ''}${chart!.url ? ` from ${chart!.url}` : chart!.sourceKind ? ` from ${chart!.sourceKind} ${chart!.sourceName}` : ''}`, { chart });
    } else if (/^argoproj\.io\//.test(resource.apiVersion) && (resource.kind === 'Application' || resource.kind === 'ApplicationSet')) {
      skip(resource, `Argo CD ${resource.kind} not followed: pvlint does not interpret Argo CD objects inside a Flux cluster`);
    }
  }
  return cluster;
}

/** `spec.commonMetadata` is stamped on every object at apply time, after substitution, over existing keys. */
function withCommonMetadata(resource: Resource, common: any): Resource {
  const labels = common.labels && typeof common.labels === 'object' ? common.labels : undefined;
  const annotations = common.annotations && typeof common.annotations === 'object' ? common.annotations : undefined;
  if (!labels && !annotations) return resource;
  const object = { ...resource.object, metadata: { ...(resource.object?.metadata ?? {}) } };
  if (labels) object.metadata.labels = { ...(object.metadata.labels ?? {}), ...labels };
  if (annotations) object.metadata.annotations = { ...(object.metadata.annotations ?? {}), ...annotations };
  return deriveResource(resource, { object, sourceOrigin: derivedFrom(resource) });
}
