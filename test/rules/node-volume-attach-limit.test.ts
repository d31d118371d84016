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
    { name: 'a driver without a configured limit', code: sc('gp3', 'ebs.csi.aws.com') + sts(40, 'gp3') },
    { name: 'a driver without an attach step', code: sc('efs', 'efs.csi.aws.com') + sts(20, 'efs') },
    { name: 'a higher limit from the option', code: sc('do', 'dobs.csi.digitalocean.com') + sts(8, 'do'), options: { limits: { 'dobs.csi.digitalocean.com': 15 } } },
  ],
  invalid: [
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
