// Typed views of the pod templates inside workloads (catalogue §1.1): where the pod spec lives,
// how many pods may run at once, which volumes they declare and which containers mount them.
import type { JsonPath, Resource } from '../types.js';
import type { ClaimShape, PodSpec } from './views.js';

export type WorkloadKind =
  | 'Pod' | 'Deployment' | 'ReplicaSet' | 'ReplicationController' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob' | 'Rollout';

export const WORKLOAD_KINDS: readonly WorkloadKind[] = [
  'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Rollout',
];

/** How many pods of the template may exist at once. */
export type Replicas =
  | { kind: 'count'; count: number; path: JsonPath; explicit: boolean }
  | { kind: 'per-node'; path: JsonPath }
  | { kind: 'unknown'; path: JsonPath; reason: string };

export interface PodVolume {
  name: string;
  index: number;
  /** Path of the volume entry inside the resource. */
  path: JsonPath;
  /** The volume source's key: persistentVolumeClaim, ephemeral, csi, nfs, hostPath, emptyDir, … */
  source: string;
  claimName?: string;
  /** `persistentVolumeClaim.readOnly: true`. */
  readOnly: boolean;
  /**
   * Generic ephemeral volumes only (`source` is `ephemeral`): where `ephemeral.volumeClaimTemplate` is (or would be)
   * and its value, `undefined` when the template is absent.
   */
  ephemeralTemplate?: { path: JsonPath; object: unknown };
}

export interface ContainerUse {
  container: string;
  containerKind: 'containers' | 'initContainers' | 'ephemeralContainers';
  /** Path of the mount/device entry inside the resource. */
  path: JsonPath;
  type: 'mount' | 'device';
  volumeName: string;
  readOnly: boolean;
  target?: string;
  subPath?: string;
  /** `volumeMounts[].subPathExpr` as written (mounts only). */
  subPathExpr?: string;
}

export interface ClaimTemplate {
  name: string;
  index: number;
  path: JsonPath;
  /** The volumeClaimTemplates entry (see views.ts: a view, not a validated object). */
  object: ClaimShape;
}

export interface PodTemplate {
  workload: Resource;
  kind: WorkloadKind;
  /** Path of the pod spec inside the resource. */
  specPath: JsonPath;
  /** The pod spec, read as the API type (an object; its fields are unvalidated YAML, see views.ts). */
  spec: PodSpec;
  replicas: Replicas;
  volumes: PodVolume[];
  uses: ContainerUse[];
  /** StatefulSet volumeClaimTemplates. */
  claimTemplates: ClaimTemplate[];
}

const POD_SPEC_PATH: Record<WorkloadKind, JsonPath> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  ReplicationController: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
  Rollout: ['spec', 'template', 'spec'],
};

export function isWorkloadKind(kind: string): kind is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind);
}

