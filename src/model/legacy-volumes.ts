// In-tree volume plugins: which StorageClass provisioner names and PersistentVolume sources still work (only through
// CSI migration, with the CSI driver installed) and which were removed without migration (catalogue §4 R12, §1.4;
// Kubernetes docs "Types of Persistent Volumes").
import { IN_TREE_TO_CSI } from './provisioners.js';
import { ownEntry } from '../engine/own-entry.js';

export interface LegacyPlugin {
  /** The in-tree plugin, as the docs name it (`awsElasticBlockStore`, `glusterfs`, …). */
  plugin: string;
  /** `migrated`: served by a CSI driver through CSI migration; `removed`: no longer works at all. */
  status: 'migrated' | 'removed';
  /** For `migrated`: the CSI driver that must be installed. */
  csiDriver?: string;
  /** For `removed`: the Kubernetes version that removed it. */
  removedIn?: string;
}

/** PersistentVolume source keys of in-tree plugins (Kubernetes docs, Persistent Volumes, "Types of Persistent Volumes"). */
const PV_SOURCES: Readonly<Record<string, LegacyPlugin>> = {
  awsElasticBlockStore: { plugin: 'awsElasticBlockStore', status: 'migrated', csiDriver: 'ebs.csi.aws.com' },
  azureDisk: { plugin: 'azureDisk', status: 'migrated', csiDriver: 'disk.csi.azure.com' },
  azureFile: { plugin: 'azureFile', status: 'migrated', csiDriver: 'file.csi.azure.com' },
  cinder: { plugin: 'cinder', status: 'migrated', csiDriver: 'cinder.csi.openstack.org' },
  gcePersistentDisk: { plugin: 'gcePersistentDisk', status: 'migrated', csiDriver: 'pd.csi.storage.gke.io' },
  portworxVolume: { plugin: 'portworxVolume', status: 'migrated', csiDriver: 'pxd.portworx.com' },
  vsphereVolume: { plugin: 'vsphereVolume', status: 'migrated', csiDriver: 'csi.vsphere.vmware.com' },
  cephfs: { plugin: 'cephfs', status: 'removed', removedIn: 'v1.31' },
  rbd: { plugin: 'rbd', status: 'removed', removedIn: 'v1.31' },
  glusterfs: { plugin: 'glusterfs', status: 'removed', removedIn: 'v1.26' },
  flocker: { plugin: 'flocker', status: 'removed', removedIn: 'v1.25' },
  quobyte: { plugin: 'quobyte', status: 'removed', removedIn: 'v1.25' },
  storageos: { plugin: 'storageos', status: 'removed', removedIn: 'v1.25' },
  scaleIO: { plugin: 'scaleIO', status: 'removed', removedIn: 'v1.21' },
  photonPersistentDisk: { plugin: 'photonPersistentDisk', status: 'removed', removedIn: 'v1.15' },
};

/** In-tree StorageClass provisioner names of plugins removed without migration. */
const REMOVED_PROVISIONERS: Readonly<Record<string, LegacyPlugin>> = {
  'kubernetes.io/rbd': PV_SOURCES.rbd,
  'kubernetes.io/glusterfs': PV_SOURCES.glusterfs,
  'kubernetes.io/flocker': PV_SOURCES.flocker,
  'kubernetes.io/quobyte': PV_SOURCES.quobyte,
  'kubernetes.io/storageos': PV_SOURCES.storageos,
  'kubernetes.io/scaleio': PV_SOURCES.scaleIO,
  'kubernetes.io/photon-pd': PV_SOURCES.photonPersistentDisk,
};

/** What a StorageClass `provisioner` that names an in-tree plugin has become; undefined for any other name. */
export function legacyProvisioner(name: string): LegacyPlugin | undefined {
  const trimmed = name.trim();
  const csiDriver = ownEntry(IN_TREE_TO_CSI, trimmed);
  if (csiDriver) return { plugin: trimmed, status: 'migrated', csiDriver };
  return ownEntry(REMOVED_PROVISIONERS, trimmed);
}

/** The in-tree source a PersistentVolume spec is written with, when it is a legacy one. */
export function legacyVolumeSource(pvSpec: unknown): { key: string; plugin: LegacyPlugin } | undefined {
  if (!pvSpec || typeof pvSpec !== 'object') return undefined;
  for (const [key, plugin] of Object.entries(PV_SOURCES)) {
    const value = (pvSpec as Record<string, unknown>)[key];
    if (value && typeof value === 'object') return { key, plugin };
  }
  return undefined;
}

/** Every PersistentVolume source key (`csi` and the in-tree ones). */
const ALL_PV_SOURCES = [
  'csi', 'nfs', 'hostPath', 'local', 'iscsi', 'fc', 'flexVolume', ...Object.keys(PV_SOURCES),
];

/** The volume source key a PersistentVolume spec uses (`csi`, `nfs`, `iscsi`, …), when it has one. */
export function volumeSourceKey(pvSpec: unknown): string | undefined {
  if (!pvSpec || typeof pvSpec !== 'object') return undefined;
  return ALL_PV_SOURCES.find((key) => {
    const value = (pvSpec as Record<string, unknown>)[key];
    return value && typeof value === 'object';
  });
}
