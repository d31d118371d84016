import rule from '../../rules/snapshot-clone-misconfig.js';
import { ruleTester } from '../helpers/rule-tester.js';

const vsc = (name: string, driver: string, policy?: string, opts: { isDefault?: boolean; apiVersion?: string } = {}) => `---
apiVersion: ${opts.apiVersion ?? 'snapshot.storage.k8s.io/v1'}
kind: VolumeSnapshotClass
metadata:
  name: ${name}${opts.isDefault ? '\n  annotations: {snapshot.storage.kubernetes.io/is-default-class: "true"}' : ''}
driver: ${driver}${policy ? `\ndeletionPolicy: ${policy}` : ''}
`;
const sc = (name: string, provisioner: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
`;
const pvc = (name: string, opts: { storageClass?: string; size?: string; volumeMode?: string; dataSource?: string } = {}) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
  storageClassName: ${opts.storageClass ?? 'gp3'}
  accessModes: [ReadWriteOnce]${opts.volumeMode ? `\n  volumeMode: ${opts.volumeMode}` : ''}${opts.dataSource ? `\n  dataSource: ${opts.dataSource}` : ''}
  resources: {requests: {storage: ${opts.size ?? '10Gi'}}}
`;
const snapshot = (className: string) => `---
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata: {name: snap}
spec:
  volumeSnapshotClassName: ${className}
  source: {persistentVolumeClaimName: source}
`;
const ebs = sc('gp3', 'ebs.csi.aws.com');
const clone = '{kind: PersistentVolumeClaim, name: source}';

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on a restore from a VolumeSnapshot whose class is not in the repo', code: ebs + pvc('restored', { dataSource: '{apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}' }) },
    { name: 'stays quiet on a VolSync ReplicationDestination populator', code: ebs + pvc('restored', { dataSource: '{apiGroup: volsync.backube, kind: ReplicationDestination, name: app-dst}' }).replace('dataSource:', 'dataSourceRef:') },
    { name: 'stays quiet on a CDI volume populator', code: ebs + pvc('disk', { dataSource: '{apiGroup: cdi.kubevirt.io, kind: VolumeImportSource, name: fedora}' }).replace('dataSource:', 'dataSourceRef:') },
    { name: 'a class with Retain', code: vsc('snaps', 'ebs.csi.aws.com', 'Retain') },
    { name: 'Delete on an ordinary class', code: vsc('snaps', 'ebs.csi.aws.com', 'Delete') },
    { name: 'an old API version is not judged', code: vsc('snaps', 'ebs.csi.aws.com', undefined, { apiVersion: 'snapshot.storage.k8s.io/v1beta1' }) },
    { name: 'one default per driver', code: vsc('a', 'ebs.csi.aws.com', 'Retain', { isDefault: true }) + vsc('b', 'pd.csi.storage.gke.io', 'Retain', { isDefault: true }) },
    { name: 'a snapshot with a class of the claim\'s driver', code: ebs + pvc('source') + vsc('snaps', 'ebs.csi.aws.com', 'Retain') + snapshot('snaps') },
    { name: 'a clone of the same size, mode and driver', code: ebs + pvc('source') + pvc('copy', { dataSource: clone }) },
    { name: 'a larger clone', code: ebs + pvc('source') + pvc('copy', { dataSource: clone, size: '20Gi' }) },
    { name: 'a clone of a claim that is not in the repo', code: ebs + pvc('copy', { dataSource: clone }) },
  ],
  invalid: [
    {
      name: 'a VolumeSnapshotClass of the EFS driver',
      code: vsc('efs-snap', 'efs.csi.aws.com', 'Retain'),
      errors: [{ messageId: 'unsupported', severity: 'error', path: ['driver'], messageIncludes: ['implements neither snapshots nor clones'] }],
    },
    {
      name: 'a VolumeSnapshot of an EFS claim (no class in the repo)',
      code: sc('efs', 'efs.csi.aws.com') + pvc('shared', { storageClass: 'efs' }) + `---
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata: {name: nightly}
spec:
  source: {persistentVolumeClaimName: shared}
`,
      errors: [{ messageId: 'unsupported', path: ['spec', 'source', 'persistentVolumeClaimName'], messageIncludes: ['VolumeSnapshot "nightly" snapshots PersistentVolumeClaim "shared"', 'AWS Backup'] }],
    },
    {
      name: 'a clone of an EFS claim',
      code: sc('efs', 'efs.csi.aws.com') + pvc('shared', { storageClass: 'efs' }) + pvc('copy', { storageClass: 'efs', dataSource: '{kind: PersistentVolumeClaim, name: shared}' }),
      errors: [{ messageId: 'unsupported', resource: 'PersistentVolumeClaim//copy', path: ['spec', 'dataSource'], messageIncludes: ['a clone of PersistentVolumeClaim "shared" provisioned through efs.csi.aws.com', 'stays Pending'] }],
    },
    {
      name: 'no deletionPolicy',
      code: vsc('snaps', 'ebs.csi.aws.com'),
      errors: [{ messageId: 'noDeletionPolicy', severity: 'error', line: 3, path: ['deletionPolicy'] }],
    },
    {
      name: 'an invalid deletionPolicy',
      code: vsc('snaps', 'ebs.csi.aws.com', 'Keep'),
      errors: [{ messageId: 'badDeletionPolicy', messageIncludes: ['"Keep"'] }],
    },
    {
      name: 'Delete on the default class is a note',
      code: vsc('snaps', 'ebs.csi.aws.com', 'Delete', { isDefault: true }),
      errors: [{ messageId: 'deleteOnDefault', severity: 'note', messageIncludes: ['the default class'] }],
    },
    {
      name: 'two default classes for one driver',
      code: vsc('a', 'ebs.csi.aws.com', 'Retain', { isDefault: true }) + vsc('b', 'ebs.csi.aws.com', 'Retain', { isDefault: true }),
      errors: [{ messageId: 'multipleDefaults', severity: 'warning', resource: 'VolumeSnapshotClass//b' }],
    },
    {
      name: 'a snapshot class of another driver',
      code: ebs + pvc('source') + vsc('pd', 'pd.csi.storage.gke.io', 'Retain') + snapshot('pd'),
      errors: [{ messageId: 'snapshotDriver', path: ['spec', 'volumeSnapshotClassName'], messageIncludes: ['pd.csi.storage.gke.io', 'ebs.csi.aws.com'] }],
    },
    {
      name: 'a clone smaller than its source',
      code: ebs + pvc('source', { size: '100Gi' }) + pvc('copy', { dataSource: clone, size: '50Gi' }),
      errors: [{ messageId: 'cloneSize', path: ['spec', 'resources', 'requests', 'storage'], messageIncludes: ['50Gi', '100Gi'] }],
    },
    {
      name: 'a clone of another volumeMode',
      code: ebs + pvc('source', { volumeMode: 'Block' }) + pvc('copy', { dataSource: clone }),
      errors: [{ messageId: 'cloneVolumeMode', messageIncludes: ['volumeMode Filesystem', 'volumeMode Block'] }],
    },
    {
      name: 'a clone with a class of another driver',
      code: ebs + sc('pd', 'pd.csi.storage.gke.io') + pvc('source') + pvc('copy', { dataSource: clone, storageClass: 'pd' }),
      errors: [{ messageId: 'cloneDriver', path: ['spec', 'storageClassName'] }],
    },
    {
      name: 'a restore with a class of another driver than the snapshot',
      code: ebs + sc('pd', 'pd.csi.storage.gke.io') + pvc('source') + vsc('snaps', 'ebs.csi.aws.com', 'Retain') + snapshot('snaps') +
        pvc('restored', { storageClass: 'pd', dataSource: '{kind: VolumeSnapshot, apiGroup: snapshot.storage.k8s.io, name: snap}' }),
      errors: [{ messageId: 'restoreDriver', messageIncludes: ['VolumeSnapshot "snap"'] }],
    },
  ],
});
