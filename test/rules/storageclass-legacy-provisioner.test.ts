import rule from '../../rules/storageclass-legacy-provisioner.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (provisioner: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: c}
provisioner: ${provisioner}
`;
const pv = (source: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  ${source}
`;

ruleTester(rule, {
  valid: [
    { name: 'a CSI provisioner', code: sc('ebs.csi.aws.com') },
    { name: 'no-provisioner', code: sc('kubernetes.io/no-provisioner') },
    { name: 'an external provisioner', code: sc('rancher.io/local-path') },
    { name: 'a CSI PV', code: pv('csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}') },
    { name: 'nfs, hostPath and local PVs', code: pv('nfs: {server: a, path: /}') + '---\n' + pv('hostPath: {path: /x}') + '---\n' + pv('local: {path: /x}') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    { name: 'kubernetes.io/aws-ebs', code: sc('kubernetes.io/aws-ebs'), errors: [{ messageId: 'migratedClass', severity: 'note', path: ['provisioner'], messageIncludes: ['ebs.csi.aws.com CSI driver installed'] }] },
    { name: 'kubernetes.io/azure-file', code: sc('kubernetes.io/azure-file'), errors: [{ messageId: 'migratedClass', messageIncludes: ['file.csi.azure.com'] }] },
    { name: 'kubernetes.io/rbd was removed', code: sc('kubernetes.io/rbd'), errors: [{ messageId: 'removedClass', severity: 'error', messageIncludes: ['v1.31'] }] },
    { name: 'kubernetes.io/rbd on a cluster configured as v1.30 still works there: a warning', code: sc('kubernetes.io/rbd'), model: { cluster: { kubernetesVersion: '1.30' } }, errors: [{ messageId: 'removedClass', severity: 'warning', messageIncludes: ['v1.31'] }] },
    { name: 'a gcePersistentDisk PV', code: pv('gcePersistentDisk: {pdName: disk-1}'), errors: [{ messageId: 'migratedVolume', severity: 'note', path: ['spec', 'gcePersistentDisk'] }] },
    { name: 'a glusterfs PV', code: pv('glusterfs: {endpoints: gluster, path: vol}'), errors: [{ messageId: 'removedVolume', severity: 'error', messageIncludes: ['v1.26'] }] },
    { name: 'a cephfs PV', code: pv('cephfs: {monitors: [a], path: /}'), errors: [{ messageId: 'removedVolume', severity: 'error', messageIncludes: ['v1.31'] }] },
    { name: 'documented invalid example 1', code: rule.meta.examples.invalid[0], errors: [{ messageId: 'migratedClass' }] },
    { name: 'documented invalid example 2', code: rule.meta.examples.invalid[1], errors: [{ messageId: 'removedClass' }] },
  ],
});
