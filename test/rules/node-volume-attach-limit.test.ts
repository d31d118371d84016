import rule from '../../rules/node-volume-attach-limit.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
---
`;
const sts = (count: number, storageClass: string) => {
  const names = Array.from({ length: count }, (_, i) => `d${i + 1}`);
  return `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: shards}
spec:
  serviceName: shards
  selector: {matchLabels: {app: shards}}
  template:
    metadata: {labels: {app: shards}}
    spec:
      containers:
        - name: shard
          image: shard
          volumeMounts:
${names.map((n) => `            - {name: ${n}, mountPath: /${n}}`).join('\n')}
  volumeClaimTemplates:
${names.map((n) => `    - {metadata: {name: ${n}}, spec: {storageClassName: ${storageClass}, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}`).join('\n')}
`;
};

ruleTester(rule, {
  valid: [
    { name: 'seven DigitalOcean volumes fit', code: sc('do', 'dobs.csi.digitalocean.com') + sts(7, 'do') },
    { name: 'a driver without a configured limit', code: sc('rbd', 'rbd.csi.ceph.com') + sts(40, 'rbd') },
    { name: 'thirty-nine EBS volumes fit the documented EBS limit', code: sc('gp3', 'ebs.csi.aws.com') + sts(39, 'gp3') },
    { name: 'the EBS default can be raised for instance types that attach more', code: sc('gp3', 'ebs.csi.aws.com') + sts(40, 'gp3'), options: { limits: { 'ebs.csi.aws.com': 100 } } },
    { name: 'pods not pinned to one node are not added up', code: sc('do', 'dobs.csi.digitalocean.com') + sts(4, 'do').replace('spec:\n  serviceName', 'spec:\n  replicas: 3\n  serviceName') },
    { name: 'a driver without an attach step', code: sc('efs', 'efs.csi.aws.com') + sts(20, 'efs') },
    { name: 'a higher limit from the option', code: sc('do', 'dobs.csi.digitalocean.com') + sts(8, 'do'), options: { limits: { 'dobs.csi.digitalocean.com': 15 } } },
  ],
  invalid: [
    {
      name: 'forty EBS volumes exceed the documented EBS limit',
      code: sc('gp3', 'ebs.csi.aws.com') + sts(40, 'gp3'),
      errors: [{ messageId: 'tooMany', messageIncludes: ['needs 40 ebs.csi.aws.com volumes', 'at most 39'] }],
    },
    {
      name: 'sixty-five Azure disks',
      code: sc('managed', 'disk.csi.azure.com') + sts(65, 'managed'),
      errors: [{ messageId: 'tooMany', messageIncludes: ['at most 64'] }],
    },
    {
      name: 'the in-tree GCE PD name counts as the PD CSI driver',
      code: sc('standard', 'kubernetes.io/gce-pd') + sts(128, 'standard'),
      errors: [{ messageId: 'tooMany', messageIncludes: ['pd.csi.storage.gke.io', 'at most 127'] }],
    },
    {
      name: 'three replicas pinned to one node need 12 DigitalOcean volumes there',
      code: sc('do', 'dobs.csi.digitalocean.com') + sts(4, 'do').replace('spec:\n  serviceName', 'spec:\n  replicas: 3\n  serviceName').replace('    spec:\n      containers', '    spec:\n      nodeSelector: {kubernetes.io/hostname: worker-1}\n      containers'),
      errors: [{
        messageId: 'pinnedTooMany', severity: 'warning', path: ['spec', 'template', 'spec', 'nodeSelector', 'kubernetes.io/hostname'],
        messageIncludes: ['pinned to node "worker-1"', 'StatefulSet "shards" ×3', 'need 12 dobs.csi.digitalocean.com volumes', 'at most 7'],
      }],
    },
    {
      name: 'eight DigitalOcean volumes',
      code: sc('do', 'dobs.csi.digitalocean.com') + sts(8, 'do'),
      errors: [{ messageId: 'tooMany', severity: 'warning', line: 35, path: ['spec', 'volumeClaimTemplates', 7], messageIncludes: ['needs 8', 'at most 7'] }],
    },
    {
      name: 'seventeen Hetzner volumes',
      code: sc('hc', 'csi.hetzner.cloud') + sts(17, 'hc'),
      errors: [{ messageId: 'tooMany', messageIncludes: ['at most 16'] }],
    },
    {
      name: 'a limit configured for EBS',
      code: sc('gp3', 'ebs.csi.aws.com') + sts(30, 'gp3'),
      options: { limits: { 'ebs.csi.aws.com': 25 } },
      errors: [{ messageId: 'tooMany', messageIncludes: ['at most 25'] }],
    },
  ],
});
