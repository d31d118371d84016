// The cross-referenced model of one scope (one environment): built once, read-only for rules, and the one query API
// they use. Every cross-reference is an index lookup; no rule needs to compare all pairs of resources. Indexes that
// not every lint needs are built on first use and kept on the model (never in module state), so two models in one
// process (a --base run, two environments, tests) never share or leak answers. The facts that combine several
// objects are methods here; the topic modules beside this file (claims.ts, binding.ts, gitops.ts, …) implement them
// against the model's indexes as model-view.ts describes them, so they never import this class.
import type { Resource, SourceFile } from '../types.js';
import { getPath, isShadowedByClaimTemplate, podTemplateOf, WORKLOAD_KINDS, type ContainerUse, type PodTemplate, type PodVolume } from './pod-templates.js';
import type { MeshDefaults, MeshKind, MeshMembership, MeshModel } from './mesh.js';
import type { RemovedObject } from './removed-objects.js';
import { declaredClassResource, parseKubernetesVersion, type ClusterFacts, type DriverOverride, type KubernetesVersion } from './cluster-facts.js';
import { driverCapabilities, driverOverrideTable, type DriverInfo, type DriverOverrideTable } from './provisioners.js';
import { podCountOf, type Autoscaler, type PodCount } from './pod-count.js';
import type { AutoscalerResource, ClaimShape, ClaimResource, CsiDriverResource, PersistentVolume, StorageClassResource, VolumeResource } from './views.js';
import * as claims from './claims.js';
import * as binding from './binding.js';
import * as claimObjects from './claim-objects.js';
import * as volumeClaims from './volume-claims.js';
import * as statefulData from './stateful-data.js';
import * as csiDrivers from './csi-drivers.js';
import * as gitops from './gitops.js';
import * as mesh from './mesh.js';
import * as placement from './placement.js';
import * as provisionerNames from './provisioner-names.js';
import * as wiring from './wiring.js';
import type { PodVolumeRef } from './mounts.js';
import type { ClaimClass, ClaimTarget, Lookup, ModelView } from './model-view.js';

export type { ClaimClass, ClaimTarget, Lookup } from './model-view.js';

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

/** One pod template's use of a claim through one volume. */
export interface ClaimUse {
  template: PodTemplate;
  volume: PodVolume;
  /** Container mounts/devices of that volume. */
  uses: ContainerUse[];
  /** True when some container may write: neither the volume nor the mount is read-only. */
  writes: boolean;
}

/** A claim that pod templates mount (see StorageModel.mountedClaims). */
export interface MountedClaim {
  namespace: string;
  name: string;
  uses: readonly ClaimUse[];
  /** Its PVC documents in the scope, in document order; none when the claim is not in the repo. */
  definitions: readonly ClaimResource[];
}

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

export class StorageModel implements ModelView, MeshModel, gitops.GitopsModel {
  readonly scope: string;
  readonly defaultNamespace: string;
  readonly bundleComplete: boolean;
  readonly wholeCluster: boolean;
  readonly meshDefaults: MeshDefaults;
  /** The cluster's Kubernetes version when configuration states it. */
  readonly kubernetesVersion: KubernetesVersion | undefined;
  /** Driver capability overrides from configuration; driverCapabilities(name) lays them over the table. */
  readonly driverOverrides: readonly DriverOverride[];
  /** Objects the repository removes from this environment (see removed-objects.ts). */
  readonly removed: readonly RemovedObject[];
  private all: readonly Resource[];
  private readonly deferred: Map<string, () => readonly Resource[]>;
  readonly templates: readonly PodTemplate[];
  readonly defaultClasses: readonly StorageClassResource[];

