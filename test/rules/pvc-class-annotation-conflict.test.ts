import rule from '../../rules/pvc-class-annotation-conflict.js';
import { ruleTester } from '../helpers/rule-tester.js';

const pvc = (annotation: string | undefined, spec: string | undefined) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: apps${annotation !== undefined ? `\n  annotations: {volume.beta.kubernetes.io/storage-class: "${annotation}"}` : ''}
spec:${spec !== undefined ? `\n  storageClassName: "${spec}"` : ''}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;

ruleTester(rule, {
  valid: [
    { name: 'spec only', code: pvc(undefined, 'fast') },
    { name: 'neither', code: pvc(undefined, undefined) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'annotation and spec differ',
      code: pvc('slow', 'fast'),
      errors: [{ messageId: 'conflict', severity: 'error', path: ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'], line: 6, messageIncludes: ['uses class "slow", not the "fast"'] }],
    },
    { name: 'annotation "" against a class', code: pvc('', 'fast'), errors: [{ messageId: 'conflict' }] },
    { name: 'annotation alone is a note', code: pvc('slow', undefined), errors: [{ messageId: 'deprecated', severity: 'note' }] },
    { name: 'annotation equal to spec is a note', code: pvc('fast', 'fast'), errors: [{ messageId: 'deprecated', severity: 'note' }] },
    {
      name: 'a PersistentVolume',
      code: 'apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-1\n  annotations: {volume.beta.kubernetes.io/storage-class: slow}\nspec:\n  storageClassName: fast\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n  nfs: {server: a, path: /}\n',
      errors: [{ messageId: 'conflict', messageIncludes: ['PersistentVolume "pv-1"'] }],
    },
    {
      name: 'a StatefulSet claim template',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres}]}
  volumeClaimTemplates:
    - metadata:
        name: data
        annotations: {volume.beta.kubernetes.io/storage-class: slow}
      spec: {storageClassName: fast, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
      errors: [{ messageId: 'conflict', path: ['spec', 'volumeClaimTemplates', 0, 'metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'], messageIncludes: ['volumeClaimTemplate "data" of StatefulSet "db"'] }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'conflict', severity: 'error' as const }] })),
  ],
});
