import rule from '../../rules/efs-storageclass-invalid.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (params: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
parameters:
${params.split('\n').map((l) => `  ${l}`).join('\n')}
`;

const GOOD = 'provisioningMode: efs-ap\nfileSystemId: fs-0123456789abcdef0\ndirectoryPerms: "700"';

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on a placeholder file system ID of x\'s', code: sc('provisioningMode: efs-ap\nfileSystemId: fs-xxxxxxxx\ndirectoryPerms: "700"') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'every documented parameter', code: sc(`${GOOD}\nuid: "1000"\ngid: "1000"\ngidRangeStart: "1000"\ngidRangeEnd: "2000"\nbasePath: /dynamic\nsubPathPattern: \${.PVC.namespace}/\${.PVC.name}\nensureUniqueDirectory: "true"\nreuseAccessPoint: "false"\nenableTagging: "true"`) },
    { name: 'file-system ARN', code: sc('provisioningMode: efs-ap\nfileSystemId: arn:aws:elasticfilesystem:eu-west-1:111122223333:file-system/fs-0123456789abcdef0\ndirectoryPerms: "700"') },
    { name: 'file system from a ConfigMap', code: sc('provisioningMode: efs-ap\nfileSystemIdConfigRef: kube-system/efs-config/fsid\ndirectoryPerms: "700"') },
    { name: 'templated file system ID', code: sc('provisioningMode: efs-ap\nfileSystemId: ${efs_id}\ndirectoryPerms: "700"') },
    { name: 'shared directory pattern that still identifies the claim', code: sc(`${GOOD}\nensureUniqueDirectory: "false"\nsubPathPattern: \${.PVC.namespace}/\${.PVC.name}`) },
    { name: 'other provisioners are not judged', code: sc('type: gp3').replace('efs.csi.aws.com', 'ebs.csi.aws.com') },
    { name: 'Immediate binding is fine for EFS', code: sc(`${GOOD}\nenforceZoneAffinity: "true"`) + 'volumeBindingMode: Immediate\n' },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'missing', severity: 'error' as const, line: 5, messageIncludes: ['no provisioningMode parameter'] }],
    })),
    { name: 'unsupported provisioning mode', code: sc('provisioningMode: efs-fs\nfileSystemId: fs-0123456789abcdef0\ndirectoryPerms: "700"'), errors: [{ messageId: 'mode', severity: 'warning', line: 6, messageIncludes: ['as of aws-efs-csi-driver commit a4fc676'] }] },
    { name: 'no file-system source', code: sc('provisioningMode: efs-ap\ndirectoryPerms: "700"'), errors: [{ messageId: 'missing', messageIncludes: ['fileSystemId'] }] },
    {
      name: 'misspelt fileSystemId is pointed at',
      code: sc('provisioningMode: efs-ap\nfileSystemID: fs-0123456789abcdef0\ndirectoryPerms: "700"'),
      errors: [{ messageId: 'missing', line: 7, messageIncludes: ['"fileSystemID" a misspelling'] }],
    },
    { name: 'two file-system sources', code: sc(`${GOOD}\nfileSystemIdSecretRef: kube-system/efs/fsid`), errors: [{ messageId: 'fsSources', line: 9 }] },
    { name: 'a DNS name is not a file system ID', code: sc('provisioningMode: efs-ap\nfileSystemId: fs-0123456789abcdef0.efs.eu-west-1.amazonaws.com\ndirectoryPerms: "700"'), errors: [{ messageId: 'fileSystemId' }] },
    { name: 'directoryPerms missing', code: sc('provisioningMode: efs-ap\nfileSystemId: fs-0123456789abcdef0'), errors: [{ messageId: 'missing', messageIncludes: ['directoryPerms'] }] },
    { name: 'only one end of the GID range', code: sc(`${GOOD}\ngidRangeStart: "1000"`), errors: [{ messageId: 'gidRange', messageIncludes: ['without gidRangeEnd'] }] },
    { name: 'GID range end not above start', code: sc(`${GOOD}\ngidRangeStart: "2000"\ngidRangeEnd: "1000"`), errors: [{ messageId: 'gidOrder' }] },
    { name: 'non-numeric uid', code: sc(`${GOOD}\nuid: root`), errors: [{ messageId: 'integer' }] },
    {
      name: 'unique directory off with a fixed pattern: warning',
      code: sc(`${GOOD}\nensureUniqueDirectory: "false"\nsubPathPattern: /shared/\${.PVC.name}`),
      errors: [{ messageId: 'sharedDirectory', severity: 'warning' }],
    },
  ],
});
