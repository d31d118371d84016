import rule from '../../rules/csi-duplicate-volume-handle.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pv = (name: string, handle: string, opts: { driver?: string; claimRef?: string } = {}) => `---
apiVersion: v1
kind: PersistentVolume
metadata:
  name: ${name}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""${opts.claimRef ? `\n  claimRef: {${opts.claimRef}}` : ''}
  csi:
    driver: ${opts.driver ?? 'efs.csi.aws.com'}
    volumeHandle: "${handle}"
`;
const pvc = (name: string, volumeName?: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
spec:
  storageClassName: ""
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 5Gi}}${volumeName ? `\n  volumeName: ${volumeName}` : ''}
`;
const deployment = (name: string, ...claims: string[]) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  template:
    spec:
      containers:
        - name: app
          image: app
          volumeMounts: [${claims.map((c) => `{name: ${c}, mountPath: /${c}}`).join(', ')}]
      volumes:
${claims.map((c) => `        - {name: ${c}, persistentVolumeClaim: {claimName: ${c}}}`).join('\n')}
`;

ruleTester(rule, {
  valid: [
    { name: 'one ${VAR} placeholder in several PVs is not one volume', code: pv('a', '${VOLUME_ID}') + pv('b', '${VOLUME_ID}') },
    { name: 'distinct handles', code: pv('a', 'fs-0123456789abcdef0:/a') + pv('b', 'fs-0123456789abcdef0:/b') },
    { name: 'distinct access points', code: pv('a', 'fs-0123456789abcdef0::fsap-0123456789abcdef0') + pv('b', 'fs-0123456789abcdef0::fsap-0123456789abcdef1') },
    { name: 'the same PV written twice (overlays) is one object', code: pv('a', 'fs-0123456789abcdef0') + pv('a', 'fs-0123456789abcdef0') },
    { name: 'equal handles of different drivers', code: pv('a', 'vol-1', { driver: 'ebs.csi.aws.com' }) + pv('b', 'vol-1', { driver: 'disk.csi.azure.com' }) },
    { name: 'efs: prefix on a single PV is fine', code: pv('a', 'efs:fs-0123456789abcdef0') + pv('b', 'fs-0123456789abcdef1') },
    { name: 'the efs: prefix only matters for the EFS driver', code: pv('a', 'efs:vol', { driver: 'example.com/x' }) + pv('b', 'vol', { driver: 'example.com/x' }) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'two PVs with one handle: warning on the second',
      code: pv('a', 'fs-0123456789abcdef0') + pv('b', 'fs-0123456789abcdef0'),
      errors: [{
        messageId: 'duplicate', severity: 'warning', resource: 'PersistentVolume//b', line: 24, path: ['spec', 'csi', 'volumeHandle'],
        messageIncludes: ['PersistentVolume "b"', 'PersistentVolume "a"', 'driver efs.csi.aws.com, volumeHandle "fs-0123456789abcdef0"'],
      }],
    },
    {
      name: 'three PVs with one handle: every later one',
      code: pv('a', 'h') + pv('b', 'h') + pv('c', 'h'),
      errors: [
        { messageId: 'duplicate', resource: 'PersistentVolume//b', messageIncludes: ['as PersistentVolumes "a" and "c"'] },
        { messageId: 'duplicate', resource: 'PersistentVolume//c', messageIncludes: ['as PersistentVolumes "a" and "b"'] },
      ],
    },
    {
      name: 'one pod mounts both through claims with volumeName: error',
      code: pv('a', 'fs-0123456789abcdef0') + pv('b', 'fs-0123456789abcdef0') + pvc('one', 'a') + pvc('two', 'b') + deployment('web', 'one', 'two'),
      errors: [{
        messageId: 'sharedInPod', severity: 'error', resource: 'PersistentVolume//b',
        messageIncludes: ['PersistentVolumes "b" and "a"', 'Deployment "web" mounts both (claims "two" and "one")', 'ContainerCreating'],
      }],
    },
    {
      name: 'one pod mounts both through claimRef reservations: error',
      code: pv('a', 'h', { claimRef: 'name: one, namespace: default' }) + pv('b', 'h', { claimRef: 'name: two, namespace: default' }) +
        pvc('one') + pvc('two') + deployment('web', 'one', 'two'),
      errors: [{ messageId: 'sharedInPod', severity: 'error' }],
    },
    {
      name: 'a StatefulSet pod mounts two claim-template claims with one handle: error',
      code: pv('a', 'h', { claimRef: 'name: data-db-0, namespace: default' }) + pv('b', 'h', { claimRef: 'name: logs-db-0, namespace: default' }) + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  template:
    spec:
      containers: [{name: db, image: db, volumeMounts: [{name: data, mountPath: /data}, {name: logs, mountPath: /logs}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: "", accessModes: [ReadWriteMany], resources: {requests: {storage: 5Gi}}}
    - metadata: {name: logs}
      spec: {storageClassName: "", accessModes: [ReadWriteMany], resources: {requests: {storage: 5Gi}}}
`,
      errors: [{ messageId: 'sharedInPod', severity: 'error', messageIncludes: ['StatefulSet "db" mounts both (claims "logs-db-0" and "data-db-0")'] }],
    },
    {
      name: 'different pods using the two PVs: warning only',
      code: pv('a', 'h') + pv('b', 'h') + pvc('one', 'a') + pvc('two', 'b') + deployment('web', 'one') + deployment('worker', 'two'),
      errors: [{ messageId: 'duplicate', severity: 'warning' }],
    },
    {
      name: 'efs: prefixed and plain handles name the same EFS target',
      code: pv('a', 'fs-0123456789abcdef0:/data') + pv('b', 'efs:fs-0123456789abcdef0:/data'),
      errors: [{
        messageId: 'efsAlias', severity: 'warning', resource: 'PersistentVolume//b', path: ['spec', 'csi', 'volumeHandle'],
        messageIncludes: ['"efs:fs-0123456789abcdef0:/data"', 'PersistentVolume "a" (volumeHandle "fs-0123456789abcdef0:/data")'],
      }],
    },
    {
      name: 'an exact duplicate is not reported again as an EFS alias',
      code: pv('a', 'fs-0123456789abcdef0') + pv('b', 'efs:fs-0123456789abcdef0') + pv('c', 'fs-0123456789abcdef0'),
      errors: [
        { messageId: 'duplicate', resource: 'PersistentVolume//c' },
        { messageId: 'efsAlias', resource: 'PersistentVolume//b' },
      ],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'duplicate', severity: 'warning' as const }] })),
  ],
});
