import rule from '../../rules/database-replicas-share-rwo-claim.js';
import { ruleTester } from '../helpers/rule-tester.js';

const claim = (modes = '[ReadWriteOnce]') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-data, namespace: shop}
spec:
  accessModes: ${modes}
  storageClassName: gp3
  resources: {requests: {storage: 20Gi}}
---
`;
const workload = (o: { kind?: string; replicas?: number; image?: string; extra?: string; readOnly?: boolean; args?: string } = {}) => `apiVersion: apps/v1
kind: ${o.kind ?? 'Deployment'}
metadata: {name: db, namespace: shop}
spec:
  replicas: ${o.replicas ?? 2}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:${o.extra ?? ''}
      containers:
        - name: db
          image: ${o.image ?? 'mysql:8.4'}${o.args ?? ''}
          volumeMounts: [{name: data, mountPath: /var/lib/mysql${o.readOnly ? ', readOnly: true' : ''}}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: db-data}
`;

ruleTester(rule, {
  valid: [
    { name: 'one replica', code: claim() + workload({ replicas: 1 }) },
    { name: 'a ReadWriteOncePod claim', code: claim('[ReadWriteOncePod]') + workload() },
    { name: 'a ReadWriteMany claim (database-on-network-fs\'s concern)', code: claim('[ReadWriteMany]') + workload() },
    { name: 'not a database image', code: claim() + workload({ image: 'nginx:1.27' }) },
    { name: 'a read-only mount', code: claim() + workload({ readOnly: true }) },
    { name: 'a Redis cache without persistence', code: claim() + workload({ image: 'redis:7' }) },
    { name: 'a claim not in the repo', code: workload() },
    { name: 'a StatefulSet is statefulset-shared-claim\'s', code: claim() + workload({ kind: 'StatefulSet' }).replace('spec:\n  replicas', 'spec:\n  serviceName: db\n  replicas') },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'two MySQL replicas on one RWO claim: a warning at the claimName',
      code: claim() + workload(),
      errors: [{
        messageId: 'shared', severity: 'warning', resource: 'Deployment/shop/db',
        path: ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'],
        messageIncludes: ['runs 2 replicas of MySQL on ReadWriteOnce PersistentVolumeClaim "db-data"', 'replicas scheduled on the same node'],
      }],
    },
    {
      name: 'pods held on one node: an error',
      code: claim() + workload({ extra: '\n      nodeSelector: {kubernetes.io/hostname: db-node-1}' }),
      errors: [{ messageId: 'shared', severity: 'error', messageIncludes: ['held on one node'] }],
    },
    {
      name: 'an HPA that scales the database out',
      code: claim() + workload({ replicas: 1, image: 'postgres:16' }).replace(/mountPath: \/var\/lib\/mysql/, 'mountPath: /var/lib/postgresql/data') + `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: db, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: db}
  minReplicas: 1
  maxReplicas: 3
`,
      errors: [{ messageId: 'shared', messageIncludes: ['up to 3 pods', 'PostgreSQL'] }],
    },
    {
      name: 'Redis with append-only persistence is a datastore',
      code: claim() + workload({ image: 'redis:7', args: '\n          args: ["--appendonly", "yes"]' }),
      errors: [{ messageId: 'shared' }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'shared' }] })),
  ],
});