export function getPath(object: any, path: JsonPath): any {
  let value = object;
  for (const segment of path) {
    if (value == null || typeof value !== 'object') return undefined;
    value = value[segment as any];
  }
  return value;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An integer field as the API would read it: a JSON number; "3" is a string and is rejected by the API. */
function integerField(object: any, path: JsonPath, fallback: number): Replicas {
  const value = getPath(object, path);
  if (value === undefined || value === null) return { kind: 'count', count: fallback, path, explicit: false };
  if (typeof value === 'number' && Number.isInteger(value)) return { kind: 'count', count: value, path, explicit: true };
  return { kind: 'unknown', path, reason: `${path.join('.')} is ${JSON.stringify(value)}, not an integer` };
}

function replicasOf(kind: WorkloadKind, object: any): Replicas {
  switch (kind) {
    case 'Pod':
      return { kind: 'count', count: 1, path: ['kind'], explicit: false };
    case 'DaemonSet':
      return { kind: 'per-node', path: ['kind'] };
    case 'Job':
      return integerField(object, ['spec', 'parallelism'], 1);
    case 'CronJob':
      return integerField(object, ['spec', 'jobTemplate', 'spec', 'parallelism'], 1);
    default:
      return integerField(object, ['spec', 'replicas'], 1);
  }
}

export function podTemplateOf(resource: Resource): PodTemplate | undefined {
  if (!isWorkloadKind(resource.kind)) return undefined;
  const kind = resource.kind;
  const specPath = POD_SPEC_PATH[kind];
  const spec = getPath(resource.object, specPath);
  if (!isObject(spec)) return undefined;
  const volumes: PodVolume[] = [];
  (Array.isArray(spec.volumes) ? spec.volumes : []).forEach((volume: any, index: number) => {
    if (!isObject(volume) || typeof volume.name !== 'string') return;
    const source = Object.keys(volume).find((key) => key !== 'name') ?? 'unknown';
    const pvc = isObject(volume.persistentVolumeClaim) ? volume.persistentVolumeClaim : undefined;
    volumes.push({
      name: volume.name,
      index,
      path: [...specPath, 'volumes', index],
      source,
      claimName: pvc && pvc.claimName != null ? String(pvc.claimName) : undefined,
      readOnly: pvc?.readOnly === true,
      ...(source === 'ephemeral'
        ? { ephemeralTemplate: { path: [...specPath, 'volumes', index, 'ephemeral', 'volumeClaimTemplate'], object: volume.ephemeral?.volumeClaimTemplate ?? undefined } }
        : {}),
    });
  });
  const uses: ContainerUse[] = [];
  for (const containerKind of ['containers', 'initContainers', 'ephemeralContainers'] as const) {
    const containers = Array.isArray(spec[containerKind]) ? spec[containerKind] : [];
    containers.forEach((container: any, ci: number) => {
      if (!isObject(container)) return;
      const containerName = String(container.name ?? `#${ci}`);
      const base = [...specPath, containerKind, ci];
      (Array.isArray(container.volumeMounts) ? container.volumeMounts : []).forEach((mount: any, mi: number) => {
        if (!isObject(mount) || mount.name == null) return;
        uses.push({
          container: containerName, containerKind, path: [...base, 'volumeMounts', mi], type: 'mount',
          volumeName: String(mount.name), readOnly: mount.readOnly === true,
          target: mount.mountPath == null ? undefined : String(mount.mountPath),
          subPath: mount.subPath == null ? undefined : String(mount.subPath),
          subPathExpr: mount.subPathExpr == null ? undefined : String(mount.subPathExpr),
        });
      });
      (Array.isArray(container.volumeDevices) ? container.volumeDevices : []).forEach((device: any, di: number) => {
        if (!isObject(device) || device.name == null) return;
        uses.push({
          container: containerName, containerKind, path: [...base, 'volumeDevices', di], type: 'device',
          volumeName: String(device.name), readOnly: false,
          target: device.devicePath == null ? undefined : String(device.devicePath),
        });
      });
    });
  }
  const claimTemplates: ClaimTemplate[] = [];
  if (kind === 'StatefulSet') {
    const vcts = getPath(resource.object, ['spec', 'volumeClaimTemplates']);
    (Array.isArray(vcts) ? vcts : []).forEach((vct: any, index: number) => {
      const name = vct?.metadata?.name;
      if (name == null) return;
      claimTemplates.push({ name: String(name), index, path: ['spec', 'volumeClaimTemplates', index], object: vct });
    });
  }
  return { workload: resource, kind, specPath, spec: spec as PodSpec, replicas: replicasOf(kind, resource.object), volumes, uses, claimTemplates };
}

/** PVC names a StatefulSet creates for a claim template: `<template>-<statefulset>-<ordinal>`. */
export function statefulSetClaimName(template: string, statefulSet: string, ordinal: number): string {
  return `${template}-${statefulSet}-${ordinal}`;
}

/**
 * The StatefulSet controller replaces a pod volume that has a claim template's name with that template's
 * claim (`updateStorage`), so such a volume's own source is never used.
 */
export function isShadowedByClaimTemplate(template: PodTemplate, volume: PodVolume): boolean {
  return template.kind === 'StatefulSet' && template.claimTemplates.some((t) => t.name === volume.name);
}
