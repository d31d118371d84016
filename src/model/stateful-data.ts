// Which claims hold data that matters (catalogue R37/R41 "DB/stateful claims"), and what happens to a claim's volume when
// the claim is deleted: the reclaim policy of its bound PersistentVolume or of the StorageClass that provisions it.
import type { Resource } from '../types.js';
import { boundVolumeOf, storageClassFor } from './claims.js';
import { databaseContainer } from './databases.js';
import { coveringMount, podContainers } from './mounts.js';
import type { PodTemplate } from './pod-templates.js';
import type { ModelView } from './model-view.js';

export interface DatabaseVolume {
  volumeName: string;
  /** `PostgreSQL`, `MySQL`, … */
  product: string;
  dataPath: string;
  container: string;
}

/**
 * Pod volumes (or StatefulSet claim templates) that hold a database's data directory: a container runs a §8.1 datastore
 * (not a cache) whose known data path lies on the volume's mount. The model keeps each template's answer
 * (`model.databaseVolumes(template)`).
 */
export function databaseVolumesOf(template: PodTemplate): Map<string, DatabaseVolume> {
  const result = new Map<string, DatabaseVolume>();
  for (const container of podContainers(template, ['containers'])) {
    const db = databaseContainer(container);
    if (!db || db.role !== 'datastore' || db.data.kind !== 'known') continue;
    for (const path of db.data.paths) {
      for (const candidate of [path.path, ...(path.anyOf ?? [])]) {
        const mount = coveringMount(template, container, candidate);
        if (!mount || result.has(mount.use.volumeName)) continue;
        result.set(mount.use.volumeName, { volumeName: mount.use.volumeName, product: db.db.product, dataPath: candidate, container: container.name });
      }
    }
  }
  return result;
}

export type Reclaim =
  | { policy: string; via: 'pv'; pv: Resource; defaulted: boolean }
  | { policy: string; via: 'class'; storageClass: Resource; defaulted: boolean }
  | { policy: undefined; why: string };

/** `persistentVolumeReclaimPolicy` of a PV: Retain when unset (the API default for PersistentVolumes). */
export function reclaimOfVolume(pv: Resource): { policy: string; defaulted: boolean } {
  const value = pv.object?.spec?.persistentVolumeReclaimPolicy;
  return value == null || value === '' ? { policy: 'Retain', defaulted: true } : { policy: String(value), defaulted: false };
}

/**
 * What deleting the claim does to its volume: the bound / pre-bound PersistentVolume's policy when the repo has it,
 * else the effective StorageClass's `reclaimPolicy` (Delete when unset). `claimObject` is a PVC or a claim template.
 */
export function reclaimOfClaim(model: ModelView, claimObject: unknown, pvc?: Resource): Reclaim {
  if (pvc) {
    const bound = boundVolumeOf(model, pvc);
    if (bound) return { ...reclaimOfVolume(bound.pv), via: 'pv', pv: bound.pv };
  }
  const effective = model.effectiveClassOfClaim(claimObject);
  if (effective.name === undefined) return { policy: undefined, why: 'the claim sets no class and the repo has no default StorageClass' };
  if (effective.name === '') return { policy: undefined, why: 'the claim binds a pre-provisioned PersistentVolume that is not in the repo' };
  const lookup = storageClassFor(model, effective.name, pvc);
  if (lookup.status !== 'found') return { policy: undefined, why: `StorageClass "${effective.name}" is not in the repo` };
  const value = lookup.value.object?.reclaimPolicy;
  return value == null || value === ''
    ? { policy: 'Delete', via: 'class', storageClass: lookup.value, defaulted: true }
    : { policy: String(value), via: 'class', storageClass: lookup.value, defaulted: false };
}
