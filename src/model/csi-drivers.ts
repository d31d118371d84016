// CSIDriver objects as the drivers ship them (attachRequired, fsGroupPolicy, volumeLifecycleModes), the effective
// CSIDriver spec of a driver (the object in the bundle wins), and which drivers serve a network file system.
// Read by R28, R30, R35, R36.
import type { Resource, RuleReference } from '../types.js';
import type { ClaimStorage } from './claims.js';
import { normaliseProvisioner } from './provisioners.js';
import type { ModelView } from './model-view.js';
import { ownEntry } from '../engine/own-entry.js';

export type FsGroupPolicy = 'File' | 'None' | 'ReadWriteOnceWithFSType';
export type LifecycleMode = 'Persistent' | 'Ephemeral';

/** What a driver's own CSIDriver manifest declares. `fsGroupPolicy` is undefined where the manifest read did not say. */
export interface ShippedCsiDriver {
  name: string;
  attachRequired: boolean;
  fsGroupPolicy?: FsGroupPolicy;
  volumeLifecycleModes: readonly LifecycleMode[];
  source: RuleReference;
}

const gh = (repo: string, ref: string, path: string) => `https://github.com/${repo}/blob/${ref}/${path}`;

const SHIPPED: readonly ShippedCsiDriver[] = [
  {
    name: 'ebs.csi.aws.com', attachRequired: true, fsGroupPolicy: 'File', volumeLifecycleModes: ['Persistent'],
    source: { title: 'aws-ebs-csi-driver deploy/kubernetes/base/csidriver.yaml', url: gh('kubernetes-sigs/aws-ebs-csi-driver', '429e202', 'deploy/kubernetes/base/csidriver.yaml') },
  },
  {
    name: 'efs.csi.aws.com', attachRequired: false, fsGroupPolicy: 'ReadWriteOnceWithFSType', volumeLifecycleModes: ['Persistent'],
    source: { title: 'aws-efs-csi-driver deploy/kubernetes/base/csidriver.yaml', url: gh('kubernetes-sigs/aws-efs-csi-driver', 'a4fc676', 'deploy/kubernetes/base/csidriver.yaml') },
  },
  {
    name: 'disk.csi.azure.com', attachRequired: true, fsGroupPolicy: 'File', volumeLifecycleModes: ['Persistent'],
    source: { title: 'azuredisk-csi-driver deploy/v1.34.3/csi-azuredisk-driver.yaml', url: gh('kubernetes-sigs/azuredisk-csi-driver', 'd983d613', 'deploy/v1.34.3/csi-azuredisk-driver.yaml') },
  },
  {
    name: 'file.csi.azure.com', attachRequired: false, fsGroupPolicy: 'File', volumeLifecycleModes: ['Persistent', 'Ephemeral'],
    source: { title: 'azurefile-csi-driver deploy/csi-azurefile-driver.yaml', url: gh('kubernetes-sigs/azurefile-csi-driver', '0a9c0c27', 'deploy/csi-azurefile-driver.yaml') },
  },
  {
    name: 'nfs.csi.k8s.io', attachRequired: false, volumeLifecycleModes: ['Persistent', 'Ephemeral'],
    source: { title: 'csi-driver-nfs deploy/csi-nfs-driverinfo.yaml', url: gh('kubernetes-csi/csi-driver-nfs', '3cacbb23', 'deploy/csi-nfs-driverinfo.yaml') },
  },
  {
    name: 'rbd.csi.ceph.com', attachRequired: true, fsGroupPolicy: 'File', volumeLifecycleModes: ['Persistent'],
    source: { title: 'ceph-csi deploy/rbd/kubernetes/csidriver.yaml', url: gh('ceph/ceph-csi', '21289c89', 'deploy/rbd/kubernetes/csidriver.yaml') },
  },
  {
    name: 'secrets-store.csi.k8s.io', attachRequired: false, volumeLifecycleModes: ['Ephemeral'],
    source: { title: 'secrets-store-csi-driver deploy/csidriver.yaml', url: gh('kubernetes-sigs/secrets-store-csi-driver', '299d0255', 'deploy/csidriver.yaml') },
  },
  {
    name: 'csi.cert-manager.io', attachRequired: true, volumeLifecycleModes: ['Ephemeral'],
    source: { title: 'cert-manager csi-driver chart templates/csidriver.yaml', url: gh('cert-manager/csi-driver', '11ca6959', 'deploy/charts/csi-driver/templates/csidriver.yaml') },
  },
];

