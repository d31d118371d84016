// What each storage provisioner / CSI driver can do: the provisioner capability table of the research catalogue (§7),
// the in-tree → CSI name normalisation (§1.4) and the in-tree PV volume sources. Rules read it only through
// the model's `driverCapabilities(name)` (and `inTreeSourceProvisioner` for PVs written with in-tree sources), which
// lays the configuration's driver overrides (`cluster.drivers`) of that model over the table.
import type { RuleReference } from '../types.js';
import { ownEntry } from '../engine/own-entry.js';

/**
 * Whether a driver supports an access mode or volume mode, as §7 states it:
 * `block-only` = only together with `volumeMode: Block` (a shared raw device, app-level fencing);
 * `conditional` = only with a class parameter or setup described in `condition`;
 * `unknown` = the catalogue states nothing (a dash in §7).
 */
export type Support = 'yes' | 'no' | 'block-only' | 'conditional' | 'unknown';

export interface ModeSupport {
  support: Support;
  /** The condition or caveat, in Kubernetes terms (`maxShares ≥ 2`, `sharedv4: "true"`, "not node-enforced"). */
  condition?: string;
  /**
   * For `block-only` / `conditional` support: what else provisioning needs. `parameters` lists StorageClass parameter
   * settings of which one must hold; without `parameters` the requirement cannot be read from YAML (a volume type's
   * property, the provisioner's own configuration).
   */
  requires?: ModeRequirement;
  /** A caveat worth a note although the mode is supported. */
  advisory?: string;
}

export interface ModeRequirement {
  /** What is needed, in Kubernetes terms. */
  text: string;
  parameters?: readonly ParameterSetting[];
}

/** A StorageClass parameter setting; keys compare case-insensitively (the EBS and Azure drivers lowercase them). */
export interface ParameterSetting {
  key: string;
  /** Accepted values (case-insensitive). */
  values?: readonly string[];
  /** The value must be an integer at least this large. */
  atLeast?: number;
  /** The driver's value when the parameter is absent. */
  default?: string;
}

/**
 * Topology the driver puts on its PVs (`accessible_topology` → PV `spec.nodeAffinity`):
 * `none` = usable from any node; `zonal` / `regional` = pods can only run in that zone / region;
 * `node` = the volume lives on one node, every pod using it runs there;
 * `optional` = only when topology is configured; `placement` = a placement hint, access is not restricted.
 */
export interface Topology {
  kind: 'none' | 'zonal' | 'regional' | 'node' | 'optional' | 'placement';
  /** Node label keys the PV's nodeAffinity uses. */
  keys: readonly string[];
  note?: string;
}

/**
 * CSIDriver `attachRequired` (§7 column "attach"): `required` = the attach/detach controller attaches the volume to
 * one node and refuses a second attachment of a RWO/RWOP volume (Multi-Attach); `not-required` = no attach step,
 * so nothing enforces RWO across nodes; `configurable` = depends on how the driver was installed;
 * `not-applicable` = not a CSI driver (in-tree plugin or non-CSI external provisioner).
 */
export type Attach = 'required' | 'not-required' | 'configurable' | 'not-applicable';

export interface DriverCapabilities {
  /** The provisioner / CSI driver name as written in `StorageClass.provisioner` or `PV.spec.csi.driver`. */
  name: string;
  /** Other names for the same row (e.g. the in-tree plugin name of the `local` PV source). */
  aliases: readonly string[];
  /** `csi` driver, `in-tree` volume plugin (removed ones keep working only through CSI migration), or a non-CSI `external` provisioner. */
  type: 'csi' | 'in-tree' | 'external';
  rwo: ModeSupport;
  rox: ModeSupport;
  rwx: ModeSupport;
  rwop: ModeSupport;
  block: ModeSupport;
  topology: Topology;
  attach: Attach;
  /** In-tree plugins removed from Kubernetes: the version and the CSI driver they migrate to. */
  removedIn?: string;
  migratedTo?: string;
  notes: string;
  /**
   * Static PersistentVolumes of this driver whose `spec.csi.volumeHandle` starts with `handlePrefix` are not what the
   * access-mode and volume-mode columns describe (e.g. EBS node-local volumes `local-ebs://…`, one device per node,
   * documented with ReadWriteMany); mode checks skip them.
   */
  staticHandleExceptions?: readonly { handlePrefix: string; note: string; source: RuleReference }[];
  /** Citation keys of the research catalogue (§9). */
  refs: readonly string[];
  /** The same sources as links. */
  sources: readonly RuleReference[];
  /** Catalogue confidence: H = read in source/official docs, M = docs/issues, partly inferred. */
  confidence: 'H' | 'M' | 'H/M';
  /** False for the few rows that are not in §7 of the catalogue (in-tree sources pvlint needs for PVs). */
  catalogue: boolean;
  /** Set when the configuration (`cluster.drivers`) added or changed this row. */
  declared?: true;
}

