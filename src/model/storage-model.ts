// The cross-referenced model of one scope (one environment): built once, read-only for rules.
// Every cross-reference is an index lookup; no rule needs to compare all pairs of resources.
import type { Resource } from '../types.js';
import { getPath, isShadowedByClaimTemplate, podTemplateOf, WORKLOAD_KINDS, type ContainerUse, type PodTemplate, type PodVolume } from './pod-templates.js';
import type { MeshDefaults } from './mesh.js';
import type { RemovedObject } from './removed-objects.js';
import { declaredClassResource, parseKubernetesVersion, type ClusterFacts, type DriverOverride, type KubernetesVersion } from './cluster-facts.js';

/**
 * The kinds the model itself indexes (and its helpers read through ofKind): any rule may read them without declaring
 * them in `meta.kinds`. Every other kind a rule reads must be in its `meta.kinds` (the rule tester enforces it), so
 * the union of the active rules' kinds and these is every kind a lint needs parsed. Note: the GitOps helpers
 * (src/model/gitops.ts) also read every resource's Argo CD / Flux annotations and labels through `model.resources`.
 */
export const MODEL_KINDS: readonly string[] = [
  'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'Namespace', 'HorizontalPodAutoscaler', ...WORKLOAD_KINDS,
];

/** Kinds without a namespace; everything else lands in the scope's default namespace when unset. */
export const CLUSTER_SCOPED = new Set([
  'PersistentVolume', 'StorageClass', 'CSIDriver', 'CSINode', 'Namespace', 'VolumeAttributesClass', 'VolumeSnapshotClass',
  'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass', 'Node', 'APIService',
  'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'IngressClass', 'RuntimeClass', 'PodSecurityPolicy',
]);

/** Absence from the repo is not absence from the cluster: `external` unless the bundle is declared complete. */
export type Lookup<T> =
  /** `declared`: not in the repo, but a cluster fact of the configuration (`cluster.storageClasses`). */
  | { status: 'found'; value: T; declared?: true }
  | { status: 'missing' }
  | { status: 'external' };

export type ClaimTarget =
  | { kind: 'pvc'; resource: Resource }
  | { kind: 'claim-template'; statefulSet: Resource; template: string; ordinal: number };

/** One pod template's use of a claim through one volume. */
export interface ClaimUse {
  template: PodTemplate;
  volume: PodVolume;
  /** Container mounts/devices of that volume. */
  uses: ContainerUse[];
  /** True when some container may write: neither the volume nor the mount is read-only. */
  writes: boolean;
}

export type ClaimClass =
  | { set: true; name: string; via: 'annotation' | 'spec' }
  | { set: false };

export interface ModelOptions {
  scope: string;
  /** Namespace for namespaced objects that set none (kubectl's context namespace, Helm's release namespace). */
  defaultNamespace?: string;
  /** The repo holds every storage object of the cluster: absent means missing, not external. */
  bundleComplete?: boolean;
  /**
   * The scope is a whole cluster as a GitOps controller applies it, with nothing left unrendered: a class it does
   * not define is more likely a mistake than one the cluster provides.
   */
  wholeCluster?: boolean;
  /** Cluster-wide service-mesh facts the repo cannot show (injection defaults, enrolled namespaces, native sidecars). */
  meshDefaults?: MeshDefaults;
  /** Facts from configuration: StorageClasses that exist in the cluster, Kubernetes version, driver capabilities. */
  cluster?: ClusterFacts;
  /**
   * Kinds left unparsed by the kind pre-scan that a rule may still read, each with the function that parses its
   * documents: called on the first `ofKind` of that kind. Only kinds the model does not index itself.
   */
  deferred?: ReadonlyMap<string, () => readonly Resource[]>;
  /** Objects the repository removes from this environment (an overlay's `$patch: delete`), found by the renderer. */
  removed?: readonly RemovedObject[];
}

