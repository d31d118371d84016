// Builds the storage picture of one environment from its model: every workload's storage volumes, the claims behind
// them (PVCs, StatefulSet claim templates, generic ephemeral volumes), the PersistentVolumes they bind and the
// StorageClasses that provision them; objects referenced but not in the bundle become external nodes. Then places
// the environment's findings on the nodes and edges they are about (see place-findings.ts).
import { accessModesOf, boundVolumeOf, singleHostOfNodeSelectorTerms, volumeModeOf } from '../model/claims.js';
import { meshOf, type MeshKind } from '../model/mesh.js';
import { volumeNamed, type PodVolumeRef } from '../model/mounts.js';
import { getPath, type PodTemplate } from '../model/pod-templates.js';
import { isDefaultClass, type StorageModel } from '../model/storage-model.js';
import { claimOfVolume } from '../model/volume-claims.js';
import type { Finding, FindingSubject, Resource } from '../types.js';
import type { EdgeType, EnvironmentGraph, GraphEdge, GraphNamespace, GraphNode } from './model.js';
import { placeFindings } from './place-findings.js';
import { appendAll } from '../engine/append.js';
import { ownEntry } from '../engine/own-entry.js';

const MODE_ABBREVIATIONS: Record<string, string> = {
  ReadWriteOnce: 'RWO',
  ReadOnlyMany: 'ROX',
  ReadWriteMany: 'RWX',
  ReadWriteOncePod: 'RWOP',
};

const MESH_SHORT: Record<MeshKind, string> = {
  'istio-sidecar': 'Istio sidecar',
  'istio-ambient': 'Istio ambient',
  linkerd: 'Linkerd',
};

/** Volume kinds that are not storage (API-object projections, images): left out of the picture. */
const NOT_STORAGE = new Set(['projection', 'image']);

const MAX_MOUNT_LINES = 3;

function str(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : String(value);
}

export function modesText(modes: readonly string[] | undefined): string {
  if (!modes || modes.length === 0) return 'no access modes';
  return modes.map((m) => ownEntry(MODE_ABBREVIATIONS, m) ?? m).join(', ');
}

/** `RWO · 20Gi · Block` for a claim-shaped object or a PV. */
function capacityLine(object: any, sizePath: readonly string[]): string {
  const parts = [modesText(accessModesOf(object))];
  const size = str(getPath(object, sizePath));
  parts.push(size ?? 'no size');
  if (volumeModeOf(object) === 'Block') parts.push('Block');
  return parts.join(' · ');
}

function replicasLine(model: StorageModel, template: PodTemplate): string | undefined {
  const replicas = template.replicas;
  const field = template.kind === 'Job' || template.kind === 'CronJob' ? 'parallelism' : 'replicas';
  let text: string | undefined;
  if (template.kind === 'Pod') text = undefined;
  else if (replicas.kind === 'count') text = `${field}: ${replicas.count}`;
  else if (replicas.kind === 'per-node') text = 'one pod per node';
  else text = `${field}: ?`;
  const hpa = model.autoscalerOf(template.workload);
  if (hpa) text = `${text ?? 'replicas: ?'} · HPA max ${hpa.max}`;
  return text;
}

function rollingText(rolling: any, surgeDefault: string, unavailableDefault: string): string {
  const surge = str(rolling?.maxSurge) ?? surgeDefault;
  const unavailable = str(rolling?.maxUnavailable) ?? unavailableDefault;
  return `maxSurge ${surge}, maxUnavailable ${unavailable}`;
}

