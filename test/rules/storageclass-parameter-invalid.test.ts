import { readFileSync } from 'node:fs';
import path from 'node:path';
import rule from '../../rules/storageclass-parameter-invalid.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { ruleTester } from '../helpers/rule-tester.js';

const fixture = (name: string) => readFileSync(path.join(PROJECT_ROOT, 'test', 'fixtures', 'precision', 'storageclass-parameters', name), 'utf8');

const sc = (provisioner: string, parameters: string, extra = '') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: c}
provisioner: ${provisioner}
parameters:
${parameters}${extra}
`;

ruleTester(rule, {
  valid: [
    { name: 'known prefixed keys', code: sc('ebs.csi.aws.com', '  csi.storage.k8s.io/fstype: xfs\n  csi.storage.k8s.io/provisioner-secret-name: s\n  csi.storage.k8s.io/provisioner-secret-namespace: ns\n  csi.storage.k8s.io/node-expand-secret-name: s\n  csi.storage.k8s.io/secret-name: s') },
    { name: 'a deprecated unprefixed fsType alone', code: sc('ebs.csi.aws.com', '  fsType: ext4') },
    { name: 'iops alone', code: sc('ebs.csi.aws.com', '  type: io2\n  iops: "3000"') },
    { name: 'iops and iopsPerGB on another driver are not EBS\'s rule', code: sc('example.com/x', '  iops: "1"\n  iopsPerGB: "2"') },
    { name: 'prefixed keys on a non-CSI provisioner are not checked', code: sc('rancher.io/local-path', '  csi.storage.k8s.io/whatever: x') },
    { name: 'a null value is ignored', code: sc('ebs.csi.aws.com', '  kmsKeyId:') },
    { name: 'controller-modify secret keys (external-provisioner v6.2.0): rook\'s NVMe-oF example class', code: fixture('rook-nvmeof-storageclass-external.yaml') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    { name: 'a number', code: sc('ebs.csi.aws.com', '  iopsPerGB: 10'), errors: [{ messageId: 'notString', severity: 'error', path: ['parameters', 'iopsPerGB'], line: 6, messageIncludes: ['is a number'] }] },
    { name: 'a boolean', code: sc('example.com/x', '  encrypted: true'), errors: [{ messageId: 'notString', messageIncludes: ['is a boolean'] }] },
    {
      name: 'a known prefixed key in other letter case is certain to fail: an error',
      code: sc('ebs.csi.aws.com', '  csi.storage.k8s.io/fsType: xfs'),
      errors: [{ messageId: 'miscasedPrefixed', severity: 'error', path: ['parameters', 'csi.storage.k8s.io/fsType'], messageIncludes: ['knows "csi.storage.k8s.io/fstype"'] }],
    },
    {
      name: 'a prefixed key pvlint\'s list does not know is a warning naming the list\'s version',
      code: sc('smb.csi.k8s.io', '  csi.storage.k8s.io/mount-options: x'),
      errors: [{ messageId: 'unknownPrefixed', severity: 'warning', messageIncludes: ['external-provisioner v6.2.0 (the release pvlint\'s list'] }],
    },
    { name: 'an in-tree name migrated to CSI', code: sc('kubernetes.io/aws-ebs', '  csi.storage.k8s.io/foo: x'), errors: [{ messageId: 'unknownPrefixed', severity: 'warning' }] },
    {
      name: 'two fstype keys',
      code: sc('pd.csi.storage.gke.io', '  fstype: ext4\n  csi.storage.k8s.io/fstype: xfs'),
      errors: [{ messageId: 'twoFsTypes', path: ['parameters', 'csi.storage.k8s.io/fstype'], messageIncludes: ['"fstype" and "csi.storage.k8s.io/fstype"'] }],
    },
    {
      name: 'iops and iopsPerGB on EBS, case-insensitive',
      code: sc('ebs.csi.aws.com', '  type: io2\n  IOPS: "3000"\n  iopsPerGB: "50"'),
      errors: [{ messageId: 'ebsIops', path: ['parameters', 'iopsPerGB'], messageIncludes: ['both IOPS and iopsPerGB'] }],
    },
    {
      name: 'too many parameters',
      code: sc('example.com/x', Array.from({ length: 513 }, (_, i) => `  p${i}: "v"`).join('\n')),
      errors: [{ messageId: 'tooMany', messageIncludes: ['513 parameters'] }],
    },
    {
      name: 'documented invalid example 1',
      code: rule.meta.examples.invalid[0],
      errors: [{ messageId: 'miscasedPrefixed' }, { messageId: 'ebsIops' }],
    },
  ],
});
