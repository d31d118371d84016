import rule from '../../rules/pv-claimref-stale-uid.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pv = (claimRef: string, policy?: string, extra = '') => `apiVersion: v1
kind: PersistentVolume
metadata:
  name: pv-1${extra}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]${policy ? `\n  persistentVolumeReclaimPolicy: ${policy}` : ''}
  claimRef: {${claimRef}}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
`;

ruleTester(rule, {
  valid: [
    { name: 'a reservation by name and namespace', code: pv('name: data, namespace: apps', 'Delete') },
    { name: 'resourceVersion alone does not release the PV', code: pv('name: data, namespace: apps, resourceVersion: "42"', 'Delete') },
    { name: 'an empty uid', code: pv('name: data, namespace: apps, uid: ""', 'Delete') },
    { name: 'no claimRef', code: 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-1}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], nfs: {server: a, path: /}}\n' },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'Delete policy: error',
      code: pv('name: data, namespace: apps, uid: 0b6c', 'Delete'),
      errors: [{ messageId: 'staleUid', severity: 'error', path: ['spec', 'claimRef', 'uid'], messageIncludes: ['claimRef.uid "0b6c"', 'Released', 'deleted with its data'] }],
    },
    {
      name: 'Recycle policy: error',
      code: pv('name: data, namespace: apps, uid: 0b6c', 'Recycle'),
      errors: [{ messageId: 'staleUid', severity: 'error', messageIncludes: ['scrubbed'] }],
    },
    {
      name: 'Retain policy: warning',
      code: pv('name: data, namespace: apps, uid: 0b6c', 'Retain'),
      errors: [{ messageId: 'staleUid', severity: 'warning', messageIncludes: ['stays Released'] }],
    },
    {
      name: 'unset policy defaults to Retain',
      code: pv('name: data, namespace: apps, uid: 0b6c'),
      errors: [{ messageId: 'staleUid', severity: 'warning', messageIncludes: ['Retain (the default)'] }],
    },
    {
      name: 'signs of an export are named',
      code: pv('name: data, namespace: apps, uid: 0b6c, resourceVersion: "7"', 'Delete', '\n  annotations: {pv.kubernetes.io/bound-by-controller: "yes"}') + 'status: {phase: Bound}\n',
      errors: [{ messageId: 'staleUid', messageIncludes: ['claimRef.resourceVersion, annotation pv.kubernetes.io/bound-by-controller, a status block'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'staleUid', severity: 'error' as const }] })),
  ],
});