export function isDefaultClass(storageClass: Resource): boolean {
  const annotations = storageClass.object?.metadata?.annotations ?? {};
  return (
    annotations['storageclass.kubernetes.io/is-default-class'] === 'true' ||
    annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
  );
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const key = (namespace: string, name: string) => `${namespace}/${name}`;

export class StorageModel {
  readonly scope: string;
  readonly defaultNamespace: string;
  readonly bundleComplete: boolean;
  readonly wholeCluster: boolean;
  readonly meshDefaults: MeshDefaults;
  /** The cluster's Kubernetes version when configuration states it. */
  readonly kubernetesVersion: KubernetesVersion | undefined;
  /** Driver capability overrides from configuration; driverCapabilities() applies them while rules run. */
  readonly driverOverrides: readonly DriverOverride[];
  /** Objects the repository removes from this environment (see removed-objects.ts). */
  readonly removed: readonly RemovedObject[];
  private all: readonly Resource[];
  private readonly deferred: Map<string, () => readonly Resource[]>;
  readonly templates: readonly PodTemplate[];
  readonly defaultClasses: readonly Resource[];

  private readonly byKind = new Map<string, Resource[]>();
  private readonly claims = new Map<string, Resource>();
  private readonly volumes = new Map<string, Resource>();
  private readonly classes = new Map<string, Resource>();
  private readonly declared = new Set<Resource>();
  private readonly csiDrivers = new Map<string, Resource>();
  private readonly namespaces = new Map<string, Resource>();
  private readonly volumesByClaimRef = new Map<string, Resource[]>();
  private readonly volumesByHandle = new Map<string, Resource[]>();
  private readonly usesByClaim = new Map<string, ClaimUse[]>();
  private readonly statefulSets = new Map<string, Resource>();
  private readonly hpaMax = new Map<string, { max: number; hpa: Resource }>();
  /** Every PVC document by `namespace/name` (all definitions, document order); `claims` keeps the first. */
  /** The first definition of each claim (as in `claims`), by name alone. */
  private readonly claimsByName = new Map<string, Resource[]>();
  private readonly claimDefs = new Map<string, Resource[]>();
  /** Every PersistentVolume document by name (all definitions, document order); `volumes` keeps the last. */
  private readonly volumeDefs = new Map<string, Resource[]>();
  /** Every StorageClass document by name (all definitions, document order). */
  private readonly classDefs = new Map<string, Resource[]>();
  /** Built on first use per kind: documents by `namespace/name` (cluster-scoped: `/name`). */
  private readonly identities = new Map<string, Map<string, Resource[]>>();

  constructor(resources: readonly Resource[], options: ModelOptions) {
    this.scope = options.scope;
    this.defaultNamespace = options.defaultNamespace ?? 'default';
    this.bundleComplete = options.bundleComplete ?? false;
    this.wholeCluster = options.wholeCluster ?? false;
    this.meshDefaults = options.meshDefaults ?? {};
    this.kubernetesVersion = parseKubernetesVersion(options.cluster?.kubernetesVersion);
    this.driverOverrides = options.cluster?.drivers ?? [];
    this.removed = options.removed ?? [];
    this.all = resources;
    this.deferred = new Map(options.deferred ?? []);
    const templates: PodTemplate[] = [];
    for (const resource of resources) {
      push(this.byKind, resource.kind, resource);
      const ns = this.namespaceOf(resource) ?? '';
      switch (resource.kind) {
        case 'PersistentVolumeClaim':
          if (!this.claims.has(key(ns, resource.name))) {
            this.claims.set(key(ns, resource.name), resource);
            push(this.claimsByName, resource.name, resource);
          }
          push(this.claimDefs, key(ns, resource.name), resource);
          break;
        case 'PersistentVolume': {
          this.volumes.set(resource.name, resource);
          push(this.volumeDefs, resource.name, resource);
          const ref = resource.object?.spec?.claimRef;
          if (ref && typeof ref === 'object' && ref.name != null) {
            push(this.volumesByClaimRef, key(String(ref.namespace ?? ''), String(ref.name)), resource);
          }
          const csi = resource.object?.spec?.csi;
          if (csi && typeof csi === 'object' && csi.driver != null && csi.volumeHandle != null) {
            push(this.volumesByHandle, `${csi.driver}^${csi.volumeHandle}`, resource);
          }
          break;
        }
        case 'StorageClass':
          this.classes.set(resource.name, resource);
          push(this.classDefs, resource.name, resource);
          break;
        case 'CSIDriver':
          this.csiDrivers.set(resource.name, resource);
          break;
        case 'Namespace':
          this.namespaces.set(resource.name, resource);
          break;
        case 'StatefulSet':
          this.statefulSets.set(key(ns, resource.name), resource);
          break;
        case 'HorizontalPodAutoscaler': {
          const target = resource.object?.spec?.scaleTargetRef;
          const max = resource.object?.spec?.maxReplicas;
          if (target?.kind && target?.name && typeof max === 'number') {
            this.hpaMax.set(`${target.kind}/${ns}/${target.name}`, { max, hpa: resource });
          }
          break;
        }
      }
      const template = podTemplateOf(resource);
      if (template) templates.push(template);
    }
    this.templates = templates;
    for (const template of templates) {
      const ns = this.namespaceOf(template.workload) ?? this.defaultNamespace;
      for (const volume of template.volumes) {
        if (volume.claimName === undefined || isShadowedByClaimTemplate(template, volume)) continue;
        const uses = template.uses.filter((use) => use.volumeName === volume.name);
        const writes = !volume.readOnly && uses.some((use) => !use.readOnly);
        push(this.usesByClaim, key(ns, volume.claimName), { template, volume, uses, writes });
      }
    }
    // A class the configuration declares is found like one in the repo, but the repo's own definition wins.
    for (const declared of options.cluster?.storageClasses ?? []) {
      if (this.classes.has(declared.name)) continue;
      const resource = declaredClassResource(declared);
      this.classes.set(declared.name, resource);
      this.declared.add(resource);
    }
    this.defaultClasses = [...this.classes.values()].filter(isDefaultClass);
  }

  /** True for a StorageClass that only the configuration declares (its locations point at the config file). */
  isDeclared(resource: Resource): boolean {
    return this.declared.has(resource);
  }

  /** The StorageClasses only the configuration declares (`cluster.storageClasses`), in declaration order. */
  declaredClasses(): readonly Resource[] {
    return [...this.declared];
  }

  /** The namespace an object lives in; undefined for cluster-scoped kinds. */
  namespaceOf(resource: Resource): string | undefined {
    if (CLUSTER_SCOPED.has(resource.kind)) return undefined;
    return resource.namespace ?? this.defaultNamespace;
  }

  /** Every resource of the scope (deferred kinds once a rule has asked for them). */
  get resources(): readonly Resource[] {
    return this.all;
  }

  ofKind(kind: string): readonly Resource[] {
    if (this.deferred.has(kind)) this.materialize(kind);
    return this.byKind.get(kind) ?? [];
  }

  /** Whether the scope holds the kind (for a deferred kind: a document says so, parsed or not). */
  hasKind(kind: string): boolean {
    return this.byKind.has(kind) || this.deferred.has(kind);
  }

  private materialize(kind: string): void {
    const load = this.deferred.get(kind)!;
    this.deferred.delete(kind);
    const loaded = load();
    if (loaded.length === 0) return;
    this.all = [...this.all, ...loaded];
    for (const resource of loaded) push(this.byKind, resource.kind, resource);
  }

  private absent<T>(): Lookup<T> {
    return this.bundleComplete ? { status: 'missing' } : { status: 'external' };
  }

  /** A claim by namespace and name: a PVC in the bundle, or one a StatefulSet's claim template creates. */
  lookupClaim(namespace: string, name: string): Lookup<ClaimTarget> {
    const pvc = this.claims.get(key(namespace, name));
    if (pvc) return { status: 'found', value: { kind: 'pvc', resource: pvc } };
    const fromTemplate = this.claimTemplateFor(namespace, name);
    if (fromTemplate) return { status: 'found', value: fromTemplate };
    return this.absent();
  }

  /** Matches `<template>-<statefulset>-<ordinal>` against the StatefulSets of the namespace. */
  private claimTemplateFor(namespace: string, name: string): ClaimTarget | undefined {
    const match = /^(.+)-(\d+)$/.exec(name);
    if (!match) return undefined;
    const [, prefix, ordinalText] = match;
    for (const [stsKey, sts] of this.statefulSets) {
      if (!stsKey.startsWith(`${namespace}/`)) continue;
      if (!prefix.endsWith(`-${sts.name}`)) continue;
      const template = prefix.slice(0, -(sts.name.length + 1));
      const templates = getPath(sts.object, ['spec', 'volumeClaimTemplates']);
      if (Array.isArray(templates) && templates.some((t: any) => t?.metadata?.name === template)) {
        return { kind: 'claim-template', statefulSet: sts, template, ordinal: Number(ordinalText) };
      }
    }
    return undefined;
  }

  /** PVCs in the bundle in any namespace with this name (for "exists, but elsewhere" hints). */
  claimsNamed(name: string): Resource[] {
    return [...(this.claimsByName.get(name) ?? [])];
  }

  /** Every PVC document named `namespace/name`, in document order (one scope may define a claim several times). */
  claimDefinitions(namespace: string, name: string): readonly Resource[] {
    return this.claimDefs.get(key(namespace, name)) ?? [];
  }

  /** Every PersistentVolume document named `name` in the scope, in document order. */
  volumesNamed(name: string): readonly Resource[] {
    return this.volumeDefs.get(name) ?? [];
  }

  /** Every StorageClass document named `name` in the scope, in document order (configuration-declared classes excluded). */
  classesNamed(name: string): readonly Resource[] {
    return this.classDefs.get(name) ?? [];
  }

  /**
   * Every document of `kind` with this namespace (undefined for cluster-scoped kinds, as namespaceOf gives) and name,
   * in document order. The per-kind index is built on first use.
   */
  sameIdentity(kind: string, namespace: string | undefined, name: string): readonly Resource[] {
    let index = this.identities.get(kind);
    if (!index) {
      index = new Map();
      for (const resource of this.ofKind(kind)) push(index, key(this.namespaceOf(resource) ?? '', resource.name), resource);
      this.identities.set(kind, index);
    }
    return index.get(key(namespace ?? '', name)) ?? [];
  }

  claimsOf(): readonly Resource[] {
    return this.ofKind('PersistentVolumeClaim');
  }

  /** Every pod template use of the claim `namespace/name`. */
  usesOfClaim(namespace: string, name: string): readonly ClaimUse[] {
    return this.usesByClaim.get(key(namespace, name)) ?? [];
  }

  /** All claim keys (`namespace/name`) that some pod template mounts. */
  usedClaimKeys(): IterableIterator<string> {
    return this.usesByClaim.keys();
  }

  lookupVolume(name: string): Lookup<Resource> {
    const pv = this.volumes.get(name);
    return pv ? { status: 'found', value: pv } : this.absent();
  }

  volumesClaiming(namespace: string, name: string): readonly Resource[] {
    return this.volumesByClaimRef.get(key(namespace, name)) ?? [];
  }

  volumesWithHandle(driver: string, handle: string): readonly Resource[] {
    return this.volumesByHandle.get(`${driver}^${handle}`) ?? [];
  }

  /** Groups of PVs sharing one (driver, volumeHandle). */
  volumeHandleGroups(): IterableIterator<[string, Resource[]]> {
    return this.volumesByHandle.entries();
  }

  lookupClass(name: string): Lookup<Resource> {
    const sc = this.classes.get(name);
    if (!sc) return this.absent();
    return this.declared.has(sc) ? { status: 'found', value: sc, declared: true } : { status: 'found', value: sc };
  }

  lookupCsiDriver(name: string): Lookup<Resource> {
    const driver = this.csiDrivers.get(name);
    return driver ? { status: 'found', value: driver } : this.absent();
  }

  lookupNamespace(name: string): Lookup<Resource> {
    const ns = this.namespaces.get(name);
    return ns ? { status: 'found', value: ns } : this.absent();
  }

  /** §1.2: the beta annotation wins over spec.storageClassName; "" is a set class. */
  classOfClaim(claim: any): ClaimClass {
    const annotation = claim?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
    if (annotation != null) return { set: true, name: String(annotation), via: 'annotation' };
    const spec = claim?.spec?.storageClassName;
    if (spec != null) return { set: true, name: String(spec), via: 'spec' };
    return { set: false };
  }

  /** §1.2 for PVs: no class means "". */
  classOfVolume(volume: any): string {
    const annotation = volume?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
    if (annotation != null) return String(annotation);
    const spec = volume?.spec?.storageClassName;
    return spec == null ? '' : String(spec);
  }

  /**
   * The class the API server will store on a new claim: its own, or the default class (newest default wins
   * since v1.26, per §1.3) when the bundle shows one; `unknown` when no class is set and no default is visible.
   */
  effectiveClassOfClaim(claim: any): { name: string; defaulted: boolean; defaultClass?: Resource } | { name: undefined } {
    const own = this.classOfClaim(claim);
    if (own.set) return { name: own.name, defaulted: false };
    const chosen = this.newestDefaultClass();
    return chosen ? { name: chosen.name, defaulted: true, defaultClass: chosen } : { name: undefined };
  }

  newestDefaultClass(): Resource | undefined {
    if (this.defaultClasses.length === 0) return undefined;
    return [...this.defaultClasses].sort((a, b) => {
      const ta = String(a.object?.metadata?.creationTimestamp ?? '');
      const tb = String(b.object?.metadata?.creationTimestamp ?? '');
      return tb.localeCompare(ta) || a.name.localeCompare(b.name);
    })[0];
  }

  /** HPA maxReplicas for a workload when an HPA in the scope targets it. */
  autoscalerOf(workload: Resource): { max: number; hpa: Resource } | undefined {
    return this.hpaMax.get(`${workload.kind}/${this.namespaceOf(workload) ?? ''}/${workload.name}`);
  }
}