function strategyLine(template: PodTemplate): string | undefined {
  const spec = template.workload.object?.spec ?? {};
  switch (template.kind) {
    case 'Deployment': {
      const type = str(spec.strategy?.type) ?? 'RollingUpdate';
      return type === 'RollingUpdate' ? `RollingUpdate (${rollingText(spec.strategy?.rollingUpdate, '25%', '25%')})` : type;
    }
    case 'StatefulSet': {
      const type = str(spec.updateStrategy?.type) ?? 'RollingUpdate';
      const partition = str(spec.updateStrategy?.rollingUpdate?.partition);
      const policy = str(spec.podManagementPolicy);
      return [type + (partition ? ` (partition ${partition})` : ''), policy && policy !== 'OrderedReady' ? `${policy} pods` : undefined].filter(Boolean).join(' · ');
    }
    case 'DaemonSet': {
      const type = str(spec.updateStrategy?.type) ?? 'RollingUpdate';
      return type === 'RollingUpdate' ? `RollingUpdate (${rollingText(spec.updateStrategy?.rollingUpdate, '0', '1')})` : type;
    }
    case 'Rollout':
      return spec.strategy?.blueGreen ? 'blue-green' : spec.strategy?.canary ? 'canary' : undefined;
    case 'CronJob':
      return `schedule ${str(spec.schedule) ?? '?'} · concurrency ${str(spec.concurrencyPolicy) ?? 'Allow'}`;
    default:
      return undefined;
  }
}

/**
 * Mesh membership of the pod template (src/model/mesh.ts). Should that module be unable to decide (or throw on an
 * odd template), the picture says `unknown` rather than fail.
 */
function meshLine(model: StorageModel, template: PodTemplate): string {
  try {
    const membership = meshOf(model, template);
    if (membership.state === 'in-mesh') return `mesh: ${membership.mesh ? MESH_SHORT[membership.mesh] : 'yes'}`;
    if (membership.state === 'not-in-mesh') return 'mesh: none';
    return 'mesh: unknown';
  } catch {
    return 'mesh: unknown';
  }
}

function volumeSourceLine(ref: PodVolumeRef): string {
  const source = ref.source ?? {};
  switch (ref.kind) {
    case 'claim':
      return `persistentVolumeClaim${ref.volume?.readOnly ? ' (readOnly)' : ''}`;
    case 'claim-template':
      return 'volumeClaimTemplate';
    case 'ephemeral':
      return 'generic ephemeral';
    case 'emptyDir': {
      const parts = ['emptyDir'];
      if (source.medium === 'Memory') parts.push('in memory');
      if (source.sizeLimit != null) parts.push(`limit ${source.sizeLimit}`);
      return parts.join(' · ');
    }
    case 'hostPath':
      return `hostPath ${str(source.path) ?? '?'}`;
    case 'network': {
      const kind = ref.volume?.source ?? 'network';
      if (kind === 'nfs') return `nfs ${str(source.server) ?? '?'}:${str(source.path) ?? '?'}`;
      return kind;
    }
    case 'csi-inline':
      return `csi ${str(source.driver) ?? '?'} (inline)`;
    default:
      return ref.volume?.source ?? ref.kind;
  }
}

function pvSourceLine(pv: any): string | undefined {
  const spec = pv?.spec ?? {};
  if (spec.csi) return `csi ${str(spec.csi.driver) ?? '?'}`;
  if (spec.nfs) return `nfs ${str(spec.nfs.server) ?? '?'}:${str(spec.nfs.path) ?? '?'}`;
  if (spec.local) return `local ${str(spec.local.path) ?? '?'}`;
  if (spec.hostPath) return `hostPath ${str(spec.hostPath.path) ?? '?'}`;
  const source = Object.keys(spec).find((key) => spec[key] && typeof spec[key] === 'object' && !['claimRef', 'nodeAffinity', 'capacity', 'mountOptions'].includes(key) && !Array.isArray(spec[key]));
  return source;
}

interface Builder {
  model: StorageModel;
  nodes: Map<string, GraphNode>;
  edges: Map<string, GraphEdge>;
  namespaces: Set<string>;
  byResource: Map<Resource, string>;
}

function addNode(b: Builder, node: Omit<GraphNode, 'findings'>): GraphNode {
  const existing = b.nodes.get(node.id);
  if (existing) return existing;
  const full: GraphNode = { ...node, findings: [] };
  b.nodes.set(node.id, full);
  if (node.namespace !== undefined) b.namespaces.add(node.namespace);
  return full;
}

function addEdge(b: Builder, from: string, to: string, type: EdgeType): void {
  const id = `${from} -> ${to}`;
  if (!b.edges.has(id)) b.edges.set(id, { id, from, to, type, findings: [] });
}

