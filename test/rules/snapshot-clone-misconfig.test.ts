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
const namedSnapshot = (name: string, namespace?: string) => `---
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata: {name: ${name}${namespace ? `, namespace: ${namespace}` : ''}}
spec: {source: {persistentVolumeClaimName: other}}
`;
const replicationDestination = (name: string, namespace?: string) => `---
apiVersion: volsync.backube/v1alpha1
kind: ReplicationDestination
metadata: {name: ${name}${namespace ? `, namespace: ${namespace}` : ''}}
spec: {trigger: {manual: restore-once}, restic: {repository: app-restic, copyMethod: Snapshot, capacity: 10Gi}}
`;
const kopiurRestore = (name: string) => `---
apiVersion: kopiur.home-operations.com/v1alpha1
kind: Restore
metadata: {name: ${name}}
spec: {repository: {name: kopia}}
`;
/** A StatefulSet "pg" with one claim template "data" of this spec. */
const postgres = (claimSpec: string) => `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg}
spec:
  serviceName: pg
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec: {containers: [{name: pg, image: postgres}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: ${claimSpec}
`;
const populated = (name: string, group: string, kind: string, source: string, field = 'dataSourceRef') =>
  pvc(name, { dataSource: `{apiGroup: ${group}, kind: ${kind}, name: ${source}}` }).replace('dataSource:', `${field}:`);
