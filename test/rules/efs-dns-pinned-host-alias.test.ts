import rule from '../../rules/efs-dns-pinned-host-alias.js';
import { ruleTester } from '../helpers/rule-tester.js';

const daemonSet = (hostnames: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: efs-csi-node, namespace: kube-system}
spec:
  selector: {matchLabels: {app: efs-csi-node}}
  template:
    metadata: {labels: {app: efs-csi-node}}
    spec:
      hostAliases:
        - ip: 10.1.2.3
          hostnames: ${hostnames}
      containers: [{name: efs-plugin, image: public.ecr.aws/efs-csi-driver/amazon/aws-efs-csi-driver:v2.1.0}]
`;

ruleTester(rule, {
  valid: [
    { name: 'an Availability-Zone-specific name', code: daemonSet('[us-east-1b.fs-0abc1234def567890.efs.us-east-1.amazonaws.com]') },
    { name: 'another host', code: daemonSet('[db.internal.example.com]') },
    { name: 'no hostAliases', code: daemonSet('[]') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'the EFS CSI node DaemonSet pins the regional name',
      code: daemonSet('[nfs.example.com, fs-0abc1234def567890.efs.us-east-1.amazonaws.com]'),
      errors: [{
        messageId: 'pinned', severity: 'warning', path: ['spec', 'template', 'spec', 'hostAliases', 0, 'hostnames', 1],
        messageIncludes: ['pins EFS name fs-0abc1234def567890.efs.us-east-1.amazonaws.com to 10.1.2.3'],
      }],
    },
    { name: 'a China region name', code: daemonSet('[fs-0abc1234.efs.cn-north-1.amazonaws.com.cn]'), errors: [{ messageId: 'pinned' }] },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'pinned' }] })),
  ],
});