function refOf(model: StorageModel, resource: Resource): string {
  return `${resource.kind}/${model.namespaceOf(resource) ?? ''}/${resource.name}`;
}

/** A node id for a resource; a second definition of the same object in one scope gets `#2`, `#3`, … */
function resourceId(b: Builder, prefix: string, resource: Resource): string {
  const known = b.byResource.get(resource);
  if (known) return known;
  const base = `${prefix}:${refOf(b.model, resource)}`;
  let id = base;
  for (let n = 2; [...b.byResource.values()].includes(id); n++) id = `${base}#${n}`;
  b.byResource.set(resource, id);
  return id;
}

function externalNote(model: StorageModel, what = 'not in the repo'): { note: string } {
  return { note: model.bundleComplete ? `missing: ${what}` : what };
}

function classNode(b: Builder, name: string): string {
  const lookup = b.model.lookupClass(name);
  if (lookup.status !== 'found') {
    const id = `class:${name}`;
    addNode(b, { id, type: 'class', kind: 'StorageClass', name, details: [], external: externalNote(b.model), ref: `StorageClass//${name}` });
    return id;
  }
  const sc = lookup.value;
  const id = resourceId(b, 'class', sc);
  const object = sc.object ?? {};
  const details = [
    str(object.provisioner) ?? 'no provisioner',
    `${str(object.volumeBindingMode) ?? 'Immediate'} · reclaim ${str(object.reclaimPolicy) ?? 'Delete'}`,
  ];
  const flags = [isDefaultClass(sc) ? 'default class' : undefined, object.allowVolumeExpansion === true ? 'expandable' : undefined].filter(Boolean);
  if (flags.length > 0) details.push(flags.join(' · '));
  addNode(b, {
    id, type: 'class', kind: 'StorageClass', name: sc.name, details, ref: refOf(b.model, sc),
    ...(lookup.declared ? { external: { note: 'declared in the configuration' } } : {}),
  });
  return id;
}

/** The class a claim-shaped object is provisioned by: its own, the repo's default, or an external "cluster default". */
function classOfClaimNode(b: Builder, claim: any): string | undefined {
  const effective = b.model.effectiveClassOfClaim(claim);
  if (effective.name === '') return undefined;
  if (effective.name === undefined) {
    const id = 'class:(cluster default)';
    addNode(b, { id, type: 'class', kind: 'StorageClass', name: '(cluster default)', details: ['no class set, no default in the repo'], external: externalNote(b.model) });
    return id;
  }
  return classNode(b, effective.name);
}

function pvNode(b: Builder, pv: Resource): string {
  const id = resourceId(b, 'pv', pv);
  if (b.nodes.has(id)) return id;
  const object = pv.object ?? {};
  const details = [capacityLine(object, ['spec', 'capacity', 'storage'])];
  const source = pvSourceLine(object);
  if (source) details.push(source);
  const host = singleHostOfNodeSelectorTerms(object.spec?.nodeAffinity?.required?.nodeSelectorTerms);
  details.push(`reclaim ${str(object.spec?.persistentVolumeReclaimPolicy) ?? 'Retain'}${host ? ` · node ${host}` : ''}`);
  addNode(b, { id, type: 'pv', kind: 'PV', name: pv.name, details, ref: refOf(b.model, pv) });
  const className = b.model.classOfVolume(object);
  if (className !== '') addEdge(b, id, classNode(b, className), 'class');
  return id;
}

function externalPvNode(b: Builder, name: string): string {
  const id = `pv:${name}`;
  addNode(b, { id, type: 'pv', kind: 'PV', name, details: [], external: externalNote(b.model), ref: `PersistentVolume//${name}` });
  return id;
}

/** Claim → PV and claim → class edges for a claim-shaped object whose bound PV (if any) is `bound`. */
function linkClaimStorage(b: Builder, claimId: string, claim: any, bound: Resource | undefined): void {
  let pvClass: string | undefined;
  if (bound) {
    addEdge(b, claimId, pvNode(b, bound), 'binds');
    pvClass = b.model.classOfVolume(bound.object);
  } else {
    const volumeName = str(claim?.spec?.volumeName);
    if (volumeName) addEdge(b, claimId, externalPvNode(b, volumeName), 'binds');
    if (volumeName) return;
  }
  const effective = b.model.effectiveClassOfClaim(claim);
  if (bound && (effective.name === undefined || effective.name === pvClass)) return;
  const cls = classOfClaimNode(b, claim);
  if (cls) addEdge(b, claimId, cls, 'class');
}

