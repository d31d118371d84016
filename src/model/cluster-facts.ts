// Facts about the cluster that manifests cannot show (catalogue §1.6), as configuration declares them:
// StorageClasses that exist only in the cluster, the Kubernetes version, mesh defaults (typed by mesh.ts) and driver
// capabilities.
// Declared classes become read-only StorageClass resources that lookups find, located at their config entry.
import { YAMLMap, type Node as YamlNode } from 'yaml';
import { makeSourceFile } from '../load/source-file.js';
import type { Origin, Resource, SourceFile } from '../types.js';
import type { MeshDefaults } from './mesh.js';
import type { Attach, Support, Topology } from './provisioners.js';

/** Where a fact is written: the configuration file and the YAML node of its entry. */
export interface FactSource {
  file: SourceFile;
  node: YamlNode;
}

export interface DeclaredStorageClass {
  name: string;
  provisioner: string;
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  /** The cluster's default class. */
  default?: boolean;
  allowVolumeExpansion?: boolean;
  reclaimPolicy?: 'Delete' | 'Retain';
  parameters?: Record<string, string>;
  declaredAt?: FactSource;
}

/** A driver pvlint does not know, or a correction of its §7 row; fields left out keep the table's values. */
export interface DriverOverride {
  name: string;
  aliases?: readonly string[];
  type?: 'csi' | 'in-tree' | 'external';
  attach?: Attach;
  rwo?: Support;
  rox?: Support;
  rwx?: Support;
  rwop?: Support;
  block?: Support;
  topology?: Topology['kind'];
  topologyKeys?: readonly string[];
  notes?: string;
  declaredAt?: FactSource;
}

export interface ClusterFacts {
  storageClasses?: readonly DeclaredStorageClass[];
  /** `1.30`, `v1.30.2`. */
  kubernetesVersion?: string;
  /** Mesh defaults; the model takes them as `ModelOptions.meshDefaults` (see mesh.ts). */
  mesh?: MeshDefaults;
  drivers?: readonly DriverOverride[];
}

export interface KubernetesVersion {
  major: number;
  minor: number;
  patch?: number;
  text: string;
}

export function parseKubernetesVersion(text: string | undefined): KubernetesVersion | undefined {
  if (text === undefined) return undefined;
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), ...(match[3] !== undefined ? { patch: Number(match[3]) } : {}), text: text.trim() };
}

/** -1, 0 or 1 as `version` is older than, equal to or newer than `major.minor`. */
export function compareVersion(version: KubernetesVersion, major: number, minor: number): number {
  return Math.sign(version.major - major || version.minor - minor);
}

const DEFAULT_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const NO_SOURCE = makeSourceFile('<cluster facts>', '<cluster facts>', '');

/** The config key a StorageClass path corresponds to, so related locations point at the right line. */
/** A StorageClass declared in the configuration: its fields are written in the config entry. */
export interface DeclaredClassSource extends Origin, FactSource {
  kind: 'declared-class';
  name: string;
}

/**
 * A declared class as a StorageClass resource: rules read `object.provisioner`, `object.volumeBindingMode`, the
 * default-class annotation and the name exactly as they would from a manifest. Its locations are the config entry.
 */
export function declaredClassResource(declared: DeclaredStorageClass): Resource {
  const file = declared.declaredAt?.file ?? NO_SOURCE;
  const node = declared.declaredAt?.node ?? new YAMLMap();
  const object: Record<string, unknown> = {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: declared.name, ...(declared.default ? { annotations: { [DEFAULT_ANNOTATION]: 'true' } } : {}) },
    provisioner: declared.provisioner,
    ...(declared.volumeBindingMode !== undefined ? { volumeBindingMode: declared.volumeBindingMode } : {}),
    ...(declared.allowVolumeExpansion !== undefined ? { allowVolumeExpansion: declared.allowVolumeExpansion } : {}),
    ...(declared.reclaimPolicy !== undefined ? { reclaimPolicy: declared.reclaimPolicy } : {}),
    ...(declared.parameters !== undefined ? { parameters: { ...declared.parameters } } : {}),
  };
  const sourceOrigin: DeclaredClassSource = { kind: 'declared-class', file, node, name: declared.name };
  return {
    id: `StorageClass//${declared.name}`,
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    name: declared.name,
    namespace: undefined,
    object: deepFreeze(object),
    file,
    docIndex: 0,
    node,
    sourceOrigin,
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