const clone = '{kind: PersistentVolumeClaim, name: source}';

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on a restore from a VolumeSnapshot whose class is not in the repo', code: ebs + namedSnapshot('nightly') + pvc('restored', { dataSource: '{apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}' }) },
    { name: 'stays quiet on a VolSync ReplicationDestination populator the repo defines', code: ebs + replicationDestination('app-dst') + populated('restored', 'volsync.backube', 'ReplicationDestination', 'app-dst') },
    { name: 'stays quiet on a kopiur Restore the repo defines', code: ebs + kopiurRestore('sonarr') + populated('sonarr', 'kopiur.home-operations.com', 'Restore', 'sonarr') },
    { name: 'stays quiet on a CDI volume populator the repo defines', code: ebs + `---
apiVersion: cdi.kubevirt.io/v1beta1
kind: VolumeImportSource
metadata: {name: fedora}
spec: {source: {http: {url: "https://example.com/fedora.img"}}}
` + populated('disk', 'cdi.kubevirt.io', 'VolumeImportSource', 'fedora') },
    { name: 'stays quiet on a populator name that is still a placeholder', code: ebs + replicationDestination('app-dst') + populated('restored', 'volsync.backube', 'ReplicationDestination', '"${APP}-dst"') },
    { name: 'stays quiet when the repo\'s populator object has a placeholder name', code: ebs + replicationDestination('"${APP}-dst"') + populated('restored', 'volsync.backube', 'ReplicationDestination', 'sonarr-dst') },
    { name: 'stays quiet on a populator of a kind pvlint does not know', code: ebs + populated('restored', 'example.com', 'HelloPopulator', 'hello') },
    { name: 'stays quiet on a Restore of another API group (Velero)', code: ebs + kopiurRestore('sonarr').replace('kopiur.home-operations.com/v1alpha1', 'velero.io/v1') + populated('sonarr', 'velero.io', 'Restore', 'sonar') },
    { name: 'stays quiet on a clone of a claim a StatefulSet template creates', code: ebs + postgres('{storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}') + pvc('copy', { dataSource: '{kind: PersistentVolumeClaim, name: data-pg-0}' }) },
    { name: 'a class with Retain', code: vsc('snaps', 'ebs.csi.aws.com', 'Retain') },
    { name: 'Delete on an ordinary class', code: vsc('snaps', 'ebs.csi.aws.com', 'Delete') },
    { name: 'an old API version is not judged', code: vsc('snaps', 'ebs.csi.aws.com', undefined, { apiVersion: 'snapshot.storage.k8s.io/v1beta1' }) },
    { name: 'one default per driver', code: vsc('a', 'ebs.csi.aws.com', 'Retain', { isDefault: true }) + vsc('b', 'pd.csi.storage.gke.io', 'Retain', { isDefault: true }) },
    { name: 'a snapshot with a class of the claim\'s driver', code: ebs + pvc('source') + vsc('snaps', 'ebs.csi.aws.com', 'Retain') + snapshot('snaps') },
    { name: 'a clone of the same size, mode and driver', code: ebs + pvc('source') + pvc('copy', { dataSource: clone }) },
    { name: 'a larger clone', code: ebs + pvc('source') + pvc('copy', { dataSource: clone, size: '20Gi' }) },
  ],
  invalid: [
    {
      name: 'a VolSync populator reference to a ReplicationDestination the repo names otherwise',
      code: ebs + replicationDestination('sonarr-dst') + replicationDestination('radarr-dst') + populated('sonarr', 'volsync.backube', 'ReplicationDestination', 'sonarr-dest'),
      errors: [{
        messageId: 'sourceMissing', severity: 'warning', path: ['spec', 'dataSourceRef', 'name'],
        messageIncludes: ['ReplicationDestination "sonarr-dest"', 'did you mean "sonarr-dst"?', 'stays Pending'],
      }],
    },
    {
      name: 'a kopiur Restore renamed without its claim: a warning without a guess when nothing is close',
      code: ebs + kopiurRestore('plex') + populated('sonarr', 'kopiur.home-operations.com', 'Restore', 'sonarr'),
      errors: [{ messageId: 'sourceMissing', severity: 'warning', path: ['spec', 'dataSourceRef', 'name'], messageIncludes: ['(it has "plex")'] }],
    },
    {
      name: 'a populator object of that name in another namespace does not count',
      code: ebs + replicationDestination('sonarr-dst', 'media') + replicationDestination('other-dst') + populated('sonarr', 'volsync.backube', 'ReplicationDestination', 'sonarr-dst'),
      errors: [{ messageId: 'sourceMissing', severity: 'warning', messageIncludes: ['namespace "default"'] }],
    },
    {
      name: 'a populator kind the repo does not hold at all is a note',
      code: ebs + populated('restored', 'volsync.backube', 'ReplicationDestination', 'app-dst'),
      errors: [{ messageId: 'sourceMissing', severity: 'note', messageIncludes: ['unless it is created outside the repo'] }],
    },
    {
      name: 'a restore from a VolumeSnapshot one slip away from the repo\'s (dataSource)',
      code: ebs + namedSnapshot('nightly-db') + pvc('restored', { dataSource: '{apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nigthly-db}' }),
      errors: [{ messageId: 'sourceMissing', severity: 'warning', path: ['spec', 'dataSource', 'name'], messageIncludes: ['did you mean "nightly-db"?', 'snapshot not found'] }],
    },
    {
      name: 'a restore from a VolumeSnapshot the repo lacks, with unrelated snapshots beside it, is only a note',
      code: ebs + namedSnapshot('weekly') + pvc('restored', { dataSource: '{apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: nightly}' }),
      errors: [{ messageId: 'sourceMissing', severity: 'note' }],
    },
    {
      name: 'a clone of a claim that is not in the repo is a note',
      code: ebs + pvc('copy', { dataSource: clone }),
      errors: [{ messageId: 'sourceMissing', severity: 'note', messageIncludes: ['source claim is not found'] }],
    },
    {
      name: 'a StatefulSet claim template populated from a misspelt ReplicationDestination',
      code: ebs + replicationDestination('postgres-dst') + postgres('{storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}, dataSourceRef: {apiGroup: volsync.backube, kind: ReplicationDestination, name: postgres-dts}}'),
      errors: [{ messageId: 'sourceMissing', severity: 'warning', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'dataSourceRef', 'name'], messageIncludes: ['volumeClaimTemplate "data"', 'did you mean "postgres-dst"?'] }],
    },
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
