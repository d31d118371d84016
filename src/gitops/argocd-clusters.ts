// Argo CD clusters as environments: the Applications and ApplicationSets written in the repository that no
// other Application renders are the entries; each Application whose source is this repository is rendered,
// Applications found in its output are followed (app-of-apps), and every object lands in the environment of
// its Application's destination cluster. What is not followed is named with the reason.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deriveResource, derivedFrom, resourceId } from '../load/parse-resources.js';
import { CLUSTER_SCOPED } from '../model/storage-model.js';
import { mapPool } from '../render/pool.js';
import type { SourceCache } from '../render/source-cache.js';
import type { AppliedBy, Finding, LocateAt, Resource } from '../types.js';
import { appendAll } from '../engine/append.js';
import { expandApplicationSet } from './argocd-generators.js';
import { argoKustomizeLayer } from './argocd-kustomize-layer.js';
import { renderRemoteChart } from './argocd-remote-chart.js';
import { argoValueLeaves, sourceAt, withArgoHelmValues, type SourceAt } from './argocd-helm-values.js';
import { helmInputs, renderSource, sourceType, type ArgoRenderSettings } from './argocd-source.js';
import type { FluxCluster } from './flux-cluster.js';
import { normalizeRepoUrl } from './flux-cluster.js';
import type { BuildReach } from './flux-entries.js';
import { gitopsKey, type NotInterpreted } from './not-interpreted.js';

const ARGO_GROUP = 'argoproj.io/';

export function isArgoApplication(object: any): boolean {
  return typeof object?.apiVersion === 'string' && object.apiVersion.startsWith(ARGO_GROUP) && (object.kind === 'Application' || object.kind === 'ApplicationSet');
}

/** The git remote `origin` of the repository at `root`, when it has one. */
export function gitRemoteUrl(root: string): string | undefined {
  try {
    const config = readFileSync(path.join(root, '.git', 'config'), 'utf8');
    return /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(config)?.[1];
  } catch {
    return undefined;
  }
}

function sourcesOf(app: any): any[] {
  const spec = app?.spec ?? {};
  if (Array.isArray(spec.sources)) return spec.sources.filter((s: unknown) => s && typeof s === 'object');
  return spec.source && typeof spec.source === 'object' ? [spec.source] : [];
}

function destinationOf(app: any): string {
  const destination = app?.spec?.destination ?? {};
  if (typeof destination.name === 'string' && destination.name !== '') return destination.name;
  if (typeof destination.server === 'string' && destination.server !== '' && destination.server !== 'https://kubernetes.default.svc') return destination.server;
  return 'in-cluster';
}

/**
 * Argo CD gives namespaced objects that set no namespace the Application's `destination.namespace`
 * (controller/state.go NormalizeTargetObjects); kinds known to be cluster-scoped keep none.
 */
function withDestinationNamespace(resource: Resource, app: any): Resource {
  const namespace = app?.spec?.destination?.namespace;
  if (resource.namespace !== undefined || typeof namespace !== 'string' || namespace === '' || CLUSTER_SCOPED.has(resource.kind)) return resource;
  const object = { ...resource.object, metadata: { ...(resource.object?.metadata ?? {}), namespace } };
  return deriveResource(resource, { object, namespace, id: resourceId(resource.kind, namespace, resource.name), sourceOrigin: derivedFrom(resource) });
}

/** A copy of a rendered object that records the Application applying it (renders may be shared: the original is not changed). */
function appliedByApplication(resource: Resource, app: any, at: Resource, helmChart: boolean): Resource {
  const appliedBy: AppliedBy = { kind: 'argocd-application', object: at, name: String(app?.metadata?.name ?? at.name), helmChart, prune: app?.spec?.syncPolicy?.automated?.prune === true };
  return deriveResource(resource, { appliedBy });
}

/** A chart's objects, located through the values the Application gives it (argocd-helm-values.ts). */
function locatedThroughValues(cache: SourceCache, resources: readonly Resource[], chartDir: string | undefined, valueFiles: readonly string[], source: any, written: SourceAt, application: string): Resource[] {
  const leaves = argoValueLeaves(cache, chartDir, valueFiles, source, written);
  const files = new Set([...(chartDir ? [path.join(chartDir, 'values.yaml')] : []), ...valueFiles]);
  return resources.map((r) => withArgoHelmValues(cache, r, leaves, files, application));
}

export interface ArgoSettings extends ArgoRenderSettings {
  concurrency: number;
  /** Normalized repoURLs that mean this repository (configured, or inferred). */
  homeUrls: Set<string>;
  /** Places what is not interpreted (the run's locate stage). */
  locateAt: LocateAt;
}

