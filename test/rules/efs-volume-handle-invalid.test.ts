import rule from '../../rules/efs-volume-handle-invalid.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pv = (handle: string, extra = '', spec = '', driver = 'efs.csi.aws.com') => `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""${spec}
  csi:
    driver: ${driver}
    volumeHandle: "${handle}"${extra}
`;

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on a placeholder ID of x\'s (fs-xxxxxxxx)', code: pv('fs-xxxxxxxx') },
    { name: 'stays quiet on a placeholder access point (fsap-XXXXXXXXXXXXXXXXX)', code: pv('fs-0123456789abcdef0::fsap-XXXXXXXXXXXXXXXXX') },
    { name: 'stays quiet on an upper-case name a script replaces', code: pv('FILESYSTEM_ID') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'file system only', code: pv('fs-0123456789abcdef0') },
    { name: 'old 8-digit file system ID', code: pv('fs-e8a95a42') },
    { name: 'efs: prefix with access point', code: pv('efs:fs-e8a95a42::fsap-068c22f0246419f75') },
    { name: 'efs: prefix with path', code: pv('efs:fs-e8a95a42:/dir1') },
    { name: 's3files: prefix', code: pv('s3files:fs-0123456789abcdef0:/data/shared:fsap-0123456789abcdef0') },
    { name: 'empty trailing fields', code: pv('fs-0123456789abcdef0::') },
    { name: 'relative sub-path', code: pv('fs-0123456789abcdef0:a/b') },
    { name: 'mount-target DNS name', code: pv('fs-9919e11b.efs.us-east-1.amazonaws.com') },
    { name: 'templated handle is not judged', code: pv('${EFS_ID}::${EFS_AP}') },
    { name: 'placeholder handle is not judged', code: pv('efs:[Filesystem ID]') },
    { name: 'other drivers are not judged', code: pv('not-an-efs-handle', '', '', 'nfs.csi.k8s.io') },
    {
      name: 'documented volume attributes',
      code: pv('fs-0123456789abcdef0', '\n    volumeAttributes: {encryptInTransit: "true", mounttargetip: 10.0.1.20, crossaccount: "false", storage.kubernetes.io/csiProvisionerIdentity: 1700000000000-efs.csi.aws.com}'),
    },
    { name: 'same access point in handle and options', code: pv('fs-0123456789abcdef0::fsap-0123456789abcdef0', '', '\n  mountOptions: [tls, accesspoint=fsap-0123456789abcdef0]') },
    { name: 'ReadOnlyMany after ReadWriteMany', code: pv('fs-0123456789abcdef0').replace('[ReadWriteMany]', '[ReadWriteMany, ReadOnlyMany]') },
  ],
  invalid: [
    {
      name: 'a short real-looking ID is no placeholder',
      code: pv('fs-abc123:/data'),
      errors: [{ messageId: 'handle', severity: 'error' }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'handle', severity: 'error' as const, line: 10, messageIncludes: ["invalid access point ID 'ap-0123456789abcdef0'"] }],
    })),
    {
      name: 'access point ARN adds fields',
      code: pv('fs-0123456789abcdef0::arn:aws:elasticfilesystem:eu-west-1:111122223333:access-point/fsap-0123456789abcdef0'),
      errors: [{ messageId: 'handle', line: 10, path: ['spec', 'csi', 'volumeHandle'], messageIncludes: ['Expected at most three fields'] }],
    },
    { name: 'file system ARN', code: pv('arn:aws:elasticfilesystem:eu-west-1:111122223333:file-system/fs-0123456789abcdef0'), errors: [{ messageId: 'handle' }] },
    { name: 'upper-case hex is not an EFS ID', code: pv('fs-0123456789ABCDEF0'), errors: [{ messageId: 'handle', messageIncludes: ["Expected a file system ID of the form 'fs-[0-9a-f]{8,40}'"] }] },
    { name: 'an unknown prefix', code: pv('nfs:fs-0123456789abcdef0::fsap-0123456789abcdef0'), errors: [{ messageId: 'handle', messageIncludes: ['at most three fields'] }] },
    {
      name: 'unsupported volume attribute, with a suggestion',
      code: pv('fs-0123456789abcdef0', '\n    volumeAttributes: {encrypInTransit: "true"}'),
      errors: [{ messageId: 'attribute', severity: 'error', line: 11, messageIncludes: ['encrypInTransit', 'did you mean encryptInTransit?'] }],
    },
    {
      name: 'deprecated path attribute: warning',
      code: pv('fs-0123456789abcdef0', '\n    volumeAttributes: {path: /data}'),
      errors: [{ messageId: 'pathAttribute', severity: 'warning', messageIncludes: ['fs-id:/data'] }],
    },
    { name: 'encryptInTransit must be a boolean', code: pv('fs-0123456789abcdef0', '\n    volumeAttributes: {encryptInTransit: "yes"}'), errors: [{ messageId: 'notBoolean' }] },
    { name: 'encryption off: note', code: pv('fs-0123456789abcdef0', '\n    volumeAttributes: {encryptInTransit: "false"}'), errors: [{ messageId: 'cleartext', severity: 'note' }] },
    {
      name: 'tls option with encryption off',
      code: pv('fs-0123456789abcdef0', '\n    volumeAttributes: {encryptInTransit: "false"}', '\n  mountOptions: [tls]'),
      errors: [{ messageId: 'cleartext', severity: 'note' }, { messageId: 'tlsConflict', severity: 'error', path: ['spec', 'mountOptions', 0] }],
    },
    {
      name: 'S3 Files cannot turn off encryption or go cross-account',
      code: pv('s3files:fs-0123456789abcdef0', '\n    volumeAttributes: {encryptInTransit: "false", crossaccount: "true"}', '\n  mountOptions: [stunnel]'),
      errors: [{ messageId: 's3files' }, { messageId: 's3files' }, { messageId: 's3files', messageIncludes: ['stunnel'] }],
    },
    {
      name: 'conflicting access point in mount options',
      code: pv('fs-0123456789abcdef0::fsap-0123456789abcdef0', '', '\n  mountOptions: [accesspoint=fsap-0fedcba9876543210]'),
      errors: [{ messageId: 'accessPointConflict', severity: 'error' }],
    },
    {
      name: 'access point only in mount options: note',
      code: pv('fs-0123456789abcdef0', '', '\n  mountOptions: [accesspoint=fsap-0fedcba9876543210]'),
      errors: [{ messageId: 'accessPointOption', severity: 'note' }],
    },
    { name: 'block volume', code: pv('fs-0123456789abcdef0', '', '\n  volumeMode: Block'), errors: [{ messageId: 'block', path: ['spec', 'volumeMode'] }] },
    {
      name: 'ReadOnlyMany first',
      code: pv('fs-0123456789abcdef0').replace('[ReadWriteMany]', '[ReadOnlyMany]'),
      errors: [{ messageId: 'readOnly', path: ['spec', 'accessModes', 0] }],
    },
  ],
});
