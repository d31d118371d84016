// Typed views of the objects rules read most, from the Kubernetes API types (`kubernetes-types`, types only: nothing
// of it exists at run time). A view says which fields an object of the kind has and what the API accepts in them; it
// does not make a manifest valid. pvlint reads unvalidated YAML (the shape check reports objects the API would
// reject, rules still see them), so a field may hold another type than its view says: test it (`typeof`,
// `Array.isArray`) before relying on it, as the model's helpers do.
import type { PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimSpec, PodSpec, Volume } from 'kubernetes-types/core/v1.js';
import type { CSIDriver, StorageClass } from 'kubernetes-types/storage/v1.js';
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2.js';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { Resource } from '../types.js';

export type { CSIDriver, HorizontalPodAutoscaler, ObjectMeta, PersistentVolume, PersistentVolumeClaim, PodSpec, StorageClass, Volume };

/** A resource whose object is read as `T` (see the note above: a view, not a validated object). */
export interface ResourceOf<T> extends Resource {
  readonly object: T;
}

export type ClaimResource = ResourceOf<PersistentVolumeClaim>;
export type VolumeResource = ResourceOf<PersistentVolume>;
export type StorageClassResource = ResourceOf<StorageClass>;
export type CsiDriverResource = ResourceOf<CSIDriver>;
export type AutoscalerResource = ResourceOf<HorizontalPodAutoscaler>;

/**
 * What a PersistentVolumeClaim, a StatefulSet `volumeClaimTemplates` entry and a generic ephemeral volume's
 * `volumeClaimTemplate` have in common: `metadata` and a claim `spec`.
 */
export interface ClaimShape {
  metadata?: ObjectMeta;
  spec?: PersistentVolumeClaimSpec;
}