const SHIPPED_BY_NAME = new Map(SHIPPED.map((row) => [row.name, row]));

export function shippedCsiDriver(name: string): ShippedCsiDriver | undefined {
  return SHIPPED_BY_NAME.get(normaliseProvisioner(name));
}

export function allShippedCsiDrivers(): readonly ShippedCsiDriver[] {
  return SHIPPED;
}

export const CSIDRIVER_API: RuleReference = {
  title: 'Kubernetes API: CSIDriver (attachRequired, fsGroupPolicy, volumeLifecycleModes)',
  url: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/csi-driver-v1/',
};

/** The CSIDriver spec that applies to a driver: the object in the bundle, else the manifest the driver ships, else unknown. */
export interface EffectiveCsiDriver {
  from: 'bundle' | 'shipped';
  object?: Resource;
  shipped?: ShippedCsiDriver;
  attachRequired: boolean;
  /** `ReadWriteOnceWithFSType` when the object sets none (the API default); undefined when unknown. */
  fsGroupPolicy: FsGroupPolicy | undefined;
  volumeLifecycleModes: readonly LifecycleMode[];
}

export function effectiveCsiDriver(model: ModelView, name: string): EffectiveCsiDriver | undefined {
  for (const candidate of new Set([name, normaliseProvisioner(name)])) {
    const lookup = model.lookupCsiDriver(candidate);
    if (lookup.status !== 'found') continue;
    const spec = lookup.value.object?.spec ?? {};
    const modes = Array.isArray(spec.volumeLifecycleModes) && spec.volumeLifecycleModes.length > 0
      ? spec.volumeLifecycleModes.map(String) as LifecycleMode[]
      : ['Persistent' as const];
    const policy = spec.fsGroupPolicy == null ? 'ReadWriteOnceWithFSType' : String(spec.fsGroupPolicy);
    return {
      from: 'bundle', object: lookup.value, attachRequired: spec.attachRequired !== false,
      fsGroupPolicy: (['File', 'None', 'ReadWriteOnceWithFSType'].includes(policy) ? policy : undefined) as FsGroupPolicy | undefined,
      volumeLifecycleModes: modes,
    };
  }
  const shipped = shippedCsiDriver(name);
  if (!shipped) return undefined;
  return { from: 'shipped', shipped, attachRequired: shipped.attachRequired, fsGroupPolicy: shipped.fsGroupPolicy, volumeLifecycleModes: shipped.volumeLifecycleModes };
}

/** Network file systems by driver / provisioner name (after §1.4 normalisation). */
const NETWORK_FS: Readonly<Record<string, string>> = {
  'efs.csi.aws.com': 'Amazon EFS (NFS)',
  'nfs.csi.k8s.io': 'NFS',
  'kubernetes.io/nfs': 'NFS',
  'filestore.csi.storage.gke.io': 'Filestore (NFS)',
  'file.csi.azure.com': 'Azure Files (SMB/NFS)',
  'cephfs.csi.ceph.com': 'CephFS',
  'smb.csi.k8s.io': 'SMB',
  'kubernetes.io/glusterfs': 'GlusterFS',
};

/** In-tree PV sources that are network file systems. */
const NETWORK_PV_SOURCES: Readonly<Record<string, string>> = { nfs: 'NFS', cephfs: 'CephFS', glusterfs: 'GlusterFS', azureFile: 'Azure Files (SMB)' };

