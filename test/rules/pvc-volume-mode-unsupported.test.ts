import rule from '../../rules/pvc-volume-mode-unsupported.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
`;
const pvc = (storageClass: string, volumeMode?: string, extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: apps}
spec:
  storageClassName: ${storageClass}
  accessModes: [ReadWriteOnce]${volumeMode ? `\n  volumeMode: ${volumeMode}` : ''}
  resources: {requests: {storage: 10Gi}}${extra}
`;
const pv = (source: string, volumeMode = 'Block') => `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  volumeMode: ${volumeMode}
  ${source}
`;

ruleTester(rule, {
  valid: [
    { name: 'Block on EBS', code: sc('gp3', 'ebs.csi.aws.com') + pvc('gp3', 'Block') },
    { name: 'Filesystem on EFS', code: sc('efs', 'efs.csi.aws.com') + pvc('efs', 'Filesystem') },
    { name: 'unset volumeMode on NFS', code: sc('nfs', 'nfs.csi.k8s.io') + pvc('nfs') },
    { name: 'an unknown provisioner', code: sc('x', 'example.com/x') + pvc('x', 'Block') },
    { name: 'Block on a local PV', code: pv('local: {path: /dev/sdb}') },
    { name: 'Block on an iscsi PV (unknown to the table)', code: pv('iscsi: {targetPortal: a, iqn: b, lun: 0}') },
    { name: 'a claim with volumeName', code: sc('efs', 'efs.csi.aws.com') + pvc('efs', 'Block', '\n  volumeName: pv-9') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'Block on EFS',
      code: sc('efs', 'efs.csi.aws.com') + pvc('efs', 'Block'),
      errors: [{ messageId: 'claim', severity: 'error', path: ['spec', 'volumeMode'], messageIncludes: ['only filesystem volumes are supported'] }],
    },
    { name: 'Block on NFS CSI', code: sc('nfs', 'nfs.csi.k8s.io') + pvc('nfs', 'Block'), errors: [{ messageId: 'claim', messageIncludes: ['block volume capability not supported'] }] },
    { name: 'Block on CephFS', code: sc('cephfs', 'cephfs.csi.ceph.com') + pvc('cephfs', 'Block'), errors: [{ messageId: 'claim', severity: 'error' }] },
    { name: 'Block on OpenEBS local depends on the engine', code: sc('ob', 'openebs.io/local') + pvc('ob', 'Block'), errors: [{ messageId: 'claim', severity: 'warning' }] },
    { name: 'Block on a static EFS PV', code: pv('csi: {driver: efs.csi.aws.com, volumeHandle: fs-12345678}'), errors: [{ messageId: 'volume', severity: 'error', path: ['spec', 'volumeMode'] }] },
    { name: 'Block on an nfs PV', code: pv('nfs: {server: a, path: /}'), errors: [{ messageId: 'volume', messageIncludes: ['the in-tree nfs volume source'] }] },
    {
      name: 'a generic ephemeral volume',
      code: sc('efs', 'efs.csi.aws.com') + `---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: apps}
spec:
  containers: [{name: c, image: busybox, volumeDevices: [{name: raw, devicePath: /dev/xvda}]}]
  volumes:
    - name: raw
      ephemeral:
        volumeClaimTemplate:
          spec: {storageClassName: efs, volumeMode: Block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'claim', path: ['spec', 'volumes', 0, 'ephemeral', 'volumeClaimTemplate', 'spec', 'volumeMode'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'claim', severity: 'error' as const }] })),
  ],
});