/**
 * Which repoURLs are this repository: the configured ones, else the git remote, else every repoURL whose path
 * the Applications of the repository find in this tree.
 */
export function inferHomeUrls(root: string, objects: readonly Resource[], configured: readonly string[]): Set<string> {
  const urls = new Set(configured.map(normalizeRepoUrl));
  if (urls.size > 0) return urls;
  const remote = gitRemoteUrl(root);
  if (remote) return new Set([normalizeRepoUrl(remote)]);
  for (const object of objects) {
    const candidates = object.kind === 'ApplicationSet' ? [object.object?.spec?.template, ...(object.object?.spec?.generators ?? []).map((g: any) => g?.git)] : [object.object];
    for (const candidate of candidates) {
      for (const source of [...sourcesOf(candidate), ...(candidate?.repoURL ? [candidate] : [])]) {
        if (typeof source?.repoURL !== 'string' || source.chart) continue;
        if (typeof source.path === 'string' && !source.path.includes('{{') && existsSync(path.join(root, source.path))) urls.add(normalizeRepoUrl(source.repoURL));
        if (source === candidate && candidate.directories) urls.add(normalizeRepoUrl(source.repoURL));
      }
    }
  }
  return urls;
}

export async function buildArgoClusters(cache: SourceCache, root: string, objects: readonly Resource[], reach: BuildReach, settings: ArgoSettings): Promise<FluxCluster[]> {
  const isLocal = (url: unknown) => typeof url === 'string' && settings.homeUrls.has(normalizeRepoUrl(url));
  const clusters = new Map<string, FluxCluster>();
  const clusterOf = (destination: string) => {
    const name = `argocd:${destination}`;
    let cluster = clusters.get(name);
    if (!cluster) clusters.set(name, (cluster = { name, entry: root, resources: [], diagnostics: [], notInterpreted: [], built: [], documents: 0 }));
    return cluster;
  };
  const placeOf = (r: Resource) => {
    const at = settings.locateAt(r, ['kind']).location;
    return { file: at.file, line: at.region.startLine };
  };
  // Entries: objects whose file no local source of another object reads.
  const sourced: string[] = [];
  for (const object of objects) {
    const apps = object.kind === 'ApplicationSet' ? expandApplicationSet(object.object, root, isLocal).applications : [object.object];
    for (const app of apps) for (const source of sourcesOf(app)) if (isLocal(source.repoURL) && typeof source.path === 'string') sourced.push(path.resolve(root, source.path));
  }
  const reads = (dir: string, file: string) => path.dirname(file) === dir || (file.startsWith(`${dir}${path.sep}`) && reach.filesOf(dir).has(file));
  const entries = objects.filter((o) => !sourced.some((dir) => reads(dir, o.file.absPath) && !(o.kind === 'Application' && sourcesOf(o.object).some((s) => path.resolve(root, String(s.path ?? '')) === dir))));

  const seen = new Set<string>();
  let level: { app: any; at: Resource }[] = [];
  const admit = (object: Resource) => {
    const key = gitopsKey(object.apiVersion, object.kind, object.namespace, object.name);
    // The same object read twice (an entry, and again through the app-of-apps that syncs its directory with a
    // destination namespace added) is one object.
    const written = `${object.kind}/${object.name}@${object.origin?.file?.absPath ?? object.file.absPath}`;
    if (seen.has(key) || seen.has(written)) return;
    seen.add(key);
    seen.add(written);
    if (object.kind === 'Application') {
      level.push({ app: object.object, at: object });
      return;
    }
    const expansion = expandApplicationSet(object.object, root, isLocal);
    const cluster = clusterOf(expansion.applications[0] ? destinationOf(expansion.applications[0]) : destinationOf(object.object?.spec?.template));
    for (const reason of expansion.skipped) cluster.notInterpreted.push({ environment: cluster.name, ...placeOf(object), kind: 'ApplicationSet', name: object.name, reason, key });
    for (const app of expansion.applications) level.push({ app, at: object });
  };
  entries.forEach(admit);
  while (level.length > 0) {
    const current = level;
    level = [];
    // Twice as many Applications as renderers: one prepares or reads its output while the renderers run.
    const outputs = await mapPool(current, settings.slots ? 2 * settings.concurrency : settings.concurrency, async ({ app, at }) => {
      const cluster = clusterOf(destinationOf(app));
      const name = String(app?.metadata?.name ?? '?');
      // Renders finish in any order: what each application adds is kept with it and appended in input order below.
      const skipped: NotInterpreted[] = [];
      const diagnostics: Finding[] = [];
      const built: string[] = [];
      let documents = 0;
      const skip = (reason: string, extra: Partial<NotInterpreted> = {}) =>
        skipped.push({ environment: cluster.name, ...placeOf(at), kind: 'Application', name, reason, key: `argoproj.io/Application/${app?.metadata?.namespace ?? ''}/${name}`, ...extra });
      const refRoots = new Map<string, string>();
      for (const source of sourcesOf(app)) if (typeof source.ref === 'string' && isLocal(source.repoURL)) refRoots.set(source.ref, root);
      const rendered: Resource[] = [];
      for (const source of sourcesOf(app)) {
        const written = sourceAt(at, Array.isArray(app?.spec?.sources) ? app.spec.sources.indexOf(source) : undefined);
        if (typeof source.ref === 'string' && source.path === undefined && source.chart === undefined) continue;
        if (source.chart) {
          // Value files of a ref source are files of this repository; any other is a file of the chart itself.
          const files: unknown[] = Array.isArray(source.helm?.valueFiles) ? source.helm.valueFiles : [];
          const fromRefs = files.filter((f): f is string => typeof f === 'string' && f.startsWith('$'));
          const inChart = files.filter((f): f is string => typeof f === 'string' && !f.startsWith('$'));
          const helm = helmInputs(app, { ...source, helm: { ...(source.helm ?? {}), valueFiles: fromRefs } }, root, root, refRoots);
          if (helm.missing.length > 0) skip(`values not read: ${helm.missing.join(', ')}`);
          const output = await renderRemoteChart(cache, source, helm, inChart, written, name, settings);
          for (const s of output.skipped) skip(s.reason, s.chart ? { chart: s.chart } : {});
          const located = locatedThroughValues(cache, output.resources, undefined, helm.valueFiles, source, written, name);
          rendered.push(...located.map((r) => appliedByApplication(withDestinationNamespace(r, app), app, at, true)));
          continue;
        }
        if (!isLocal(source.repoURL)) {
          skip(`source ${source.repoURL} is not this repository (configure gitops.repoURLs to say it is)`);
          continue;
        }
        const specPath = String(source.path ?? '');
        if (specPath.includes('{{')) {
          skip(`source path ${specPath} keeps a template expression pvlint does not evaluate`);
          continue;
        }
        const dir = path.join(root, specPath);
        if (!existsSync(dir)) {
          skip(`source path ${specPath} does not exist in this repository`);
          continue;
        }
        const type = sourceType(source, dir);
        if (!type) {
          skip(`config management plugin ${source.plugin?.name ?? ''} not run`.replace(/ +$/, ''));
          continue;
        }
        if ((type === 'helm' && !settings.helm) || (type === 'kustomize' && !settings.kustomize)) {
          skip(`${type === 'helm' ? 'helm' : 'kustomize or kubectl'} is not installed, so ${specPath} was not rendered`);
          continue;
        }
        const helm = type === 'helm' ? helmInputs(app, source, dir, root, refRoots) : undefined;
        if (helm && helm.missing.length > 0) skip(`values not read: ${helm.missing.join(', ')}`);
        const layer = { key: `${at.file.absPath}#${at.docIndex}:${written.path.join('.')}`, layer: () => argoKustomizeLayer(cache, written, source.kustomize) };
        const output = await renderSource(cache, type, dir, source, helm, settings, layer);
        built.push(dir);
        documents += output.documents;
        for (const d of output.diagnostics) diagnostics.push({ ...d, environments: [cluster.name] });
        if (output.notInterpreted) skip(`${specPath}: ${output.notInterpreted.reason}`, output.notInterpreted.chart ? { chart: output.notInterpreted.chart } : {});
        else {
          // Notes about supplied chart dependencies are caveats of a render, not its failure.
          const failures = output.diagnostics.filter((d) => d.ruleId !== 'pvlint/chart-dependency');
          if (failures.length > 0 && output.resources.length === 0) skip(`rendering ${specPath} failed: ${failures[0].message}`);
        }
        const located = helm ? locatedThroughValues(cache, output.resources, dir, helm.valueFiles, source, written, name) : output.resources;
        rendered.push(...located.map((r) => appliedByApplication(withDestinationNamespace(r, app), app, at, type === 'helm')));
      }
      return { cluster, rendered, skipped, diagnostics, built, documents };
    });
    for (const { cluster, rendered, skipped, diagnostics, built, documents } of outputs) {
      appendAll(cluster.notInterpreted, skipped);
      appendAll(cluster.diagnostics, diagnostics);
      appendAll(cluster.built, built);
      cluster.documents += documents;
      for (const resource of rendered) {
        cluster.resources.push(resource);
        if (isArgoApplication(resource.object)) admit(resource);
      }
    }
  }
  return [...clusters.values()].filter((c) => c.resources.length > 0 || c.notInterpreted.length > 0 || c.diagnostics.length > 0);
}