const yes = (condition?: string): ModeSupport => (condition ? { support: 'yes', condition } : { support: 'yes' });
const no = (condition?: string): ModeSupport => (condition ? { support: 'no', condition } : { support: 'no' });
const blockOnly = (condition?: string): ModeSupport => (condition ? { support: 'block-only', condition } : { support: 'block-only' });
const conditional = (condition: string): ModeSupport => ({ support: 'conditional', condition });
const unknown = (condition?: string): ModeSupport => (condition ? { support: 'unknown', condition } : { support: 'unknown' });

const gh = (repo: string, ref: string, path: string) => `https://github.com/${repo}/blob/${ref}/${path}`;

/** §9 citation keys used by the table, as links. */
const SOURCES: Record<string, RuleReference> = {
  'EBS-CTRL': { title: 'aws-ebs-csi-driver pkg/driver/controller.go (isValidCapability)', url: gh('kubernetes-sigs/aws-ebs-csi-driver', '429e202', 'pkg/driver/controller.go') },
  'EBS-MA': { title: 'aws-ebs-csi-driver docs/multi-attach.md', url: gh('kubernetes-sigs/aws-ebs-csi-driver', 'HEAD', 'docs/multi-attach.md') },
  'EBS-PARAMS': { title: 'aws-ebs-csi-driver docs/parameters.md', url: gh('kubernetes-sigs/aws-ebs-csi-driver', 'HEAD', 'docs/parameters.md') },
  'EBS-OPTS': { title: 'aws-ebs-csi-driver docs/options.md', url: gh('kubernetes-sigs/aws-ebs-csi-driver', 'HEAD', 'docs/options.md') },
  'EFS-NODE': { title: 'aws-efs-csi-driver pkg/driver/node.go (parseVolumeId, volumeCapAccessModes)', url: gh('kubernetes-sigs/aws-efs-csi-driver', 'a4fc676', 'pkg/driver/node.go') },
  'EFS-PARAMS': { title: 'aws-efs-csi-driver docs/parameters.md', url: gh('kubernetes-sigs/aws-efs-csi-driver', 'HEAD', 'docs/parameters.md') },
  'EFS-CSIDRIVER': { title: 'aws-efs-csi-driver chart csidriver.yaml (attachRequired: false)', url: gh('kubernetes-sigs/aws-efs-csi-driver', 'HEAD', 'charts/aws-efs-csi-driver/templates/csidriver.yaml') },
  FSX: { title: 'aws-fsx-csi-driver pkg/driver/controller.go (volumeCaps)', url: gh('kubernetes-sigs/aws-fsx-csi-driver', '5b22712', 'pkg/driver/controller.go') },
  PD: { title: 'gcp-compute-persistent-disk-csi-driver pkg/gce-pd-csi-driver/utils.go', url: gh('kubernetes-sigs/gcp-compute-persistent-disk-csi-driver', 'b560165', 'pkg/gce-pd-csi-driver/utils.go') },
  'GKE-ROX': { title: 'GKE: Using persistent disks with multiple readers (ReadOnlyMany)', url: 'https://cloud.google.com/kubernetes-engine/docs/how-to/persistent-volumes/readonlymany-disks' },
  FILESTORE: { title: 'gcp-filestore-csi-driver pkg/csi_driver/gcfs_driver.go', url: gh('kubernetes-sigs/gcp-filestore-csi-driver', '2edb466', 'pkg/csi_driver/gcfs_driver.go') },
  AZDISK: { title: 'azuredisk-csi-driver pkg/azureutils/azure_disk_utils.go', url: gh('kubernetes-sigs/azuredisk-csi-driver', 'd983d613', 'pkg/azureutils/azure_disk_utils.go') },
  AZFILE: { title: 'azurefile-csi-driver pkg/azurefile/azurefile.go', url: gh('kubernetes-sigs/azurefile-csi-driver', '7b5ae18', 'pkg/azurefile/azurefile.go') },
  'CINDER-FEAT': { title: 'cloud-provider-openstack docs/cinder-csi-plugin/features.md', url: gh('kubernetes/cloud-provider-openstack', 'HEAD', 'docs/cinder-csi-plugin/features.md') },
  'CEPH-RBD': { title: 'ceph-csi internal/rbd/driver/driver.go', url: gh('ceph/ceph-csi', '52fcb7b', 'internal/rbd/driver/driver.go') },
  'CEPH-CEPHFS': { title: 'ceph-csi internal/cephfs/driver.go', url: gh('ceph/ceph-csi', '52fcb7b', 'internal/cephfs/driver.go') },
  LONGHORN: { title: 'longhorn-manager csi/controller_server.go (advertised access modes)', url: gh('longhorn/longhorn-manager', '5ddaa36', 'csi/controller_server.go') },
  'NFS-CSI': { title: 'csi-driver-nfs pkg/nfs/controllerserver.go (isValidVolumeCapabilities)', url: gh('kubernetes-csi/csi-driver-nfs', 'd3b27c0', 'pkg/nfs/controllerserver.go') },
  'NFS-CSI-CSIDRIVER': { title: 'csi-driver-nfs chart csi-nfs-driverinfo.yaml', url: gh('kubernetes-csi/csi-driver-nfs', 'HEAD', 'charts/latest/csi-driver-nfs/templates/csi-nfs-driverinfo.yaml') },
  'LOCALPATH-README': { title: 'local-path-provisioner README.md', url: gh('rancher/local-path-provisioner', '9fa2a62', 'README.md') },
  LOCALPATH: { title: 'local-path-provisioner provisioner.go', url: gh('rancher/local-path-provisioner', '9fa2a62', 'provisioner.go') },
  'OPENEBS-HP': { title: 'OpenEBS docs: Local PV Hostpath', url: 'https://openebs.io/docs/user-guides/local-storage-user-guide/local-pv-hostpath/hostpath-installation' },
  'K-VALID': { title: 'kubernetes pkg/apis/core/validation/validation.go', url: gh('kubernetes/kubernetes', 'master', 'pkg/apis/core/validation/validation.go') },
  'K-SCDOC-LOCAL': { title: 'Kubernetes docs: Storage Classes, "Local"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#local' },
  'K-VOLDOC': { title: 'Kubernetes docs: Volumes (in-tree types, CSI migration)', url: 'https://kubernetes.io/docs/concepts/storage/volumes/' },
  VSPHERE: { title: 'vsphere-csi-driver pkg/csi/service/common/types.go', url: gh('kubernetes-sigs/vsphere-csi-driver', 'bf80902', 'pkg/csi/service/common/types.go') },
  PORTWORX: { title: 'Portworx docs: Dynamic Provisioning of PVCs (sharedv4)', url: 'https://docs.portworx.com/scheduler/kubernetes/dynamic-provisioning.html' },
  'HCLOUD-DRV': { title: 'hetznercloud/csi-driver internal/driver/driver.go', url: gh('hetznercloud/csi-driver', '53ead0b', 'internal/driver/driver.go') },
  'DO-DRV': { title: 'digitalocean/csi-digitalocean driver/controller.go', url: gh('digitalocean/csi-digitalocean', '0711283', 'driver/controller.go') },
  'FABRIC8-7066': { title: 'fabric8io/fabric8 issue #7066 (in-tree GCE PD ReadWriteMany error)', url: 'https://github.com/fabric8io/fabric8/issues/7066' },
  'K-RWOP-GA': { title: 'Kubernetes 1.29: Single Pod Access Mode for PersistentVolumes Graduates to Stable', url: 'https://kubernetes.io/blog/2023/12/18/read-write-once-pod-access-mode-ga/' },
};

