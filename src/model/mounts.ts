// What a container's filesystem looks like from its pod spec: which volume backs a path (the deepest mount whose
// mountPath is a path-segment prefix of it), what kind of volume that is (claim, claim template, generic ephemeral,
// emptyDir, hostPath, NFS, a config projection, …), and the pod/container facts the workload rules read
// (environment, effective user, memory limits).
import type { JsonPath } from '../types.js';
import { getPath, type ClaimTemplate, type ContainerUse, type PodTemplate, type PodVolume } from './pod-templates.js';
import { parseQuantity, type Quantity } from './quantity.js';

/**
 * How long a volume's data lives:
 * `claim` = a PersistentVolumeClaim named in `persistentVolumeClaim.claimName` (outlives the pod);
 * `claim-template` = a StatefulSet volumeClaimTemplates claim (one per pod, outlives the pod);
 * `ephemeral` = a generic ephemeral volume (a claim created and deleted with the pod);
 * `emptyDir` = pod-lifetime scratch space (tmpfs when `medium: Memory`);
 * `hostPath` = a directory of whichever node the pod runs on;
 * `network` = an inline network file system (`nfs`, `cephfs`, `glusterfs`, `azureFile`) that outlives the pod;
 * `in-tree-disk` = an inline in-tree disk or block source (`awsElasticBlockStore`, `iscsi`, `rbd`, …);
 * `csi-inline` = an inline CSI volume (usually ephemeral; depends on the driver);
 * `projection` = configMap / secret / projected / downwardAPI (read-only views of API objects);
 * `image` = an OCI image volume; `unknown` = anything else.
 */
export type VolumeKind =
  | 'claim' | 'claim-template' | 'ephemeral' | 'emptyDir' | 'hostPath' | 'network' | 'in-tree-disk' | 'csi-inline'
  | 'projection' | 'image' | 'unknown';

export interface PodVolumeRef {
  name: string;
  kind: VolumeKind;
  /** The pod-spec volume entry; undefined for a StatefulSet claim template without a volume of that name. */
  volume?: PodVolume;
  /** The claim template that backs the name (StatefulSet), when one does. */
  claimTemplate?: ClaimTemplate;
  /** The volume source object (`volumes[i].<source>`), when there is a pod-spec volume. */
  source?: any;
}

const NETWORK_SOURCES = new Set(['nfs', 'cephfs', 'glusterfs', 'azureFile', 'quobyte']);
const IN_TREE_DISK_SOURCES = new Set([
  'awsElasticBlockStore', 'gcePersistentDisk', 'azureDisk', 'cinder', 'vsphereVolume', 'portworxVolume', 'iscsi', 'fc', 'rbd',
  'flocker', 'scaleIO', 'storageos', 'photonPersistentDisk', 'flexVolume',
]);
const PROJECTION_SOURCES = new Set(['configMap', 'secret', 'projected', 'downwardAPI']);

function kindOfSource(source: string): VolumeKind {
  if (source === 'persistentVolumeClaim') return 'claim';
  if (source === 'ephemeral') return 'ephemeral';
  if (source === 'emptyDir') return 'emptyDir';
  if (source === 'hostPath') return 'hostPath';
  if (source === 'csi') return 'csi-inline';
  if (source === 'image') return 'image';
  if (NETWORK_SOURCES.has(source)) return 'network';
  if (IN_TREE_DISK_SOURCES.has(source)) return 'in-tree-disk';
  if (PROJECTION_SOURCES.has(source)) return 'projection';
  return 'unknown';
}

/** Volume kinds whose data outlives the pod (on the same node only, for hostPath). */
export const PERSISTENT_KINDS: ReadonlySet<VolumeKind> = new Set(['claim', 'claim-template', 'network', 'in-tree-disk', 'hostPath']);
/** Volume kinds whose data is gone when the pod is deleted. */
export const POD_LIFETIME_KINDS: ReadonlySet<VolumeKind> = new Set(['emptyDir', 'ephemeral']);

/**
 * The volume a mount name refers to. In a StatefulSet a claim template shadows a pod volume of the same name
 * (the controller replaces it), so the claim template wins.
 */
export function volumeNamed(template: PodTemplate, name: string): PodVolumeRef | undefined {
  const claimTemplate = template.claimTemplates.find((t) => t.name === name);
  const volume = template.volumes.find((v) => v.name === name);
  if (claimTemplate) return { name, kind: 'claim-template', claimTemplate, volume };
  if (!volume) return undefined;
  return { name, kind: kindOfSource(volume.source), volume, source: getPath(template.workload.object, [...volume.path, volume.source]) };
}

/** A container of a pod template with its place in the resource. */
export interface PodContainer {
  kind: ContainerUse['containerKind'];
  index: number;
  name: string;
  path: JsonPath;
  object: any;
}