  private readonly byKind = new Map<string, Resource[]>();
  private readonly claims = new Map<string, ClaimResource>();
  private readonly volumes = new Map<string, VolumeResource>();
  private readonly classes = new Map<string, StorageClassResource>();
  private readonly declared = new Set<Resource>();
  private readonly csiDrivers = new Map<string, CsiDriverResource>();
  private readonly namespaces = new Map<string, Resource>();
  private readonly volumesByClaimRef = new Map<string, VolumeResource[]>();
  private readonly volumesByHandle = new Map<string, VolumeResource[]>();
  private readonly usesByClaim = new Map<string, ClaimUse[]>();
  private readonly statefulSets = new Map<string, Resource>();
  private readonly autoscalers = new Map<string, Autoscaler>();
  /** The first definition of each claim (as in `claims`), by name alone. */
  private readonly claimsByName = new Map<string, ClaimResource[]>();
  /** Every PVC document by `namespace/name` (all definitions, document order); `claims` keeps the first. */
  private readonly claimDefs = new Map<string, ClaimResource[]>();
  /** Every PersistentVolume document by name (all definitions, document order); `volumes` keeps the last. */
  private readonly volumeDefs = new Map<string, VolumeResource[]>();
  /** Every StorageClass document by name (all definitions, document order). */
  private readonly classDefs = new Map<string, StorageClassResource[]>();
  /** Built on first use per kind: documents by `namespace/name` (cluster-scoped: `/name`). */
  private readonly identities = new Map<string, Map<string, Resource[]>>();