export interface NetworkFs {
  /** What it is, for messages (`NFS`, `Amazon EFS (NFS)`, `Longhorn ReadWriteMany share (NFS)`). */
  name: string;
  /** `mountOptions` that apply to the volume (bound PV first, else the StorageClass), with their owner. */
  mountOptions: { owner: Resource; options: string[] } | undefined;
}

function mountOptionsOf(resource: Resource | undefined): { owner: Resource; options: string[] } | undefined {
  const options = resource?.object?.mountOptions ?? resource?.object?.spec?.mountOptions;
  return resource && Array.isArray(options) ? { owner: resource, options: options.map(String) } : undefined;
}

/** The network file system a driver / provisioner name stands for (§1.4 normalised); Longhorn and Portworx need more. */
function networkFsOfDriver(name: string, accessModes: readonly string[], storageClass: Resource | undefined): string | undefined {
  const driver = normaliseProvisioner(name);
  const known = ownEntry(NETWORK_FS, driver);
  if (known) return known;
  if (driver === 'driver.longhorn.io' && accessModes.includes('ReadWriteMany')) return 'Longhorn ReadWriteMany share (NFS)';
  if (driver === 'pxd.portworx.com' && String(storageClass?.object?.parameters?.sharedv4 ?? '') === 'true') return 'Portworx sharedv4 volume (NFS)';
  return undefined;
}

/** A PersistentVolume that is a network file system: an in-tree nfs/cephfs/glusterfs/azureFile source or a network CSI driver. */
export function networkFileSystemOfVolume(pv: Resource): NetworkFs | undefined {
  const spec = pv.object?.spec ?? {};
  const options = mountOptionsOf(pv);
  for (const [source, name] of Object.entries(NETWORK_PV_SOURCES)) {
    if (spec[source] && typeof spec[source] === 'object') return { name, mountOptions: options };
  }
  const driver = spec.csi?.driver;
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes.map(String) : [];
  const name = typeof driver === 'string' ? networkFsOfDriver(driver, modes, undefined) : undefined;
  return name ? { name, mountOptions: options } : undefined;
}

/** A StorageClass whose provisioner serves a network file system. */
export function networkFileSystemOfClass(storageClass: Resource): NetworkFs | undefined {
  const provisioner = storageClass.object?.provisioner;
  const name = typeof provisioner === 'string' ? networkFsOfDriver(provisioner, [], storageClass) : undefined;
  return name ? { name, mountOptions: mountOptionsOf(storageClass) } : undefined;
}

/**
 * Whether a claim's volume is a network file system (NFS family, SMB, CephFS): by the driver of its bound PV or
 * StorageClass (§7), Longhorn ReadWriteMany volumes (served over NFS by the share manager) and Portworx `sharedv4`.
 */
export function networkFileSystem(storage: ClaimStorage): NetworkFs | undefined {
  const pv = storage.bound?.pv;
  const storageClass = storage.driver.source.via === 'class' ? storage.driver.source.storageClass : undefined;
  const options = mountOptionsOf(pv) ?? mountOptionsOf(storageClass);
  if (pv) {
    const spec = pv.object?.spec as Record<string, unknown> | undefined;
    for (const [source, name] of Object.entries(NETWORK_PV_SOURCES)) {
      if (spec?.[source] && typeof spec[source] === 'object') return { name, mountOptions: options };
    }
  }
  if (storage.driver.name === undefined) return undefined;
  const name = networkFsOfDriver(storage.driver.name, storage.accessModes, storageClass);
  return name ? { name, mountOptions: options } : undefined;
}

/** `soft` among mount options (also inside comma-joined entries such as `nfsvers=4.1,soft`). */
export function softMountOption(options: readonly string[]): { index: number; text: string } | undefined {
  for (let index = 0; index < options.length; index++) {
    if (options[index].split(',').map((o) => o.trim()).includes('soft')) return { index, text: options[index] };
  }
  return undefined;
}
