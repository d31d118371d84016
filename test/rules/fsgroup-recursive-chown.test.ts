import rule from '../../rules/fsgroup-recursive-chown.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
---
`;
const sts = (opts: { securityContext: string; size?: string; storageClass?: string; modes?: string; user?: string }) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: app}
spec:
  serviceName: app
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      securityContext: ${opts.securityContext}
      containers:
        - name: app
          image: app${opts.user ? `\n          securityContext: ${opts.user}` : ''}
          volumeMounts: [{name: data, mountPath: /data}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: ${opts.storageClass ?? 'gp3'}, accessModes: [${opts.modes ?? 'ReadWriteOnce'}], resources: {requests: {storage: ${opts.size ?? '100Gi'}}}}
`;
const csiDriver = (name: string, spec: string) => `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ${name}}
spec: ${spec}
`;

ruleTester(rule, {
  valid: [
    { name: 'OnRootMismatch', code: sc('gp3', 'ebs.csi.aws.com') + sts({ securityContext: '{fsGroup: 1000, fsGroupChangePolicy: OnRootMismatch}' }) },
    { name: 'a small claim', code: sc('gp3', 'ebs.csi.aws.com') + sts({ securityContext: '{fsGroup: 1000}', size: '10Gi' }) },
    { name: 'no fsGroup', code: sc('gp3', 'ebs.csi.aws.com') + sts({ securityContext: '{runAsUser: 1000}' }) },
    { name: 'EFS: fsGroup is not applied to ReadWriteMany', code: sc('efs', 'efs.csi.aws.com') + sts({ securityContext: '{fsGroup: 1000}', storageClass: 'efs', modes: 'ReadWriteMany' }) },
    { name: 'a class not in the repo', code: sts({ securityContext: '{fsGroup: 1000}', storageClass: 'elsewhere' }) },
    { name: 'a smaller threshold is an option away', code: sc('gp3', 'ebs.csi.aws.com') + sts({ securityContext: '{fsGroup: 1000}' }), options: { minClaimSize: '1Ti' } },
  ],
  invalid: [
    {
      name: 'fsGroup on a large EBS claim',
      code: sc('gp3', 'ebs.csi.aws.com') + sts({ securityContext: '{fsGroup: 1000}' }),
      errors: [{ messageId: 'recursive', severity: 'note', line: 15, path: ['spec', 'template', 'spec', 'securityContext', 'fsGroupChangePolicy'], messageIncludes: ['claim template "data" of 100Gi', 'Always by default'] }],
    },
    {
      name: 'fsGroupChangePolicy Always',
      code: sc('gp3', 'ebs.csi.aws.com') + sts({ securityContext: '{fsGroup: 1000, fsGroupChangePolicy: Always}', size: '1Ti' }),
      errors: [{ messageId: 'recursive', messageIncludes: ['fsGroupChangePolicy: Always'] }],
    },
    {
      name: 'a CSIDriver with fsGroupPolicy None never applies fsGroup',
      code: sc('rbd', 'rbd.csi.ceph.com') + sts({ securityContext: '{fsGroup: 1000}', storageClass: 'rbd', size: '1Gi', user: '{runAsUser: 1000}' }) + csiDriver('rbd.csi.ceph.com', '{attachRequired: true, fsGroupPolicy: None}'),
      errors: [{ messageId: 'notApplied', path: ['spec', 'template', 'spec', 'securityContext', 'fsGroup'], messageIncludes: ['fsGroupPolicy: None'] }],
    },
    {
      name: 'the default fsGroupPolicy skips ReadWriteMany claims',
      code: sc('cephfs', 'cephfs.csi.ceph.com') + sts({ securityContext: '{fsGroup: 1000, runAsNonRoot: true}', storageClass: 'cephfs', modes: 'ReadWriteMany', size: '1Gi' }) + csiDriver('cephfs.csi.ceph.com', '{attachRequired: false}'),
      errors: [{ messageId: 'notApplied', messageIncludes: ['ReadWriteOnceWithFSType'] }],
    },
  ],
});