function sources(...keys: string[]): RuleReference[] {
  return keys.map((key) => {
    const source = ownEntry(SOURCES, key);
    if (!source) throw new Error(`provisioners.ts: unknown source ${key}`);
    return source;
  });
}

type Row = Omit<DriverCapabilities, 'aliases' | 'catalogue' | 'sources'> & { aliases?: string[]; catalogue?: boolean; sourceKeys: string[] };

const RWOP_CSI = yes();
const RWOP_IN_TREE = no('in-tree / non-CSI volume sources never support ReadWriteOncePod');

const ROWS: Row[] = [
  {
    name: 'ebs.csi.aws.com', type: 'csi',
    rwo: yes(), rox: no(),
    rwx: {
      ...blockOnly('io1/io2 multi-attach (io2 documented)'),
      requires: { text: 'an io2 (or io1) volume type: `type: io2`', parameters: [{ key: 'type', values: ['io2', 'io1'], default: 'gp3' }] },
    },
    rwop: RWOP_CSI, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.ebs.csi.aws.com/zone', 'topology.kubernetes.io/zone'] },
    attach: 'required',
    notes: 'default `type: gp3`; ReadWriteMany with Filesystem is rejected by isValidCapability; per-instance attach limit (R34)',
    staticHandleExceptions: [{
      handlePrefix: 'local-ebs://',
      note: 'node-local volumes: each node mounts its own pre-attached EBS device; documented with ReadWriteMany (driver option enableNodeLocalVolumes)',
      source: { title: 'aws-ebs-csi-driver docs/node-local-volumes.md', url: gh('kubernetes-sigs/aws-ebs-csi-driver', 'HEAD', 'docs/node-local-volumes.md') },
    }],
    refs: ['EBS-CTRL', 'EBS-MA', 'EBS-PARAMS', 'EBS-OPTS'], sourceKeys: ['EBS-CTRL', 'EBS-MA', 'EBS-PARAMS', 'EBS-OPTS'], confidence: 'H',
  },
  {
    name: 'efs.csi.aws.com', type: 'csi',
    rwo: yes('not node-enforced'), rox: no('"invalid access mode"'), rwx: yes(), rwop: RWOP_CSI, block: no('"only filesystem volumes are supported"'),
    topology: { kind: 'none', keys: [], note: 'regional; One Zone file systems only via `enforceZoneAffinity`' },
    attach: 'not-required',
    notes: 'static volumeHandle grammar `[efs:]fs-id[:subpath[:fsap-id]]`; dynamic provisioning = access points (`provisioningMode: efs-ap`)',
    refs: ['EFS-NODE', 'EFS-PARAMS', 'EFS-CSIDRIVER'], sourceKeys: ['EFS-NODE', 'EFS-PARAMS', 'EFS-CSIDRIVER'], confidence: 'H',
  },
  {
    name: 'fsx.csi.aws.com', type: 'csi',
    rwo: yes(), rox: no('not in volumeCaps'), rwx: yes(), rwop: yes('mapped to SINGLE_NODE_WRITER'), block: no('file system'),
    topology: { kind: 'none', keys: [], note: 'no accessible_topology; the file system lives in the AZ of `subnetId` (cross-AZ traffic)' },
    attach: 'not-required',
    notes: 'FSx for Lustre; advertised modes SINGLE_NODE_WRITER, MULTI_NODE_MULTI_WRITER',
    refs: ['FSX'], sourceKeys: ['FSX'], confidence: 'M',
  },
  {
    name: 'pd.csi.storage.gke.io', type: 'csi',
    rwo: yes(), rox: yes('must be mounted readOnly; from a pre-populated disk or snapshot'), rwx: blockOnly('"specified multi writer with mount access type"'),
    rwop: RWOP_CSI, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.gke.io/zone'], note: 'regional PD: 2 zones' },
    attach: 'required',
    notes: 'ReadOnlyMany from a pre-populated disk/snapshot',
    refs: ['PD', 'GKE-ROX'], sourceKeys: ['PD', 'GKE-ROX'], confidence: 'H',
  },
  {
    name: 'filestore.csi.storage.gke.io', type: 'csi',
    rwo: yes(), rox: yes(), rwx: yes(), rwop: RWOP_CSI, block: no('NFS'),
    topology: { kind: 'placement', keys: ['topology.gke.io/zone'], note: 'used to choose the instance location; access is not zone-restricted' },
    attach: 'not-required',
    notes: 'minimum size is tier-dependent (e.g. 1 TiB standard)',
    refs: ['FILESTORE'], sourceKeys: ['FILESTORE'], confidence: 'M',
  },
  {
    name: 'disk.csi.azure.com', type: 'csi',
    rwo: yes(),
    rox: { ...blockOnly('and `maxShares ≥ 2`'), requires: { text: 'a shared disk: `maxShares` of 2 or more', parameters: [{ key: 'maxShares', atLeast: 2, default: '1' }] } },
    rwx: {
      ...blockOnly('and `maxShares ≥ 2` ("mountVolume is not supported for access mode", "not supported for non-shared disk")'),
      requires: { text: 'a shared disk: `maxShares` of 2 or more', parameters: [{ key: 'maxShares', atLeast: 2, default: '1' }] },
    },
    rwop: RWOP_CSI, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.disk.csi.azure.com/zone'], note: 'LRS SKUs are zonal; ZRS SKUs span zones' },
    attach: 'required',
    notes: 'per-VM-size attach limit',
    refs: ['AZDISK'], sourceKeys: ['AZDISK'], confidence: 'H',
  },
  {
    name: 'file.csi.azure.com', type: 'csi',
    rwo: yes(), rox: yes(), rwx: yes(), rwop: RWOP_CSI, block: no('SMB/NFS'),
    topology: { kind: 'none', keys: [] },
    attach: 'configurable',
    notes: 'attachRequired is configurable (chart default false); NFS protocol via the `protocol: nfs` parameter',
    refs: ['AZFILE'], sourceKeys: ['AZFILE'], confidence: 'M',
  },
  {
    name: 'cinder.csi.openstack.org', type: 'csi',
    rwo: yes(),
    rox: { ...blockOnly('multiattach volume type'), requires: { text: 'a Cinder volume type with multiattach enabled (not visible in the StorageClass)' } },
    rwx: { ...blockOnly('multiattach volume type'), requires: { text: 'a Cinder volume type with multiattach enabled (not visible in the StorageClass)' } },
    rwop: RWOP_CSI, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.cinder.csi.openstack.org/zone'], note: 'unless `ignore-volume-az`' },
    attach: 'required',
    notes: 'ReadWriteMany with Filesystem on a multiattach type would need a cluster file system: treat as unsupported',
    refs: ['CINDER-FEAT'], sourceKeys: ['CINDER-FEAT'], confidence: 'M',
  },
  {
    name: 'rbd.csi.ceph.com', type: 'csi',
    rwo: yes(), rox: no('not advertised'), rwx: blockOnly('"multi node access modes are only supported on rbd `block` type volumes"'), rwop: RWOP_CSI, block: yes(),
    topology: { kind: 'optional', keys: [], note: 'domain labels, not by default' },
    attach: 'required',
    notes: '',
    refs: ['CEPH'], sourceKeys: ['CEPH-RBD'], confidence: 'H',
  },
  {
    name: 'cephfs.csi.ceph.com', type: 'csi',
    rwo: yes(), rox: yes(), rwx: yes(), rwop: RWOP_CSI, block: no('ValidateVolumeCapabilities refuses Block'),
    topology: { kind: 'none', keys: [] },
    attach: 'not-required',
    notes: '',
    refs: ['CEPH'], sourceKeys: ['CEPH-CEPHFS'], confidence: 'H/M',
  },
  {
    name: 'driver.longhorn.io', type: 'csi',
    rwo: yes(), rox: no('not advertised; "access mode … is not supported"'),
    rwx: yes('share-manager NFS; Block only for `migratable: "true"` live migration'), rwop: RWOP_CSI, block: yes(),
    topology: { kind: 'none', keys: [], note: 'replicas on any nodes; data locality optional' },
    attach: 'required',
    notes: 'ReadWriteMany needs an NFSv4 client on the nodes',
    refs: ['LONGHORN'], sourceKeys: ['LONGHORN'], confidence: 'H/M',
  },
  {
    name: 'nfs.csi.k8s.io', type: 'csi',
    rwo: yes('not node-enforced'), rox: yes(), rwx: yes(), rwop: RWOP_CSI, block: no('"block volume capability not supported"'),
    topology: { kind: 'none', keys: [] },
    attach: 'not-required',
    notes: 'node plugin DaemonSet is `hostNetwork: true`; fsGroupPolicy `File`',
    refs: ['NFS-CSI', 'NFS-CSI-DS', 'NFS-CSI-CSIDRIVER'], sourceKeys: ['NFS-CSI', 'NFS-CSI-CSIDRIVER'], confidence: 'H',
  },
  {
    name: 'rancher.io/local-path', type: 'external',
    rwo: yes(),
    rox: { ...conditional('only with `sharedFileSystemPath`'), requires: { text: '`sharedFileSystemPath` in the provisioner\'s config.json (a ConfigMap, not the StorageClass)' } },
    rwx: {
      ...conditional('only with `sharedFileSystemPath` ("NodePath only supports ReadWriteOnce and ReadWriteOncePod (1.22+) access modes")'),
      requires: { text: '`sharedFileSystemPath` in the provisioner\'s config.json (a ConfigMap, not the StorageClass)' },
    },
    rwop: {
      ...yes('NodePath; the README lists RWOP but upstream documents RWOP as CSI-only, kubelet-side enforcement unverified'),
      advisory: 'the provisioner is not CSI: Kubernetes documents ReadWriteOncePod as CSI-only, so whether kubelet enforces it for these volumes is unverified',
    },
    block: no(),
    topology: { kind: 'node', keys: ['kubernetes.io/hostname'], note: 'PV nodeAffinity on kubernetes.io/hostname or the configured `nodeAffinityKey`; ship the class as WaitForFirstConsumer' },
    attach: 'not-applicable',
    notes: 'not CSI; R14 reports RWOP as `info` for this provisioner',
    refs: ['LOCALPATH-README', 'LOCALPATH'], sourceKeys: ['LOCALPATH-README', 'LOCALPATH'], confidence: 'H',
  },
  {
    name: 'openebs.io/local', type: 'external',
    rwo: yes(), rox: no(), rwx: no(), rwop: yes('CSI engines'), block: conditional('device: yes; hostpath: no'),
    topology: { kind: 'node', keys: ['kubernetes.io/hostname'], note: '"must be WaitForFirstConsumer"' },
    attach: 'not-applicable',
    notes: 'LocalPV hostpath/device; other engines: `local.csi.openebs.io` (LVM), `zfs.csi.openebs.io` (node-local, RWO), `io.openebs.csi-mayastor` (replicated, RWO)',
    refs: ['OPENEBS-HP'], sourceKeys: ['OPENEBS-HP'], confidence: 'M',
  },
  {
    name: 'kubernetes.io/no-provisioner', type: 'in-tree',
    // `kubernetes.io/local-volume` is the in-tree plugin of the `local` PV source these classes are used with.
    aliases: ['kubernetes.io/local-volume'],
    rwo: yes(), rox: yes('the API allows it; node-local'), rwx: yes('the API allows it; meaningless across nodes'),
    rwop: no('documented as CSI-only (R14 warn)'), block: yes(),
    topology: { kind: 'node', keys: ['kubernetes.io/hostname'], note: '`spec.nodeAffinity` required ("Local volume requires node affinity")' },
    attach: 'not-applicable',
    notes: 'no dynamic provisioning: the PVC stays Pending until a matching static PV exists; use WaitForFirstConsumer',
    refs: ['K-VALID', 'K-SCDOC "Local"', 'K-VOLDOC "local"'], sourceKeys: ['K-VALID', 'K-SCDOC-LOCAL', 'K-VOLDOC'], confidence: 'H',
  },
  {
    name: 'csi.vsphere.vmware.com', type: 'csi',
    rwo: yes('block volumes'), rox: conditional('file volumes only (vSAN File Services)'), rwx: conditional('file volumes, or shared raw block (Block only)'),
    rwop: RWOP_CSI, block: yes('block volumes, ReadWriteOnce'),
    topology: { kind: 'optional', keys: ['topology.csi.vmware.com/k8s-zone', 'topology.csi.vmware.com/k8s-region'], note: 'when topology is configured' },
    attach: 'required',
    notes: 'attach required for block volumes; block volumes accept only SINGLE_NODE_WRITER',
    refs: ['VSPHERE'], sourceKeys: ['VSPHERE'], confidence: 'H/M',
  },
  {
    name: 'pxd.portworx.com', type: 'csi',
    aliases: ['kubernetes.io/portworx-volume'],
    rwo: yes(),
    rox: { ...conditional('`sharedv4: "true"` (with readOnly mounts)'), requires: { text: '`sharedv4: "true"`', parameters: [{ key: 'sharedv4', values: ['true'] }] } },
    rwx: {
      ...conditional('`sharedv4: "true"` (NFS-based) or `shared: "true"`'),
      requires: { text: '`sharedv4: "true"` or `shared: "true"`', parameters: [{ key: 'sharedv4', values: ['true'] }, { key: 'shared', values: ['true'] }] },
    },
    rwop: yes('CSI'), block: yes('ReadWriteOnce'),
    topology: { kind: 'none', keys: [], note: 'replicated across nodes' },
    attach: 'required',
    notes: 'ReadWriteMany without the `sharedv4`/`shared` parameter fails provisioning',
    refs: ['PORTWORX'], sourceKeys: ['PORTWORX'], confidence: 'M',
  },
  {
    name: 'csi.hetzner.cloud', type: 'csi',
    rwo: yes(), rox: no(), rwx: no(), rwop: RWOP_CSI, block: yes('NodePublish handles Block'),
    topology: { kind: 'regional', keys: ['csi.hetzner.cloud/location'], note: 'location' },
    attach: 'required',
    notes: '16 volumes per server (MaxVolumesPerNode), minimum 10 GB',
    refs: ['HCLOUD-DRV'], sourceKeys: ['HCLOUD-DRV'], confidence: 'H',
  },
  {
    name: 'dobs.csi.digitalocean.com', type: 'csi',
    rwo: yes(), rox: no(), rwx: no(), rwop: yes('mapped to SINGLE_NODE_WRITER'), block: yes('nodePublishVolumeForBlock'),
    topology: { kind: 'regional', keys: ['region'], note: 'CSI segment key `region`' },
    attach: 'required',
    notes: 'default 7 volumes per droplet (defaultMaxVolumesPerNode)',
    refs: ['DO-DRV'], sourceKeys: ['DO-DRV'], confidence: 'H',
  },
  {
    name: 'kubernetes.io/aws-ebs', type: 'in-tree', removedIn: 'v1.27', migratedTo: 'ebs.csi.aws.com',
    rwo: yes('as EBS CSI'), rox: no(), rwx: no(), rwop: RWOP_IN_TREE, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.kubernetes.io/zone'] },
    attach: 'not-applicable',
    notes: 'in-tree, removed v1.27, migrated to ebs.csi.aws.com; see R12',
    refs: ['K-VOLDOC "(removed)"'], sourceKeys: ['K-VOLDOC', 'K-RWOP-GA'], confidence: 'H',
  },
  {
    name: 'kubernetes.io/gce-pd', type: 'in-tree', removedIn: 'v1.28', migratedTo: 'pd.csi.storage.gke.io',
    rwo: yes(), rox: yes(), rwx: no('"invalid AccessModes [ReadWriteMany]: only AccessModes [ReadWriteOnce ReadOnlyMany] are supported"'),
    rwop: RWOP_IN_TREE, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.kubernetes.io/zone'] },
    attach: 'not-applicable',
    notes: 'in-tree, removed v1.28, migrated to pd.csi.storage.gke.io; see R12',
    refs: ['FABRIC8-7066', 'K-VOLDOC'], sourceKeys: ['FABRIC8-7066', 'K-VOLDOC', 'K-RWOP-GA'], confidence: 'H',
  },
  {
    name: 'kubernetes.io/azure-disk', type: 'in-tree', removedIn: 'v1.27', migratedTo: 'disk.csi.azure.com',
    rwo: yes(), rox: no(), rwx: no(), rwop: RWOP_IN_TREE, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.kubernetes.io/zone'] },
    attach: 'not-applicable',
    notes: 'in-tree, removed v1.27, migrated to disk.csi.azure.com; see R12',
    refs: ['K-VOLDOC'], sourceKeys: ['K-VOLDOC', 'K-RWOP-GA'], confidence: 'H',
  },
  {
    name: 'kubernetes.io/azure-file', type: 'in-tree', removedIn: 'removed', migratedTo: 'file.csi.azure.com',
    rwo: yes(), rox: yes(), rwx: yes(), rwop: RWOP_IN_TREE, block: no(),
    topology: { kind: 'none', keys: [] },
    attach: 'not-applicable',
    notes: 'in-tree, removed, migrated to file.csi.azure.com; see R12',
    refs: ['K-VOLDOC'], sourceKeys: ['K-VOLDOC', 'K-RWOP-GA'], confidence: 'M',
  },
  {
    name: 'kubernetes.io/cinder', type: 'in-tree', removedIn: 'v1.26', migratedTo: 'cinder.csi.openstack.org',
    rwo: yes(), rox: unknown(), rwx: unknown(), rwop: RWOP_IN_TREE, block: yes(),
    topology: { kind: 'zonal', keys: ['topology.kubernetes.io/zone'] },
    attach: 'not-applicable',
    notes: 'in-tree, removed, migrated to cinder.csi.openstack.org; see R12',
    refs: ['K-VOLDOC'], sourceKeys: ['K-VOLDOC', 'K-RWOP-GA'], confidence: 'M',
  },
  // Not in §7: in-tree volume sources PVs are still written with. Neither has an attach step (the attach/detach
  // controller never blocks a second node), and neither is CSI, so ReadWriteOncePod is not supported.
  {
    name: 'kubernetes.io/nfs', type: 'in-tree', catalogue: false,
    rwo: yes('not node-enforced'), rox: yes(), rwx: yes(), rwop: RWOP_IN_TREE, block: no(),
    topology: { kind: 'none', keys: [] },
    attach: 'not-applicable',
    notes: 'in-tree `nfs` PV source: kubelet mounts the export on each node, nothing enforces ReadWriteOnce across nodes',
    refs: ['K-VOLDOC "nfs"'], sourceKeys: ['K-VOLDOC', 'K-RWOP-GA'], confidence: 'H',
  },
  {
    name: 'kubernetes.io/host-path', type: 'in-tree', catalogue: false,
    rwo: yes('each node has its own directory'), rox: yes('node-local'), rwx: yes('node-local'), rwop: RWOP_IN_TREE, block: no(),
    topology: { kind: 'none', keys: [], note: 'no node affinity of its own: pods on different nodes see different directories' },
    attach: 'not-applicable',
    notes: 'in-tree `hostPath` PV source (single-node testing only)',
    refs: ['K-VOLDOC "hostPath"'], sourceKeys: ['K-VOLDOC', 'K-RWOP-GA'], confidence: 'H',
  },
];

