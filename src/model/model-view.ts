// What the topic modules of the model (claims.ts, binding.ts, volume-claims.ts, …) read from it: the indexes and
// lookups StorageModel builds from the scope's documents. StorageModel implements this view and answers its query
// methods with the topic modules; they take the view, not the class, so the model's files import one way only (the
// class → its topics → this view) and a topic module can be read without the whole query API.
import type { Resource, SourceFile } from '../types.js';
import type { PodTemplate } from './pod-templates.js';
import type { PodCount } from './pod-count.js';
import type { DriverInfo, DriverOverrideRow } from './provisioners.js';
import type { ClaimResource, CsiDriverResource, StorageClassResource, VolumeResource } from './views.js';

/** Absence from the repo is not absence from the cluster: `external` unless the bundle is declared complete. */
export type Lookup<T> =
  /** `declared`: not in the repo, but a cluster fact of the configuration (`cluster.storageClasses`). */
  | { status: 'found'; value: T; declared?: true }
  | { status: 'missing' }
  | { status: 'external' };

export type ClaimTarget =
  | { kind: 'pvc'; resource: ClaimResource }
  | { kind: 'claim-template'; statefulSet: Resource; template: string; ordinal: number };

export type ClaimClass =
  | { set: true; name: string; via: 'annotation' | 'spec' }
  | { set: false };

/** The model as its topic modules read it (see StorageModel for what each member means). */
export interface ModelView {
  readonly scope: string;
  readonly defaultNamespace: string;
  readonly driverOverrides: readonly DriverOverrideRow[];
  readonly templates: readonly PodTemplate[];
  readonly resources: readonly Resource[];

  namespaceOf(resource: Resource): string | undefined;
  ofKind(kind: string): readonly Resource[];
  claimsOf(): readonly ClaimResource[];
  claimDefinitions(namespace: string, name: string): readonly ClaimResource[];
  volumesNamed(name: string): readonly VolumeResource[];
  classesNamed(name: string): readonly StorageClassResource[];
  sameIdentity(kind: string, namespace: string | undefined, name: string): readonly Resource[];
  volumesClaiming(namespace: string, name: string): readonly VolumeResource[];
  workloadFiles(): ReadonlySet<SourceFile>;

  lookupClaim(namespace: string, name: string): Lookup<ClaimTarget>;
  lookupVolume(name: string): Lookup<VolumeResource>;
  lookupClass(name: string): Lookup<StorageClassResource>;
  lookupCsiDriver(name: string): Lookup<CsiDriverResource>;
  lookupNamespace(name: string): Lookup<Resource>;

  classOfClaim(claim: unknown): ClaimClass;
  classOfVolume(volume: unknown): string;
  effectiveClassOfClaim(claim: unknown): { name: string; defaulted: boolean; defaultClass?: StorageClassResource } | { name: undefined };
  podCount(template: PodTemplate): PodCount;
  driverCapabilities(name: string): DriverInfo | undefined;
}
