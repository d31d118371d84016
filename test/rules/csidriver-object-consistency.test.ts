import rule from '../../rules/csidriver-object-consistency.js';
import { ruleTester } from '../helpers/rule-tester.js';

const csiDriver = (name: string, attach?: boolean) => `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ${name}}
spec:${attach === undefined ? ' {}' : `\n  attachRequired: ${attach}`}
`;
const rwoUse = (provisioner: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: files}
provisioner: ${provisioner}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: files
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: c, volumeMounts: [{name: data, mountPath: /data}]}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;

ruleTester(rule, {
  valid: [
    { name: 'EBS as shipped', code: csiDriver('ebs.csi.aws.com', true) },
    { name: 'EFS as shipped, no ReadWriteOnce claims', code: csiDriver('efs.csi.aws.com', false) },
    { name: 'an unknown driver without claims', code: csiDriver('vendor.example.com', false) },
    { name: 'an inline-only driver never attaches', code: csiDriver('csi.cert-manager.io', false) },
  ],
  invalid: [
    {
      name: 'EBS written with attachRequired: false',
      code: csiDriver('ebs.csi.aws.com', false),
      errors: [{ messageId: 'contradicts', severity: 'note', line: 6, path: ['spec', 'attachRequired'], messageIncludes: ['attachRequired: false', 'mounts fail'] }],
    },
    {
      name: 'EFS left at the default attachRequired (true)',
      code: csiDriver('efs.csi.aws.com'),
      errors: [{ messageId: 'contradicts', messageIncludes: ['attachRequired: true', 'external-attacher'] }],
    },
    {
      name: 'ReadWriteOnce claims of a driver without attach',
      code: csiDriver('efs.csi.aws.com', false) + rwoUse('efs.csi.aws.com'),
      errors: [{ messageId: 'noAttachRwo', messageIncludes: ['"default/data"', 'not enforced across nodes'] }],
    },
  ],
});