const TABLE: readonly DriverCapabilities[] = ROWS.map(({ sourceKeys, aliases, catalogue, ...row }) => ({
  ...row,
  aliases: aliases ?? [],
  catalogue: catalogue ?? true,
  sources: sources(...sourceKeys),
}));

const BY_NAME = new Map<string, DriverCapabilities>();
for (const row of TABLE) {
  for (const name of [row.name, ...row.aliases]) BY_NAME.set(name, row);
}

/** §1.4: in-tree provisioner names redirected to CSI drivers by CSI migration (csi-translation-lib plugin names). */
export const IN_TREE_TO_CSI: Readonly<Record<string, string>> = {
  'kubernetes.io/aws-ebs': 'ebs.csi.aws.com',
  'kubernetes.io/gce-pd': 'pd.csi.storage.gke.io',
  'kubernetes.io/azure-disk': 'disk.csi.azure.com',
  'kubernetes.io/azure-file': 'file.csi.azure.com',
  'kubernetes.io/cinder': 'cinder.csi.openstack.org',
  'kubernetes.io/vsphere-volume': 'csi.vsphere.vmware.com',
  'kubernetes.io/portworx-volume': 'pxd.portworx.com',
};

/** The provisioner of StorageClasses for statically provisioned volumes (local PVs): it creates nothing. */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/** The provisioner name §7 is looked up by: in-tree names that CSI migration redirects become the CSI driver name. */
export function normaliseProvisioner(name: string): string {
  const trimmed = name.trim();
  return ownEntry(IN_TREE_TO_CSI, trimmed) ?? trimmed;
}

