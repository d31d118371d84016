import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import rule from '../../rules/provisioner-name-typo.js';
import { looksLikeTypo } from '../../src/model/provisioner-names.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (provisioner: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: ${provisioner}
`;

ruleTester(rule, {
  valid: [
    { name: 'a known CSI driver', code: sc('pd.csi.storage.gke.io') },
    { name: 'a known in-tree name', code: sc('kubernetes.io/aws-ebs') },
    { name: 'another AWS driver (the driver label differs): s3', code: sc('s3.csi.aws.com') },
    { name: 'an unknown driver not close to any', code: sc('csi.example.com') },
    { name: 'a legacy in-tree name not close to a known one', code: sc('kubernetes.io/glusterfs') },
    { name: 'Azure Blob is not a typo of Azure File', code: sc('blob.csi.azure.com') },
    { name: 'SMB is not a typo of NFS', code: sc('smb.csi.k8s.io') },
    { name: 'a placeholder', code: sc('"${PROVISIONER}"') },
    {
      name: 'a CSIDriver in the repo makes the name known',
      code: sc('ebs.csi.amazonaws.com') + `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.amazonaws.com}
spec: {attachRequired: true}
`,
    },
    { name: 'a driver declared in cluster facts', code: sc('ebs.csi.amazonaws.com'), model: { cluster: { drivers: [{ name: 'ebs.csi.amazonaws.com' }] } } },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'the EBS driver spelled with amazonaws',
      code: sc('ebs.csi.amazonaws.com'),
      errors: [{ messageId: 'typo', severity: 'warning', path: ['provisioner'], messageIncludes: ['close to "ebs.csi.aws.com"', 'stay Pending'] }],
    },
    { name: 'a missing letter in the driver label of an in-tree name', code: sc('kubernetes.io/no-provisoner'), errors: [{ messageId: 'typo', messageIncludes: ['"kubernetes.io/no-provisioner"'] }] },
    { name: 'a wrong top-level domain', code: sc('driver.longhorn.com'), errors: [{ messageId: 'typo', messageIncludes: ['"driver.longhorn.io"'] }] },
    {
      name: 'a static PV with a misspelt driver',
      code: `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  csi: {driver: efs.csi.aws.co, volumeHandle: fs-0123456789abcdef0}
`,
      errors: [{ messageId: 'typo', path: ['spec', 'csi', 'driver'], messageIncludes: ['close to "efs.csi.aws.com"', 'ContainerCreating'] }],
    },
    {
      name: 'a VolumeSnapshotClass',
      code: `apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshotClass
metadata: {name: pd}
driver: pd.csi.storage.gke.com
deletionPolicy: Retain
`,
      errors: [{ messageId: 'typo', path: ['driver'], messageIncludes: ['never become ready'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'typo' }] })),
  ],
});

const names = suite('looksLikeTypo');
names('typos and non-typos', () => {
  assert.ok(looksLikeTypo('ebs.csi.amazonaws.com', 'ebs.csi.aws.com'));
  assert.ok(looksLikeTypo('ebscsi.aws.com', 'ebs.csi.aws.com') === false, 'the naming label changes when a dot is dropped there');
  assert.ok(looksLikeTypo('rbd.csi.ceph.comm', 'rbd.csi.ceph.com'));
  assert.not.ok(looksLikeTypo('s3.csi.aws.com', 'efs.csi.aws.com'));
  assert.not.ok(looksLikeTypo('ebs.csi.eks.amazonaws.com', 'ebs.csi.aws.com'));
  assert.not.ok(looksLikeTypo('ebs.csi.aws.com', 'ebs.csi.aws.com'));
});
names.run();
