import rule from '../../rules/pvc-access-mode-unsupported.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string, parameters = '', isDefault = false) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}${isDefault ? '\n  annotations: {storageclass.kubernetes.io/is-default-class: "true"}' : ''}
provisioner: ${provisioner}
volumeBindingMode: WaitForFirstConsumer${parameters ? `\nparameters: {${parameters}}` : ''}
`;
const pvc = (storageClass: string | null, modes: string, volumeMode?: string, extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: apps}
spec:${storageClass === null ? '' : `\n  storageClassName: ${storageClass}`}
  accessModes: [${modes}]${volumeMode ? `\n  volumeMode: ${volumeMode}` : ''}
  resources: {requests: {storage: 10Gi}}${extra}
`;
const pv = (source: string, modes: string, extra = '') => `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 10Gi}
  accessModes: [${modes}]
  ${source}${extra}
`;

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on ReadWriteMany on Rook CephFS', code: sc('cephfs', 'rook-ceph.cephfs.csi.ceph.com', 'clusterID: rook-ceph, fsName: myfs') + pvc('cephfs', 'ReadWriteMany') },
    { name: 'stays quiet on ReadWriteMany on Longhorn (share-manager NFS)', code: sc('longhorn', 'driver.longhorn.io', 'numberOfReplicas: "3"') + pvc('longhorn', 'ReadWriteMany') },
    { name: 'stays quiet on ReadWriteMany on Azure Files NFS', code: sc('azurefile-nfs', 'file.csi.azure.com', 'protocol: nfs') + pvc('azurefile-nfs', 'ReadWriteMany') },
    { name: 'stays quiet on ReadWriteMany raw block on Ceph RBD', code: sc('rbd', 'rook-ceph.rbd.csi.ceph.com', 'clusterID: rook-ceph, pool: replicapool') + pvc('rbd', 'ReadWriteMany', 'Block') },
    { name: 'stays quiet on ReadWriteMany on the NFS CSI driver', code: sc('nfs', 'nfs.csi.k8s.io', 'server: nfs.example, share: /exports') + pvc('nfs', 'ReadWriteMany') },
    { name: 'RWO on EBS', code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteOnce') },
    { name: 'RWX on EFS', code: sc('efs', 'efs.csi.aws.com') + pvc('efs', 'ReadWriteMany') },
    { name: 'RWOP on a CSI driver', code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteOncePod') },
    { name: 'ROX on GCE PD', code: sc('pd', 'pd.csi.storage.gke.io') + pvc('pd', 'ReadOnlyMany') },
    { name: 'RWX on Portworx with sharedv4', code: sc('px', 'pxd.portworx.com', 'sharedv4: "true"') + pvc('px', 'ReadWriteMany') },
    { name: 'an unknown provisioner is skipped', code: sc('x', 'example.com/x') + pvc('x', 'ReadWriteMany') },
    { name: 'a class not in the repo is skipped', code: pvc('elsewhere', 'ReadWriteMany') },
    { name: 'a claim with volumeName binds a PV, not the class', code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteMany', undefined, '\n  volumeName: pv-9') },
    { name: 'a claim with a selector is not provisioned', code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteMany', undefined, '\n  selector: {matchLabels: {a: b}}') },
    {
      name: 'a claim bound to a PV in the repo is checked through the PV',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteMany', undefined, '\n  volumeName: pv-1') + pv('nfs: {server: a, path: /}', 'ReadWriteMany'),
    },
    { name: 'a CSI PV with supported modes', code: pv('csi: {driver: efs.csi.aws.com, volumeHandle: fs-12345678}', 'ReadWriteMany') },
    {
      name: 'EBS node-local volumes (local-ebs:// handles) are documented with ReadWriteMany',
      code: pv('csi: {driver: ebs.csi.aws.com, volumeHandle: "local-ebs://dev/xvdbz"}', 'ReadWriteMany'),
    },
    { name: 'an iscsi PV with RWO', code: pv('iscsi: {targetPortal: "10.0.0.1:3260", iqn: "iqn.x", lun: 0}', 'ReadWriteOnce') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'RWX Filesystem on EBS',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteMany'),
      errors: [{
        messageId: 'claim', severity: 'error', path: ['spec', 'accessModes', 0],
        messageIncludes: ['requests ReadWriteMany from StorageClass "gp3" (provisioner ebs.csi.aws.com)', 'only for raw block volumes (volumeMode: Block with an io2', 'not with volumeMode Filesystem'],
      }],
    },
    {
      name: 'RWX Block on EBS gp3 (default type) lacks io2',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteMany', 'Block'),
      errors: [{ messageId: 'claim', severity: 'error', messageIncludes: ['type is not set (the driver uses gp3)'] }],
    },
    {
      name: 'RWX Block on EBS io2 is a note about fencing',
      code: sc('io2', 'ebs.csi.aws.com', 'type: io2') + pvc('io2', 'ReadWriteMany', 'Block'),
      errors: [{ messageId: 'claim', severity: 'note', messageIncludes: ['nothing serialises writes'] }],
    },
    {
      name: 'RWX on GCE PD through the default class',
      code: sc('standard', 'pd.csi.storage.gke.io', '', true) + pvc(null, 'ReadWriteMany'),
      errors: [{ messageId: 'claim', severity: 'error', messageIncludes: ['StorageClass "standard" (the default class)'] }],
    },
    { name: 'RWX on Azure Disk', code: sc('managed', 'disk.csi.azure.com') + pvc('managed', 'ReadWriteMany'), errors: [{ messageId: 'claim', severity: 'error' }] },
    {
      name: 'RWX Block on Azure Disk without maxShares',
      code: sc('managed', 'disk.csi.azure.com', 'skuName: Premium_LRS') + pvc('managed', 'ReadWriteMany', 'Block'),
      errors: [{ messageId: 'claim', severity: 'error', messageIncludes: ['maxShares is not set'] }],
    },
    { name: 'RWX on Ceph RBD', code: sc('rbd', 'rbd.csi.ceph.com') + pvc('rbd', 'ReadWriteMany'), errors: [{ messageId: 'claim', severity: 'error' }] },
    { name: 'RWX on DigitalOcean', code: sc('do', 'dobs.csi.digitalocean.com') + pvc('do', 'ReadWriteMany'), errors: [{ messageId: 'claim', severity: 'error' }] },
    { name: 'RWX on Hetzner', code: sc('hc', 'csi.hetzner.cloud') + pvc('hc', 'ReadWriteMany'), errors: [{ messageId: 'claim', severity: 'error' }] },
    { name: 'ROX on EFS', code: sc('efs', 'efs.csi.aws.com') + pvc('efs', 'ReadOnlyMany'), errors: [{ messageId: 'claim', severity: 'error', messageIncludes: ['invalid access mode'] }] },
    { name: 'RWX on local-path needs sharedFileSystemPath', code: sc('lp', 'rancher.io/local-path') + pvc('lp', 'ReadWriteMany'), errors: [{ messageId: 'claim', severity: 'warning', messageIncludes: ['sharedFileSystemPath'] }] },
    { name: 'RWOP on local-path is a note', code: sc('lp', 'rancher.io/local-path') + pvc('lp', 'ReadWriteOncePod'), errors: [{ messageId: 'claim', severity: 'note' }] },
    { name: 'RWX Block on Cinder depends on the volume type', code: sc('c', 'cinder.csi.openstack.org') + pvc('c', 'ReadWriteMany', 'Block'), errors: [{ messageId: 'claim', severity: 'warning', messageIncludes: ['multiattach'] }] },
    { name: 'RWX on Portworx without sharedv4', code: sc('px', 'pxd.portworx.com') + pvc('px', 'ReadWriteMany'), errors: [{ messageId: 'claim', severity: 'error', messageIncludes: ['sharedv4 is not set'] }] },
    { name: 'RWOP on a no-provisioner class is a warning', code: sc('local', 'kubernetes.io/no-provisioner') + pvc('local', 'ReadWriteOncePod'), errors: [{ messageId: 'claim', severity: 'warning', messageIncludes: ['only supported for CSI volumes'] }] },
    {
      name: 'RWOP on an in-tree class is refused even under migration',
      code: sc('gp2', 'kubernetes.io/aws-ebs') + pvc('gp2', 'ReadWriteOncePod'),
      errors: [{ messageId: 'claim', severity: 'warning', messageIncludes: ['kubernetes.io/aws-ebs volumes are not CSI volumes'] }],
    },
    {
      name: 'the second of two modes is the offending one',
      code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'ReadWriteOnce, ReadOnlyMany'),
      errors: [{ messageId: 'claim', path: ['spec', 'accessModes', 1], messageIncludes: ['does not support ReadOnlyMany'] }],
    },
    { name: 'RWOP on an nfs PV', code: pv('nfs: {server: a, path: /}', 'ReadWriteOncePod'), errors: [{ messageId: 'volume', severity: 'warning', path: ['spec', 'accessModes', 0] }] },
    { name: 'RWOP on an iscsi PV', code: pv('iscsi: {targetPortal: "10.0.0.1:3260", iqn: "iqn.x", lun: 0}', 'ReadWriteOncePod'), errors: [{ messageId: 'volume', severity: 'warning', messageIncludes: ['iscsi volumes are not CSI volumes'] }] },
    { name: 'ROX on a static EFS PV', code: pv('csi: {driver: efs.csi.aws.com, volumeHandle: fs-12345678}', 'ReadOnlyMany'), errors: [{ messageId: 'volume', severity: 'error', messageIncludes: ['CSI driver efs.csi.aws.com'] }] },
    {
      name: 'a StatefulSet claim template',
      code: sc('gp3', 'ebs.csi.aws.com') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: apps}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: gp3, accessModes: [ReadWriteMany], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'claim', resource: 'StatefulSet/apps/db', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'accessModes', 0] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'claim', severity: 'error' as const }] })),
  ],
});