/**
 * In-tree PV volume sources (`spec.<key>` of a PersistentVolume) and the provisioner / plugin name they correspond to.
 * Sources without an entry (iscsi, fc, flexVolume, …) are unknown to pvlint.
 */
const IN_TREE_SOURCES: Readonly<Record<string, string>> = {
  awsElasticBlockStore: 'kubernetes.io/aws-ebs',
  gcePersistentDisk: 'kubernetes.io/gce-pd',
  azureDisk: 'kubernetes.io/azure-disk',
  azureFile: 'kubernetes.io/azure-file',
  cinder: 'kubernetes.io/cinder',
  vsphereVolume: 'kubernetes.io/vsphere-volume',
  portworxVolume: 'kubernetes.io/portworx-volume',
  nfs: 'kubernetes.io/nfs',
  hostPath: 'kubernetes.io/host-path',
  local: 'kubernetes.io/local-volume',
};

/** The in-tree source key a PV spec uses (`nfs`, `awsElasticBlockStore`, …) with its provisioner name, when pvlint knows it. */
export function inTreeSourceProvisioner(pvSpec: unknown): { source: string; provisioner: string } | undefined {
  if (!pvSpec || typeof pvSpec !== 'object') return undefined;
  for (const [source, provisioner] of Object.entries(IN_TREE_SOURCES)) {
    const value = (pvSpec as Record<string, unknown>)[source];
    if (value && typeof value === 'object') return { source, provisioner };
  }
  return undefined;
}