function pvcNode(b: Builder, pvc: Resource): string {
  const id = resourceId(b, 'claim', pvc);
  if (b.nodes.has(id)) return id;
  const namespace = b.model.namespaceOf(pvc) ?? b.model.defaultNamespace;
  const details = [capacityLine(pvc.object, ['spec', 'resources', 'requests', 'storage'])];
  const own = b.model.classOfClaim(pvc.object);
  if (own.set && own.name === '') details.push('storageClassName: ""');
  else if (!own.set) details.push('no class set: the default');
  addNode(b, { id, type: 'claim', kind: 'PVC', name: pvc.name, namespace, details, ref: refOf(b.model, pvc) });
  linkClaimStorage(b, id, pvc.object, boundVolumeOf(b.model, pvc)?.pv);
  return id;
}

function claimTemplateNode(b: Builder, statefulSet: Resource, index: number, object: any): string {
  const name = String(object?.metadata?.name ?? `#${index}`);
  const id = `claim:${refOf(b.model, statefulSet)}#${name}`;
  if (b.nodes.has(id)) return id;
  const namespace = b.model.namespaceOf(statefulSet) ?? b.model.defaultNamespace;
  addNode(b, {
    id, type: 'claim', kind: 'claim template', name, namespace,
    details: [capacityLine(object, ['spec', 'resources', 'requests', 'storage']), `one PVC per pod: ${name}-${statefulSet.name}-0, …`],
    ref: `${refOf(b.model, statefulSet)}`,
  });
  // A PV pre-created for the first pod's claim (claimRef), as the model reads it.
  const first = `${name}-${statefulSet.name}-0`;
  const reserving = b.model.volumesClaiming(namespace, first);
  linkClaimStorage(b, id, object, reserving[0]);
  return id;
}

function externalClaimNode(b: Builder, namespace: string, name: string): string {
  const id = `claim:PersistentVolumeClaim/${namespace}/${name}`;
  addNode(b, { id, type: 'claim', kind: 'PVC', name, namespace, details: [], external: externalNote(b.model), ref: `PersistentVolumeClaim/${namespace}/${name}` });
  return id;
}

function mountLines(template: PodTemplate, name: string): string[] {
  const uses = template.uses.filter((use) => use.volumeName === name);
  if (uses.length === 0) return ['not mounted'];
  const lines = uses.slice(0, MAX_MOUNT_LINES).map((use) => {
    const flags = [use.type === 'device' ? 'device' : undefined, use.readOnly ? 'ro' : undefined, use.subPath ? `subPath ${use.subPath}` : undefined].filter(Boolean);
    return `${use.container}: ${use.target ?? '?'}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`;
  });
  if (uses.length > MAX_MOUNT_LINES) lines.push(`+${uses.length - MAX_MOUNT_LINES} more mounts`);
  return lines;
}