  // Built on first use (not every lint asks): see the method of the same name.
  private driverTable: DriverOverrideTable | undefined;
  private knownProvisionerNames: ReadonlySet<string> | undefined;
  private claimObjectList: readonly claimObjects.ClaimObject[] | undefined;
  private workloadFileSet: ReadonlySet<SourceFile> | undefined;
  private gitopsSourceIndex: gitops.GitopsIndex | undefined;
  private readonly templatesByWorkload = new Map<Resource, PodTemplate>();
  private readonly podCounts = new Map<PodTemplate, PodCount>();
  private readonly databaseVolumeMaps = new Map<PodTemplate, ReadonlyMap<string, statefulData.DatabaseVolume>>();
  /** Storage facts of the scope's PVC documents (stand-ins for claim templates are computed each time). */
  private readonly claimStorages = new Map<Resource, claims.ClaimStorage>();
  private newestDefault: { value: StorageClassResource | undefined } | undefined;

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
        case 'PersistentVolumeClaim': {
          const pvc = resource as ClaimResource;
          if (!this.claims.has(key(ns, pvc.name))) {
            this.claims.set(key(ns, pvc.name), pvc);
            push(this.claimsByName, pvc.name, pvc);
          }
          push(this.claimDefs, key(ns, pvc.name), pvc);
          break;
        }
        case 'PersistentVolume': {
          const pv = resource as VolumeResource;
          this.volumes.set(pv.name, pv);
          push(this.volumeDefs, pv.name, pv);
          const ref = pv.object?.spec?.claimRef;
          if (ref && typeof ref === 'object' && ref.name != null) {
            push(this.volumesByClaimRef, key(String(ref.namespace ?? ''), String(ref.name)), pv);
          }
          const csi = pv.object?.spec?.csi;
          if (csi && typeof csi === 'object' && csi.driver != null && csi.volumeHandle != null) {
            push(this.volumesByHandle, `${csi.driver}^${csi.volumeHandle}`, pv);
          }
          break;
        }
        case 'StorageClass':
          this.classes.set(resource.name, resource as StorageClassResource);
          push(this.classDefs, resource.name, resource as StorageClassResource);
          break;
        case 'CSIDriver':
          this.csiDrivers.set(resource.name, resource as CsiDriverResource);
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
            this.autoscalers.set(`${target.kind}/${ns}/${target.name}`, { max, hpa: resource as AutoscalerResource });
          }
          break;
        }
      }
      const template = podTemplateOf(resource);
      if (template) {
        templates.push(template);
        this.templatesByWorkload.set(resource, template);
      }
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
      const resource = declaredClassResource(declared) as StorageClassResource;
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

  /** Every document of a kind, in document order; the storage kinds as their typed views. */
  ofKind(kind: 'PersistentVolumeClaim'): readonly ClaimResource[];
  ofKind(kind: 'PersistentVolume'): readonly VolumeResource[];
  ofKind(kind: 'StorageClass'): readonly StorageClassResource[];
  ofKind(kind: 'CSIDriver'): readonly CsiDriverResource[];
  ofKind(kind: 'HorizontalPodAutoscaler'): readonly AutoscalerResource[];
  ofKind(kind: string): readonly Resource[];
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
  claimsNamed(name: string): ClaimResource[] {
    return [...(this.claimsByName.get(name) ?? [])];
  }

  /** Every PVC document named `namespace/name`, in document order (one scope may define a claim several times). */
  claimDefinitions(namespace: string, name: string): readonly ClaimResource[] {
    return this.claimDefs.get(key(namespace, name)) ?? [];
  }

  /** Every PersistentVolume document named `name` in the scope, in document order. */
  volumesNamed(name: string): readonly VolumeResource[] {
    return this.volumeDefs.get(name) ?? [];
  }

  /** Every StorageClass document named `name` in the scope, in document order (configuration-declared classes excluded). */
  classesNamed(name: string): readonly StorageClassResource[] {
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

  /** Every PVC document of the scope, in document order. */
  claimsOf(): readonly ClaimResource[] {
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

  lookupVolume(name: string): Lookup<VolumeResource> {
    const pv = this.volumes.get(name);
    return pv ? { status: 'found', value: pv } : this.absent();
  }

  volumesClaiming(namespace: string, name: string): readonly VolumeResource[] {
    return this.volumesByClaimRef.get(key(namespace, name)) ?? [];
  }

  volumesWithHandle(driver: string, handle: string): readonly VolumeResource[] {
    return this.volumesByHandle.get(`${driver}^${handle}`) ?? [];
  }

  /** Groups of PVs sharing one (driver, volumeHandle). */
  volumeHandleGroups(): IterableIterator<[string, VolumeResource[]]> {
    return this.volumesByHandle.entries();
  }

  lookupClass(name: string): Lookup<StorageClassResource> {
    const sc = this.classes.get(name);
    if (!sc) return this.absent();
    return this.declared.has(sc) ? { status: 'found', value: sc, declared: true } : { status: 'found', value: sc };
  }

  lookupCsiDriver(name: string): Lookup<CsiDriverResource> {
    const driver = this.csiDrivers.get(name);
    return driver ? { status: 'found', value: driver } : this.absent();
  }

  lookupNamespace(name: string): Lookup<Resource> {
    const ns = this.namespaces.get(name);
    return ns ? { status: 'found', value: ns } : this.absent();
  }

  /** §1.2: the beta annotation wins over spec.storageClassName; "" is a set class. */
  classOfClaim(claim: unknown): ClaimClass {
    const shape = claim as ClaimShape | undefined;
    const annotation = shape?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
    if (annotation != null) return { set: true, name: String(annotation), via: 'annotation' };
    const spec = shape?.spec?.storageClassName;
    if (spec != null) return { set: true, name: String(spec), via: 'spec' };
    return { set: false };
  }

  /** §1.2 for PVs: no class means "". */
  classOfVolume(volume: unknown): string {
    const pv = volume as PersistentVolume | undefined;
    const annotation = pv?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
    if (annotation != null) return String(annotation);
    const spec = pv?.spec?.storageClassName;
    return spec == null ? '' : String(spec);
  }

  /**
   * The class the API server will store on a new claim: its own, or the default class (newest default wins
   * since v1.26, per §1.3) when the bundle shows one; `unknown` when no class is set and no default is visible.
   */
  effectiveClassOfClaim(claim: unknown): { name: string; defaulted: boolean; defaultClass?: StorageClassResource } | { name: undefined } {
    const own = this.classOfClaim(claim);
    if (own.set) return { name: own.name, defaulted: false };
    const chosen = this.newestDefaultClass();
    return chosen ? { name: chosen.name, defaulted: true, defaultClass: chosen } : { name: undefined };
  }

  /** The default StorageClass the API server gives a claim without a class: the newest of the defaults (§1.3). */
  newestDefaultClass(): StorageClassResource | undefined {
    this.newestDefault ??= {
      value: [...this.defaultClasses].sort((a, b) => {
        const ta = String(a.object?.metadata?.creationTimestamp ?? '');
        const tb = String(b.object?.metadata?.creationTimestamp ?? '');
        return tb.localeCompare(ta) || a.name.localeCompare(b.name);
      })[0],
    };
    return this.newestDefault.value;
  }

  /** HPA maxReplicas for a workload when an HPA in the scope targets it. */
  autoscalerOf(workload: Resource): Autoscaler | undefined {
    return this.autoscalers.get(`${workload.kind}/${this.namespaceOf(workload) ?? ''}/${workload.name}`);
  }

  // ---- Workloads and the claims they use

  /** The pod template of a workload of the scope; undefined for other kinds and for a workload without a pod spec. */
  templateOf(workload: Resource): PodTemplate | undefined {
    return this.templatesByWorkload.get(workload);
  }

  /** How many pods of the template may run at once: its replicas / parallelism with the HPA that scales it (see pod-count.ts). */
  podCount(template: PodTemplate): PodCount {
    let count = this.podCounts.get(template);
    if (!count) this.podCounts.set(template, (count = podCountOf(template, this.autoscalerOf(template.workload))));
    return count;
  }

  /** The claim behind one volume of a pod template (see volume-claims.ts): a PVC, a claim template or an ephemeral volume. */
  claimOfVolume(template: PodTemplate, ref: PodVolumeRef): volumeClaims.ResolvedClaim | 'external' | undefined {
    return volumeClaims.claimOfVolume(this, template, ref);
  }

  /**
   * The claims a workload's pods use, by volume name: PVCs (`external` when the bundle does not hold one), claim
   * templates and ephemeral volumes (see volume-claims.ts claimsOfTemplate).
   */
  claimsOfWorkload(template: PodTemplate): volumeClaims.TemplateClaim[] {
    return volumeClaims.claimsOfTemplate(this, template);
  }

  /** The pod templates that use the claim `namespace/name` through a pod volume, in document order, each once. */
  consumersOfClaim(namespace: string, name: string): readonly PodTemplate[] {
    return [...new Set(this.usesOfClaim(namespace, name).map((use) => use.template))];
  }

  /**
   * Every claim some pod template mounts (`namespace/name`, in the order the templates first mount them), with its
   * uses and the PVC documents that define it (none when the claim is not in the repo).
   */
  mountedClaims(): MountedClaim[] {
    return [...this.usesByClaim].map(([claimKey, uses]) => {
      const { namespace, name } = claims.splitClaimKey(claimKey);
      return { namespace, name, uses, definitions: this.claimDefinitions(namespace, name) };
    });
  }

  /**
   * The uses of the claim `namespace/name` grouped by the definition each goes with, the one written closest to the
   * using workload (one scope may define a claim several times: examples, overlays side by side). Empty when the
   * scope does not define the claim.
   */
  usesByDefinition(namespace: string, name: string): Map<ClaimResource, ClaimUse[]> {
    const byDefinition = new Map<ClaimResource, ClaimUse[]>();
    const definitions = this.claimDefinitions(namespace, name);
    if (definitions.length === 0) return byDefinition;
    for (const use of this.usesOfClaim(namespace, name)) {
      const pvc = claims.closestDefinition(definitions, use.template.workload, this);
      const list = byDefinition.get(pvc);
      if (list) list.push(use);
      else byDefinition.set(pvc, [use]);
    }
    return byDefinition;
  }

  /** Every claim-shaped object of the scope (PVCs, claim templates, ephemeral volume templates; see claim-objects.ts). */
  claimObjects(): readonly claimObjects.ClaimObject[] {
    return (this.claimObjectList ??= claimObjects.collectClaimObjects(this));
  }

  /** The files that hold pod templates (closestDefinition prefers a claim written apart from other apps' workloads). */
  workloadFiles(): ReadonlySet<SourceFile> {
    return (this.workloadFileSet ??= new Set(this.templates.map((t) => t.workload.file)));
  }

  /** Of the definitions of the claim `namespace/name`, the one written closest to `from`; undefined when the scope has none. */
  closestClaimDefinition(namespace: string, name: string, from: Resource): ClaimResource | undefined {
    const definitions = this.claimDefinitions(namespace, name);
    return definitions.length === 0 ? undefined : claims.closestDefinition(definitions, from, this);
  }

  /** Pod volumes of the template that hold a database's data directory (see stateful-data.ts). */
  databaseVolumes(template: PodTemplate): ReadonlyMap<string, statefulData.DatabaseVolume> {
    let volumes = this.databaseVolumeMaps.get(template);
    if (!volumes) this.databaseVolumeMaps.set(template, (volumes = statefulData.databaseVolumesOf(template)));
    return volumes;
  }

  // ---- Claims, volumes, classes and their bindings (see claims.ts and binding.ts)

  /** The claim's storage facts: access modes, volume mode, bound PV, driver, attach, node pin. */
  claimStorage(pvc: Resource): claims.ClaimStorage {
    if (!this.isClaimDocument(pvc)) return claims.claimStorage(this, pvc);
    let storage = this.claimStorages.get(pvc);
    if (!storage) this.claimStorages.set(pvc, (storage = claims.claimStorage(this, pvc)));
    return storage;
  }

  private isClaimDocument(resource: Resource): boolean {
    return resource.kind === 'PersistentVolumeClaim' && this.claimDefinitions(this.namespaceOf(resource) ?? '', resource.name).includes(resource as ClaimResource);
  }

  /** Storage facts of a claim written inside a workload (claim template, ephemeral volume), read as the PVC `instanceName`. */
  storageOfEmbeddedClaim(owner: Resource, instanceName: string, object: unknown): claims.ClaimStorage {
    return volumeClaims.storageOfEmbeddedClaim(this, owner, instanceName, object);
  }

  /** The PV in the bundle the claim is bound or pre-bound to. */
  boundVolumeOf(pvc: Resource): claims.BoundVolume | undefined {
    return claims.boundVolumeOf(this, pvc);
  }

  /** The PersistentVolume `name`, the definition closest to `from` when the scope has several. */
  volumeFor(name: string, from?: Resource): Lookup<VolumeResource> {
    return claims.volumeFor(this, name, from);
  }

  /** The PVs whose claimRef reserves `pvc`, the ones written closest to it. */
  volumesReserving(pvc: Resource): readonly VolumeResource[] {
    return claims.volumesReserving(this, pvc);
  }

  /** The StorageClass `name`, the definition closest to `from` when the scope has several. */
  storageClassFor(name: string, from?: Resource): Lookup<StorageClassResource> {
    return claims.storageClassFor(this, name, from);
  }

  /** The driver behind a claim: its bound PV's, else its effective class's provisioner. */
  driverOfClaim(pvc: Resource, bound = this.boundVolumeOf(pvc)): claims.ClaimDriver {
    return claims.driverOfClaim(this, pvc, bound);
  }

  /** The provisioner of a claim-shaped object's effective StorageClass (bound PVs ignored). */
  driverOfClaimClass(claim: unknown, from?: Resource): claims.ClaimDriver {
    return claims.driverOfClaimClass(this, claim, from);
  }

  /** The driver of a PV in the bundle: `spec.csi.driver`, or its in-tree source. */
  driverOfVolume(pv: Resource): claims.ClaimDriver | undefined {
    return claims.driverOfVolume(this, pv);
  }

  /** Whether the driver attaches volumes to one node (catalogue §5 `attachable`). */
  attachabilityOf(driver: claims.ClaimDriver, volumeMode: string): claims.Attachability {
    return claims.attachabilityOf(this, driver, volumeMode);
  }

  /** The class a claim matches PVs by (its own, or the default class the API server will store). */
  matchingClassOfClaim(pvc: Resource): { name: string; defaulted: boolean } {
    return binding.matchingClassOfClaim(this, pvc);
  }

  /** Whether the PV can bind the claim, and every reason it cannot (see binding.ts). */
  matchVolumeToClaim(pvc: Resource, pv: Resource): binding.VolumeVerdict {
    return binding.matchVolumeToClaim(this, pvc, pv);
  }

  /** What deleting the claim does to its volume (the reclaim policy of its PV or class). */
  reclaimOfClaim(claimObject: unknown, pvc?: Resource): statefulData.Reclaim {
    return statefulData.reclaimOfClaim(this, claimObject, pvc);
  }

  // ---- Drivers

  /**
   * The capabilities of a provisioner / CSI driver (research catalogue §7), with this model's configured driver
   * overrides (`cluster.drivers`) laid over the table; undefined for a driver neither knows.
   */
  driverCapabilities(name: string): DriverInfo | undefined {
    return driverCapabilities(name, (this.driverTable ??= driverOverrideTable(this.driverOverrides)));
  }

  /** The CSIDriver object that is in effect for a driver name: the scope's own, else the one its driver ships. */
  effectiveCsiDriver(name: string): csiDrivers.EffectiveCsiDriver | undefined {
    return csiDrivers.effectiveCsiDriver(this, name);
  }

  /** Whether pvlint knows a provisioner of this name: the table, its in-tree names, configured drivers, CSIDriver objects. */
  isKnownProvisioner(name: string): boolean {
    return this.knownProvisioners().has(name.trim());
  }

  /** The known provisioner names `written` is a likely typo of, closest first. */
  provisionerTypoCandidates(written: string): string[] {
    return provisionerNames.typoCandidatesAmong(this.knownProvisioners(), written);
  }

  private knownProvisioners(): ReadonlySet<string> {
    return (this.knownProvisionerNames ??= provisionerNames.knownProvisionerNames(this));
  }

  // ---- Placement, service mesh, GitOps

  /** Whether `template`'s pods must run on the node of `target`'s pods (pod affinity on the hostname). */
  followsOnHost(template: PodTemplate, target: PodTemplate): boolean {
    return placement.followsOnHost(this, template, target);
  }

  /** Whether `template`'s pods refuse the node of `target`'s pods (pod anti-affinity on the hostname). */
  repelsOnHost(template: PodTemplate, target: PodTemplate): boolean {
    return placement.repelsOnHost(this, template, target);
  }

  /** Whether all pods of the template land on one node. */
  selfCoLocated(template: PodTemplate): boolean {
    return placement.selfCoLocated(this, template);
  }

  /** Whether all pods of the templates land on one node (`multiPod` says which templates run several pods). */
  coLocated(templates: readonly PodTemplate[], multiPod: (t: PodTemplate) => boolean): boolean {
    return placement.coLocated(this, templates, multiPod);
  }

  /** The service mesh that injects a sidecar into the template's pods, if any (see mesh.ts). */
  meshOf(template: PodTemplate, defaults: MeshDefaults = this.meshDefaults): MeshMembership {
    return mesh.meshOf(this, template, defaults);
  }

  /** Whether the mesh captures the template's outbound traffic to these ports (see mesh.ts). */
  outboundCapture(template: PodTemplate, kind: MeshKind, ports: readonly number[], server?: string): mesh.CaptureCheck {
    return mesh.outboundCapture(this, template, kind, ports, server);
  }

  /** Other documents in the scope with the resource's kind, namespace and name (usually a base and its patch). */
  twinsOf(resource: Resource): Resource[] {
    return wiring.twinsOf(this, resource);
  }

  /** The GitOps tools (Helm, Argo CD, Flux) that manage the resource, each with its evidence. */
  managingTools(resource: Resource): gitops.ToolEvidence[] {
    return gitops.managingTools(this, resource);
  }

  /** Whether the scope shows Argo CD at all. */
  scopeUsesArgo(): boolean {
    return gitops.scopeUsesArgo(this);
  }

  /** What deletes the resource when it leaves the repository, and what protects it. */
  deletionExposure(resource: Resource): ReturnType<typeof gitops.deletionExposure> {
    return gitops.deletionExposure(this, resource);
  }

  /** The GitOps markers and synced application paths of the scope (built once; see gitops.ts). */
  gitopsIndex(): gitops.GitopsIndex {
    return (this.gitopsSourceIndex ??= gitops.buildGitopsIndex(this));
  }
}