export interface DriverInfo {
  /** The name that was asked for. */
  requested: string;
  /** The name after §1.4 normalisation (what the capabilities describe). */
  driver: string;
  capabilities: DriverCapabilities;
  /**
   * For a removed in-tree provisioner: its own §7 row. The CSI driver's capabilities apply through migration, but
   * PVs written with the in-tree source are still non-CSI (no ReadWriteOncePod), per §7 note 1.
   */
  inTree?: DriverCapabilities;
}

/**
 * A driver the table does not know, or a correction of its §7 row, as the configuration states it (`cluster.drivers`,
 * see cluster-facts.ts DriverOverride); fields left out keep the table's values.
 */
export interface DriverOverrideRow {
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
}

/** The configuration's driver rows by every name they answer to (see driverOverrideTable). */
export type DriverOverrideTable = ReadonlyMap<string, DriverCapabilities>;

const NO_OVERRIDES: DriverOverrideTable = new Map();

/**
 * The §7 row for a provisioner or CSI driver name (normalised first), with `overrides` (the configuration's rows, see
 * driverOverrideTable) taking precedence over the table; undefined for drivers neither knows. Rules ask the model
 * (`model.driverCapabilities`), which passes its own configuration's overrides.
 */
export function driverCapabilities(name: string, overrides: DriverOverrideTable = NO_OVERRIDES): DriverInfo | undefined {
  const requested = name.trim();
  const driver = normaliseProvisioner(requested);
  const row = (key: string) => overrides.get(key) ?? BY_NAME.get(key);
  const capabilities = row(driver);
  if (!capabilities) return undefined;
  const own = driver !== requested ? row(requested) : undefined;
  return { requested, driver, capabilities, ...(own && own !== capabilities ? { inTree: own } : {}) };
}

