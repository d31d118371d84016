import rule from '../../rules/reclaim-delete-stateful-data.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, reclaim?: string, extra = '') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}${extra}}
provisioner: ebs.csi.aws.com${reclaim ? `\nreclaimPolicy: ${reclaim}` : ''}
---
`;

const sts = (vctClass?: string, image = 'registry.example.com/app:1') => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: ${image}, volumeMounts: [{name: data, mountPath: /var/lib/mysql}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:${vctClass !== undefined ? `\n        storageClassName: ${vctClass}` : ''}
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
`;

const pvc = (name: string, cls?: string, annotations = '') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}${annotations ? `\n  annotations: {${annotations}}` : ''}
spec:${cls !== undefined ? `\n  storageClassName: ${cls}` : ''}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
---
`;

const deployment = (claim: string, image: string, mountPath: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: ${image}, volumeMounts: [{name: data, mountPath: ${mountPath}}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: ${claim}}}]
`;

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'class not in the repo', code: sts('gp3') },
    { name: 'Retain class', code: sc('gp3', 'Retain') + sts('gp3') },
    { name: 'default class with Retain', code: sc('gp3', 'Retain', ', annotations: {storageclass.kubernetes.io/is-default-class: "true"}') + sts() },
    { name: 'static binding (class "")', code: sc('gp3') + sts('""') },
    { name: 'a Deployment claim without a database is not stateful data here', code: sc('gp3') + pvc('uploads', 'gp3') + deployment('uploads', 'nginx:1.27', '/usr/share/nginx/html') },
    { name: 'redis as a cache', code: sc('gp3') + pvc('cache', 'gp3') + deployment('cache', 'redis:7', '/data') },
    {
      name: 'PersistentVolume with Retain or without a policy',
      code: `apiVersion: v1
kind: PersistentVolume
metadata: {name: a}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: b}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-2}
`,
    },
    {
      name: 'a PV reserved for the first ordinal decides instead of the class',
      code: sc('gp3') + sts('gp3') + `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: data-db-0}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  claimRef: {namespace: default, name: data-db-0}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-3}
`,
    },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'template', severity: 'note' as const, line: 20, messageIncludes: ['StatefulSet "pg"', 'PostgreSQL data', 'StorageClass "gp3" sets no reclaimPolicy, so it is Delete'] }],
    })),
    {
      name: 'explicit Delete on the class',
      code: sc('gp3', 'Delete') + sts('gp3'),
      errors: [{ messageId: 'template', line: 20, messageIncludes: ['has reclaimPolicy: Delete'] }],
    },
    {
      name: 'default class applies: reported at the template spec',
      code: sc('gp3', undefined, ', annotations: {storageclass.kubernetes.io/is-default-class: "true"}') + sts(undefined, 'mysql:8.4'),
      errors: [{ messageId: 'template', line: 18, path: ['spec', 'volumeClaimTemplates', 0, 'spec'], messageIncludes: ['MySQL data at /var/lib/mysql'] }],
    },
    {
      name: 'a Deployment running PostgreSQL on a Delete claim',
      code: sc('gp3') + pvc('pg-data', 'gp3') + deployment('pg-data', 'postgres:16', '/var/lib/postgresql/data'),
      errors: [{ messageId: 'claim', severity: 'note', line: 11, path: ['spec', 'storageClassName'] }],
    },
    {
      name: 'a database claim that Argo CD would also prune: warning',
      code: sc('gp3') + pvc('pg-data', 'gp3', 'argocd.argoproj.io/sync-wave: "-1"') + deployment('pg-data', 'postgres:16', '/var/lib/postgresql/data'),
      errors: [{ messageId: 'claim', severity: 'warning', messageIncludes: ['Argo CD pruning', 'Argo CD manages it'] }],
    },
    {
      name: 'PersistentVolume written with Delete',
      code: `apiVersion: v1
kind: PersistentVolume
metadata: {name: imported}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Delete
  claimRef: {namespace: shop, name: orders}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
`,
      errors: [{ messageId: 'volume', line: 7, messageIncludes: ['its claim "shop/orders"'] }],
    },
  ],
});
