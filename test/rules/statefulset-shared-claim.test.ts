import rule from '../../rules/statefulset-shared-claim.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string) => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: ${name}}
provisioner: ${provisioner}
`;
const pvc = (modes: string, storageClass: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared}
spec:
  storageClassName: ${storageClass}
  accessModes: [${modes}]
  resources: {requests: {storage: 10Gi}}
`;
const sts = (opts: { replicas?: number; readOnly?: boolean; vct?: string; volume?: string; podSpec?: string; image?: string; mountPath?: string } = {}) => `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:${opts.replicas !== undefined ? `\n  replicas: ${opts.replicas}` : ''}
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:${opts.podSpec ?? ''}
      containers: [{name: db, image: ${opts.image ?? 'registry.example.com/db:1'}, volumeMounts: [{name: ${opts.volume ?? 'data'}, mountPath: ${opts.mountPath ?? '/data'}${opts.readOnly ? ', readOnly: true' : ''}}]}]
      volumes:
        - name: ${opts.volume ?? 'data'}
          persistentVolumeClaim: {claimName: shared}${opts.vct ? `
  volumeClaimTemplates:
    - metadata: {name: ${opts.vct}}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}` : ''}
`;
const hpa = `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: db}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  minReplicas: 1
  maxReplicas: 4
`;
const ebs = sc('gp3', 'ebs.csi.aws.com');

ruleTester(rule, {
  valid: [
    { name: 'one replica', code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 1 }) },
    { name: 'default replicas (1)', code: ebs + pvc('ReadWriteOnce', 'gp3') + sts() },
    { name: 'a ReadWriteMany claim is shared on purpose', code: sc('efs', 'efs.csi.aws.com') + pvc('ReadWriteMany', 'efs') + sts({ replicas: 3 }) },
    { name: 'read-only mounts', code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 3, readOnly: true }) },
    { name: 'a volume shadowed by a claim template of the same name', code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 3, vct: 'data' }) },
    // ReadWriteOnce is one node, not one pod: replicas held on one node all mount the volume.
    { name: 'stays quiet on replicas pinned to one node by a hostname nodeSelector', code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 3, podSpec: '\n      nodeSelector: {kubernetes.io/hostname: node-a}' }) },
    { name: 'stays quiet on replicas pinned with nodeName', code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 2, podSpec: '\n      nodeName: node-a' }) },
    {
      name: 'stays quiet on replicas that require each other on the host',
      code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 3, podSpec: '\n      affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: db}}, topologyKey: kubernetes.io/hostname}]}}' }),
    },
  ],
  invalid: [
    {
      name: 'three replicas on one attachable ReadWriteOnce claim',
      code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 3 }),
      errors: [{ messageId: 'shared', severity: 'error', line: 28, path: ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'], messageIncludes: ['3 replicas', 'Multi-Attach', 'volumeClaimTemplates'] }],
    },
    {
      name: 'ReadWriteOnce on EFS is a warning',
      code: sc('efs', 'efs.csi.aws.com') + pvc('ReadWriteOnce', 'efs') + sts({ replicas: 2 }),
      errors: [{ messageId: 'shared', severity: 'warning', messageIncludes: ['nothing enforces ReadWriteOnce'] }],
    },
    {
      name: 'ReadWriteOncePod is an error',
      code: pvc('ReadWriteOncePod', 'whatever') + sts({ replicas: 2 }),
      errors: [{ messageId: 'shared', severity: 'error', messageIncludes: ['stays Pending'] }],
    },
    {
      name: 'an HPA that scales past one replica',
      code: ebs + pvc('ReadWriteOnce', 'gp3') + sts() + hpa,
      errors: [{ messageId: 'shared', messageIncludes: ['up to 4 replicas'] }],
    },
    {
      name: 'ReadWriteOncePod admits one pod even on one node',
      code: pvc('ReadWriteOncePod', 'whatever') + sts({ replicas: 2, podSpec: '\n      nodeName: node-a' }),
      errors: [{ messageId: 'shared', severity: 'error' }],
    },
    {
      name: 'database replicas pinned to one node share one data directory: a warning',
      code: ebs + pvc('ReadWriteOnce', 'gp3') + sts({ replicas: 2, podSpec: '\n      nodeName: node-a', image: 'mysql:8.4', mountPath: '/var/lib/mysql' }),
      errors: [{ messageId: 'sharedOnOneNode', severity: 'warning', messageIncludes: ['MySQL data directory', 'on one node'] }],
    },
    {
      name: 'a claim that is not in the repo is a note',
      code: sts({ replicas: 3 }),
      errors: [{ messageId: 'sharedExternal', severity: 'note' }],
    },
  ],
});