const mode = (support: Support | undefined, base: ModeSupport | undefined): ModeSupport =>
  support === undefined ? base ?? { support: 'unknown' } : { support };

/** A §7 row with the configuration's fields laid over it, or a new row for a driver the table does not have. */
export function applyDriverOverride(override: DriverOverrideRow, base: DriverCapabilities | undefined): DriverCapabilities {
  return {
    name: override.name,
    aliases: override.aliases ?? base?.aliases ?? [],
    type: override.type ?? base?.type ?? 'csi',
    rwo: mode(override.rwo, base?.rwo),
    rox: mode(override.rox, base?.rox),
    rwx: mode(override.rwx, base?.rwx),
    rwop: mode(override.rwop, base?.rwop),
    block: mode(override.block, base?.block),
    topology: override.topology !== undefined || override.topologyKeys !== undefined
      ? { kind: override.topology ?? base?.topology.kind ?? 'optional', keys: override.topologyKeys ?? base?.topology.keys ?? [] }
      : base?.topology ?? { kind: 'optional', keys: [], note: 'not stated in the configuration' },
    attach: override.attach ?? base?.attach ?? 'configurable',
    ...(base?.removedIn ? { removedIn: base.removedIn } : {}),
    ...(base?.migratedTo ? { migratedTo: base.migratedTo } : {}),
    notes: override.notes ?? (base ? `${base.notes}${base.notes ? '; ' : ''}changed by the pvlint configuration` : 'declared in the pvlint configuration'),
    refs: base?.refs ?? [],
    sources: base?.sources ?? [],
    confidence: base?.confidence ?? 'M',
    catalogue: base?.catalogue ?? false,
    declared: true,
  };
}

/** The configuration's driver overrides (`cluster.drivers`) as rows laid over the table, by name and alias. */
export function driverOverrideTable(overrides: readonly DriverOverrideRow[]): DriverOverrideTable {
  if (overrides.length === 0) return NO_OVERRIDES;
  const map = new Map<string, DriverCapabilities>();
  for (const override of overrides) {
    const name = override.name.trim();
    const row = applyDriverOverride(override, BY_NAME.get(normaliseProvisioner(name)) ?? BY_NAME.get(name));
    for (const key of [name, ...row.aliases]) map.set(key, row);
  }
  return map;
}

/** Every row, for documentation and tests. */
export function allDriverCapabilities(): readonly DriverCapabilities[] {
  return TABLE;
}
