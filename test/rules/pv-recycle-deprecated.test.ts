import rule from '../../rules/pv-recycle-deprecated.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pv = (policy: string | undefined, source: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: vol}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]${policy ? `\n  persistentVolumeReclaimPolicy: ${policy}` : ''}
  ${source}
`;

ruleTester(rule, {
  valid: [
    { name: 'a ${VAR} reclaimPolicy on a StorageClass is filled in later, not judged', code: 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: c}\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: ${RECLAIM_POLICY}\n' },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'no policy (Retain for PVs)', code: pv(undefined, 'nfs: {server: nfs.example.internal, path: /x}') },
    { name: 'Delete on CSI', code: pv('Delete', 'csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}') },
    { name: 'StorageClass with Delete or Retain', code: 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: a}\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: Retain\n' },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'deprecated', severity: 'warning' as const, line: 7 }] })),
    { name: 'hostPath Recycle: warning', code: pv('Recycle', 'hostPath: {path: /srv/scratch}'), errors: [{ messageId: 'deprecated', severity: 'warning', messageIncludes: ['(hostPath)'] }] },
    { name: 'hostPath "/" is rejected', code: pv('Recycle', 'hostPath: {path: /}'), errors: [{ messageId: 'hostRoot', severity: 'error' }] },
    // The PV mounts and keeps its data; only its reuse after release fails: a warning, not an error.
    { name: 'CSI volumes have no recycler', code: pv('Recycle', 'csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}'), errors: [{ messageId: 'noRecycler', severity: 'warning', line: 7, messageIncludes: ['CSI (ebs.csi.aws.com)'] }] },
    { name: 'local volumes have no recycler', code: pv('Recycle', 'local: {path: /mnt/disks/a}'), errors: [{ messageId: 'noRecycler', severity: 'warning', messageIncludes: ['a local volume'] }] },
    { name: 'in-tree EBS', code: pv('Recycle', 'awsElasticBlockStore: {volumeID: vol-1}'), errors: [{ messageId: 'noRecycler', messageIncludes: ['awsElasticBlockStore'] }] },
    {
      name: 'StorageClass reclaimPolicy Recycle is rejected',
      code: 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: a}\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: Recycle\n',
      errors: [{ messageId: 'storageClass', severity: 'error', line: 5 }],
    },
  ],
});
