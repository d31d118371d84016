import rule from '../../rules/sts-retention-delete.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sts = (policy: string, opts: { vct?: boolean; cls?: string; image?: string; mount?: string } = {}) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  persistentVolumeClaimRetentionPolicy: {${policy}}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: ${opts.image ?? 'registry.example.com/app:1'}, volumeMounts: [{name: data, mountPath: ${opts.mount ?? '/data'}}]}]${opts.vct === false ? '\n      volumes: [{name: data, emptyDir: {}}]' : `
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:${opts.cls ? `\n        storageClassName: ${opts.cls}` : ''}
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}`}
`;

const sc = (name: string, reclaim?: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ebs.csi.aws.com${reclaim ? `\nreclaimPolicy: ${reclaim}` : ''}
---
`;

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'Retain everywhere', code: sts('whenDeleted: Retain, whenScaled: Retain') },
    { name: 'no claim templates: nothing to delete', code: sts('whenDeleted: Delete, whenScaled: Delete', { vct: false }) },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'whenScaled', severity: 'warning' as const, line: 9 }] })),
    {
      name: 'both fields Delete, class with Delete',
      code: sc('gp3') + sts('whenDeleted: Delete, whenScaled: Delete', { cls: 'gp3', image: 'postgres:16', mount: '/var/lib/postgresql/data' }),
      errors: [
        { messageId: 'whenScaled', severity: 'warning', path: ['spec', 'persistentVolumeClaimRetentionPolicy', 'whenScaled'], messageIncludes: ['StorageClass "gp3"', 'PostgreSQL'] },
        { messageId: 'whenDeleted', severity: 'warning', messageIncludes: ['deleting the StatefulSet'] },
      ],
    },
    {
      name: 'Retain class: the volumes survive, note',
      code: sc('gp3-retain', 'Retain') + sts('whenDeleted: Delete', { cls: 'gp3-retain' }),
      errors: [{ messageId: 'whenDeleted', severity: 'note', messageIncludes: ['stay Released'] }],
    },
  ],
});
