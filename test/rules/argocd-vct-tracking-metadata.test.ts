import rule from '../../rules/argocd-vct-tracking-metadata.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sts = (meta: string, stsAnnotations = '') => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db${stsAnnotations ? `\n  annotations: {${stsAnnotations}}` : ''}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: app:1, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata:
        name: data
${meta.split('\n').map((l) => `        ${l}`).join('\n')}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`;

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'app.kubernetes.io/instance without any sign of Argo CD (a Helm chart)', code: sts('labels: {app.kubernetes.io/instance: db, app.kubernetes.io/name: db}') },
    { name: 'other Argo CD annotations are not tracking', code: sts('annotations: {argocd.argoproj.io/sync-options: Prune=false}') },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'tracking', severity: 'warning' as const, line: 15, messageIncludes: ['argocd.argoproj.io/instance: queue', 'volumeClaimTemplate "data"'] }],
    })),
    {
      name: 'tracking-id annotation',
      code: sts('annotations: {argocd.argoproj.io/tracking-id: "db:apps/StatefulSet:default/db"}'),
      errors: [{ messageId: 'tracking', line: 15, path: ['spec', 'volumeClaimTemplates', 0, 'metadata', 'annotations', 'argocd.argoproj.io/tracking-id'] }],
    },
    {
      name: 'app.kubernetes.io/instance on an Argo CD-managed StatefulSet: note',
      code: sts('labels: {app.kubernetes.io/instance: db}', 'argocd.argoproj.io/sync-wave: "1"'),
      errors: [{ messageId: 'instanceLabel', severity: 'note', messageIncludes: ['an Application named "db"'] }],
    },
  ],
});