function addWorkload(b: Builder, template: PodTemplate): void {
  const workload = template.workload;
  const namespace = b.model.namespaceOf(workload) ?? b.model.defaultNamespace;
  const workloadId = resourceId(b, 'workload', workload);
  const details = [replicasLine(b.model, template), strategyLine(template), meshLine(b.model, template)].filter((d): d is string => !!d);
  addNode(b, { id: workloadId, type: 'workload', kind: template.kind, name: workload.name, namespace, details, ref: refOf(b.model, workload) });
  const names = [...new Set([...template.volumes.map((v) => v.name), ...template.claimTemplates.map((t) => t.name)])];
  for (const name of names) {
    const ref = volumeNamed(template, name);
    if (!ref || NOT_STORAGE.has(ref.kind)) continue;
    const volumeId = `volume:${workloadId.slice('workload:'.length)}#${name}`;
    addNode(b, { id: volumeId, type: 'volume', kind: 'volume', name, namespace, details: [volumeSourceLine(ref), ...mountLines(template, name)] });
    addEdge(b, workloadId, volumeId, 'mounts');
    let claimId: string | undefined;
    if (ref.kind === 'claim-template' && ref.claimTemplate) {
      claimId = claimTemplateNode(b, workload, ref.claimTemplate.index, ref.claimTemplate.object);
    } else if (ref.kind === 'ephemeral' || ref.kind === 'claim') {
      const resolved = claimOfVolume(b.model, template, ref);
      if (resolved === 'external') {
        claimId = externalClaimNode(b, namespace, ref.volume?.claimName ?? name);
      } else if (resolved?.origin === 'pvc') {
        claimId = pvcNode(b, resolved.owner);
      } else if (resolved?.origin === 'claim-template') {
        const index = Number(resolved.path[resolved.path.length - 1]);
        claimId = claimTemplateNode(b, resolved.owner, index, resolved.object);
      } else if (resolved?.origin === 'ephemeral') {
        claimId = `claim:${workloadId.slice('workload:'.length)}#${name}(ephemeral)`;
        addNode(b, {
          id: claimId, type: 'claim', kind: 'ephemeral claim', name: `${workload.name}-…-${name}`, namespace,
          details: [capacityLine(resolved.object, ['spec', 'resources', 'requests', 'storage']), 'one PVC per pod, deleted with it'],
        });
        linkClaimStorage(b, claimId, resolved.object, undefined);
      }
    }
    if (claimId) addEdge(b, volumeId, claimId, 'claim');
  }
}

export interface BuildOptions {
  environment: string;
  kind: EnvironmentGraph['kind'];
}

/** The picture of one environment, with its findings placed on nodes and edges. */
export function buildEnvironmentGraph(model: StorageModel, findings: readonly Finding[], options: BuildOptions, subjectOf: (finding: Finding) => FindingSubject | undefined): EnvironmentGraph {
  const b: Builder = { model, nodes: new Map(), edges: new Map(), namespaces: new Set(), byResource: new Map() };
  for (const template of model.templates) addWorkload(b, template);
  for (const pvc of model.claimsOf()) pvcNode(b, pvc);
  for (const pv of model.ofKind('PersistentVolume')) {
    const pvId = pvNode(b, pv);
    const ref = pv.object?.spec?.claimRef;
    if (!ref || typeof ref !== 'object' || ref.name == null) continue;
    const namespace = String(ref.namespace ?? '');
    const claimName = String(ref.name);
    // A PV reserved for a claim: the claim's node (a PVC, or a claim template whose claim it is), else external.
    const claimIds: string[] = [];
    const lookup = namespace === '' ? undefined : model.lookupClaim(namespace, claimName);
    if (lookup?.status === 'found' && lookup.value.kind === 'pvc') {
      appendAll(claimIds, model.claimsNamed(claimName).filter((pvc) => model.namespaceOf(pvc) === namespace).map((pvc) => pvcNode(b, pvc)));
    } else if (lookup?.status === 'found' && lookup.value.kind === 'claim-template') {
      const { statefulSet, template } = lookup.value;
      const templates = getPath(statefulSet.object, ['spec', 'volumeClaimTemplates']) as any[];
      const index = templates.findIndex((t: any) => t?.metadata?.name === template);
      claimIds.push(claimTemplateNode(b, statefulSet, index, templates[index]));
    } else if (namespace !== '') {
      claimIds.push(externalClaimNode(b, namespace, claimName));
    }
    for (const claimId of claimIds) addEdge(b, claimId, pvId, 'binds');
  }
  for (const sc of model.ofKind('StorageClass')) classNode(b, sc.name);

  const namespaces: GraphNamespace[] = [...b.namespaces].sort().map((name) => ({ name, external: model.lookupNamespace(name).status !== 'found' }));
  const graph: EnvironmentGraph = {
    environment: options.environment,
    kind: options.kind,
    nodes: [...b.nodes.values()],
    edges: [...b.edges.values()],
    namespaces,
    findings: [],
  };
  placeFindings(graph, model, findings, b.byResource, subjectOf);
  return graph;
}