/** Every container (regular, init, ephemeral) of the template. */
export function podContainers(template: PodTemplate, kinds: readonly ContainerUse['containerKind'][] = ['containers', 'initContainers', 'ephemeralContainers']): PodContainer[] {
  const result: PodContainer[] = [];
  for (const kind of kinds) {
    const list = template.spec?.[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((object: unknown, index: number) => {
      if (object && typeof object === 'object' && !Array.isArray(object)) {
        result.push({ kind, index, name: String((object as any).name ?? `#${index}`), path: [...template.specPath, kind, index], object });
      }
    });
  }
  return result;
}

const startsWithPath = (path: JsonPath, prefix: JsonPath) => prefix.every((segment, i) => path[i] === segment);

/** The mounts and devices of one container. */
export function usesOfContainer(template: PodTemplate, container: PodContainer): ContainerUse[] {
  return template.uses.filter((use) => startsWithPath(use.path, container.path));
}

/** `/a/b/` → `/a/b`; relative paths are returned as they are. */
export function normalisePath(path: string): string {
  const collapsed = path.replace(/\/+/g, '/');
  return collapsed.length > 1 ? collapsed.replace(/\/$/, '') : collapsed;
}

/** Whether `path` is `parent` or lies below it, comparing whole path segments. */
export function isWithin(path: string, parent: string): boolean {
  const p = normalisePath(path);
  const q = normalisePath(parent);
  if (q === '/') return p.startsWith('/');
  return p === q || p.startsWith(`${q}/`);
}

export interface CoveringMount {
  use: ContainerUse;
  volume: PodVolumeRef | undefined;
  /** The mount is read-only: `readOnly: true` on the mount or on the pod's `persistentVolumeClaim`. */
  readOnly: boolean;
}

/** The deepest filesystem mount of the container whose mountPath is `path` or a parent of it. */
export function coveringMount(template: PodTemplate, container: PodContainer, path: string): CoveringMount | undefined {
  let best: ContainerUse | undefined;
  for (const use of usesOfContainer(template, container)) {
    if (use.type !== 'mount' || use.target === undefined || !use.target.startsWith('/')) continue;
    if (!isWithin(path, use.target)) continue;
    if (!best || normalisePath(use.target).length > normalisePath(best.target!).length) best = use;
  }
  if (!best) return undefined;
  const volume = volumeNamed(template, best.volumeName);
  return { use: best, volume, readOnly: best.readOnly || volume?.volume?.readOnly === true };
}

/** Mounts of the container at or below `path`. */
export function mountsWithin(template: PodTemplate, container: PodContainer, path: string): ContainerUse[] {
  return usesOfContainer(template, container).filter((use) => use.type === 'mount' && use.target !== undefined && isWithin(use.target, path));
}

/** An environment variable as the container sets it: its literal value, or `undefined` value when set indirectly. */
export interface EnvValue {
  name: string;
  value: string | undefined;
  /** Why the value is not known (valueFrom, a `$(VAR)` reference). */
  indirect?: string;
  index: number;
}

/** The container's `env` entries by name (the last entry of a name wins, as in the kubelet). */
export function envOf(container: any): Map<string, EnvValue> {
  const result = new Map<string, EnvValue>();
  const env = Array.isArray(container?.env) ? container.env : [];
  env.forEach((entry: any, index: number) => {
    if (!entry || typeof entry !== 'object' || entry.name == null) return;
    const name = String(entry.name);
    if (entry.valueFrom != null) {
      result.set(name, { name, value: undefined, indirect: 'set from valueFrom', index });
      return;
    }
    const value = entry.value == null ? '' : String(entry.value);
    if (/\$\([A-Za-z_][A-Za-z0-9_]*\)/.test(value)) result.set(name, { name, value: undefined, indirect: `refers to other variables (${value})`, index });
    else result.set(name, { name, value, index });
  });
  return result;
}

/** Whether the container takes more variables from ConfigMaps/Secrets (`envFrom`), which the bundle may not show. */
export function hasEnvFrom(container: any): boolean {
  return Array.isArray(container?.envFrom) && container.envFrom.length > 0;
}

/**
 * The user a container runs as, from its own and the pod's securityContext: `root` (runAsUser 0), `non-root`
 * (runAsUser ≠ 0 or runAsNonRoot: true), or `unknown` (the image decides).
 */
export function effectiveUser(template: PodTemplate, container: any): 'root' | 'non-root' | 'unknown' {
  const own = container?.securityContext ?? {};
  const pod = template.spec?.securityContext ?? {};
  const runAsUser = own.runAsUser ?? pod.runAsUser;
  if (typeof runAsUser === 'number') return runAsUser === 0 ? 'root' : 'non-root';
  const runAsNonRoot = own.runAsNonRoot ?? pod.runAsNonRoot;
  return runAsNonRoot === true ? 'non-root' : 'unknown';
}

/** `resources.limits.memory` of a container, parsed; undefined when absent or invalid. */
export function memoryLimitOf(container: any): Quantity | undefined {
  const raw = container?.resources?.limits?.memory;
  return raw == null ? undefined : parseQuantity(raw);
}

/** The pod-level `securityContext.fsGroup`, when set to a number. */
export function fsGroupOf(template: PodTemplate): number | undefined {
  const value = template.spec?.securityContext?.fsGroup;
  return typeof value === 'number' ? value : undefined;
}
