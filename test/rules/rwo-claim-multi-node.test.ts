import rule from '../../rules/rwo-claim-multi-node.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (name: string, provisioner: string, extra = '') => `---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: ${name}${extra}
provisioner: ${provisioner}
`;
const pvc = (name: string, modes: string, storageClass?: string, extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: ${name}
spec:${storageClass === undefined ? '' : `\n  storageClassName: "${storageClass}"`}
  accessModes: [${modes}]
  resources: {requests: {storage: 1Gi}}${extra}
`;
/** A Deployment mounting `claim` at /data; `spec` lines go under the pod spec, `top` under the Deployment spec. */
const deployment = (name: string, claim: string, opts: { replicas?: string; podSpec?: string; readOnly?: boolean; labels?: string } = {}) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:${opts.replicas === undefined ? '' : `\n  replicas: ${opts.replicas}`}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}${opts.labels ?? ''}}
    spec:${opts.podSpec ?? ''}
      containers:
        - name: main
          image: busybox
          volumeMounts: [{name: data, mountPath: /data${opts.readOnly ? ', readOnly: true' : ''}}]
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: ${claim}
`;
const job = (name: string, claim: string, opts: { parallelism?: number; podSpec?: string; readOnly?: boolean } = {}) => `---
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:${opts.parallelism === undefined ? '' : `\n  parallelism: ${opts.parallelism}`}
  template:
    spec:${opts.podSpec ?? ''}
      restartPolicy: Never
      containers:
        - name: main
          image: busybox
          volumeMounts: [{name: data, mountPath: /data${opts.readOnly ? ', readOnly: true' : ''}}]
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: ${claim}
`;
const ebs = sc('gp3', 'ebs.csi.aws.com');
const efs = sc('efs', 'efs.csi.aws.com');

// Line numbers below count from the start of the concatenated YAML.
const replicasCase = ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '3' });

ruleTester(rule, {
  valid: [
    {
      name: 'stays quiet on a ReadWriteMany CephFS claim shared by replicas',
      code: sc('cephfs', 'rook-ceph.cephfs.csi.ceph.com') + pvc('data', 'ReadWriteMany', 'cephfs') + deployment('web', 'data', { replicas: '3' }),
    },
    {
      name: 'stays quiet on a ReadWriteMany NFS CSI claim shared by two workloads',
      code: sc('nfs', 'nfs.csi.k8s.io') + pvc('data', 'ReadWriteMany', 'nfs') + deployment('web', 'data', { replicas: '2' }) + job('backup', 'data'),
    },
    { name: 'a single replica of a RWO claim', code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '1' }) },
    { name: 'a ReadWriteMany claim shared by replicas', code: efs + pvc('data', 'ReadWriteMany', 'efs') + deployment('web', 'data', { replicas: '3' }) },
    {
      name: 'ReadWriteOnce + ReadWriteMany modes allow several nodes',
      code: efs + pvc('data', 'ReadWriteOnce, ReadWriteMany', 'efs') + deployment('web', 'data', { replicas: '3' }),
    },
    {
      name: 'a multi-replica StatefulSet on one pod-template claim is left to statefulset-shared-claim',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`,
    },
    {
      name: 'StatefulSet volumeClaimTemplates are one claim per pod',
      code: ebs + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
    {
      name: 'generic ephemeral volumes are one claim per pod',
      code: ebs + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: scratch, mountPath: /scratch}]}]
      volumes:
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              spec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
    {
      name: 'a StatefulSet volume shadowed by a claim template of the same name is per pod',
      code: ebs + pvc('shared', 'ReadWriteOnce', 'gp3') + `---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  template:
    spec:
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: shared}}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`,
    },
    { name: 'a claim that is not in the repo has unknown access modes', code: deployment('web', 'elsewhere', { replicas: '3' }) },
    { name: 'replicas that are not an integer are not counted', code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '"3"' }) },
    {
      name: 'replicas pinned to one node by a hostname nodeSelector',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '3', podSpec: '\n      nodeSelector: {kubernetes.io/hostname: node-a}' }),
    },
    {
      name: 'replicas pinned by required nodeAffinity on one hostname',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', {
        replicas: '2',
        podSpec: `
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-a]}]`,
      }),
    },
    {
      name: 'replicas that require each other on the same host',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', {
        replicas: '2',
        podSpec: `
      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: kubernetes.io/hostname
              labelSelector: {matchLabels: {app: web}}`,
      }),
    },
    {
      name: 'two workloads pinned to the same node',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') +
        deployment('web', 'data', { podSpec: '\n      nodeName: node-a' }) + job('backup', 'data', { podSpec: '\n      nodeName: node-a' }),
    },
    {
      name: 'a Job that requires podAffinity to the Deployment pods on the same host',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data') + job('backup', 'data', {
        podSpec: `
      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: kubernetes.io/hostname
              labelSelector:
                matchExpressions: [{key: app, operator: In, values: [web]}]`,
      }),
    },
    {
      name: 'ReadOnlyMany in the modes and every user read-only',
      code: sc('pd', 'pd.csi.storage.gke.io') + pvc('data', 'ReadWriteOnce, ReadOnlyMany', 'pd') +
        deployment('web', 'data', { replicas: '3', readOnly: true }) + job('scan', 'data', { readOnly: true }),
    },
    {
      name: 'a node-local volume keeps every pod on its node',
      code: sc('local-path', 'rancher.io/local-path') + pvc('data', 'ReadWriteOnce', 'local-path') + deployment('web', 'data', { replicas: '3' }),
    },
    {
      name: 'read-only users of a non-attachable RWO volume are harmless',
      code: efs + pvc('data', 'ReadWriteOnce', 'efs') + deployment('web', 'data', { replicas: '3', readOnly: true }) + job('scan', 'data', { readOnly: true }),
    },
    {
      name: 'a Deployment scaled to zero does not run pods',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '0' }) + job('backup', 'data'),
    },
    {
      name: 'the same Deployment written twice is one workload',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data') + deployment('web', 'data'),
    },
    {
      name: 'the bound PV in the repo decides the access modes',
      code: pvc('data', 'ReadWriteOnce', '', '\n  volumeName: share') + `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: share}
spec:
  storageClassName: ""
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce, ReadWriteMany]
  nfs: {server: 10.0.0.1, path: /share}
` + deployment('web', 'data', { replicas: '3' }),
    },
    {
      name: 'a claim in another namespace is another claim',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data').replace('name: web\n', 'name: web\n  namespace: other\n') + job('backup', 'data'),
    },
  ],
  invalid: [
    {
      name: 'replicas > 1 on an attachable RWO claim',
      code: replicasCase,
      errors: [{
        messageId: 'replicas', severity: 'error', line: 22, resource: 'Deployment//web', path: ['spec', 'replicas'],
        messageIncludes: ['Deployment "web"', '3 replicas (spec.replicas: 3)', 'ReadWriteOnce PersistentVolumeClaim "data" (ebs.csi.aws.com)', 'Multi-Attach'],
      }],
    },
    {
      name: 'an HPA with maxReplicas > 1',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data') + `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
`,
      errors: [{ messageId: 'replicas', severity: 'error', path: ['spec', 'replicas'], messageIncludes: ['up to 5 pods', 'HorizontalPodAutoscaler "web"'] }],
    },
    {
      name: 'a DaemonSet writer is reported at the claimName',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + `---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  template:
    spec:
      containers: [{name: agent, image: agent, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: data
`,
      errors: [{
        messageId: 'replicas', severity: 'error', line: 27,
        path: ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'],
        messageIncludes: ['DaemonSet "agent" runs one pod on every eligible node'],
      }],
    },
    {
      name: 'a Job with parallelism > 1',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + job('crunch', 'data', { parallelism: 4 }),
      errors: [{ messageId: 'replicas', severity: 'error', path: ['spec', 'parallelism'], messageIncludes: ['up to 4 pods at once (spec.parallelism: 4)'] }],
    },
    {
      name: 'a Deployment and a CronJob share a ReadWriteOncePod claim',
      code: pvc('reports', 'ReadWriteOncePod') + deployment('api', 'reports') + `---
apiVersion: batch/v1
kind: CronJob
metadata: {name: export}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: export, image: exporter, volumeMounts: [{name: reports, mountPath: /reports}]}]
          volumes:
            - name: reports
              persistentVolumeClaim:
                claimName: reports
`,
      errors: [{
        messageId: 'sharedWorkloads', severity: 'error', resource: 'CronJob//export', line: 43,
        path: ['spec', 'jobTemplate', 'spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'],
        messageIncludes: ['CronJob "export" and Deployment "api" both mount ReadWriteOncePod PersistentVolumeClaim "reports"', 'admits one pod'],
      }],
    },
    {
      name: 'a Pod, a Job with parallelism 1 and a Deployment are three workloads',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + `---
apiVersion: v1
kind: Pod
metadata: {name: debug}
spec:
  containers: [{name: sh, image: busybox, volumeMounts: [{name: data, mountPath: /data}]}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
` + job('backup', 'data', { parallelism: 1 }) + deployment('web', 'data'),
      errors: [
        { messageId: 'sharedWorkloads', severity: 'error', resource: 'Job//backup', messageIncludes: ['Job "backup" and Pod "debug"'] },
        { messageId: 'sharedWorkloads', severity: 'error', resource: 'Deployment//web', messageIncludes: ['Deployment "web" and Pod "debug"'] },
      ],
    },
    {
      name: 'a non-attachable driver only warns: nothing enforces RWO',
      code: efs + pvc('data', 'ReadWriteOnce', 'efs') + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'warning', messageIncludes: ['efs.csi.aws.com has no attach step', 'at the same time'] }],
    },
    {
      name: 'a class that is not in the repo is unknown: warning',
      code: pvc('data', 'ReadWriteOnce', 'fast') + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'warning', messageIncludes: ['StorageClass "fast" is not in the repo'] }],
    },
    {
      // A Flux variable without a value in the repo is left as written: it names no class, so it is not called a missing one.
      name: 'an unresolved ${VAR} class is a placeholder, not a StorageClass missing from the repo',
      code: pvc('data', 'ReadWriteOnce', '${CLUSTER_STORAGE_CLASS}') + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'warning', messageIncludes: ['storageClassName is "${CLUSTER_STORAGE_CLASS}", a placeholder for a variable pvlint could not resolve'] }],
    },
    {
      name: 'an unknown driver with volumeMode Block is attachable',
      code: sc('san', 'example.com/san') + pvc('disk', 'ReadWriteOnce', 'san', '\n  volumeMode: Block') + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: vm}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: vm, image: vm, volumeDevices: [{name: disk, devicePath: /dev/xvda}]}]
      volumes: [{name: disk, persistentVolumeClaim: {claimName: disk}}]
`,
      errors: [{ messageId: 'replicas', severity: 'error', messageIncludes: ['volumeMode: Block'] }],
    },
    {
      name: 'a CSIDriver in the repo with attachRequired false overrides',
      code: sc('vendor', 'disk.csi.azure.com') + pvc('data', 'ReadWriteOnce', 'vendor') + `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: disk.csi.azure.com}
spec: {attachRequired: false}
` + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'warning', messageIncludes: ['CSIDriver "disk.csi.azure.com" sets attachRequired: false'] }],
    },
    {
      name: 'a CSIDriver in the repo makes an unknown driver attachable',
      code: sc('vendor', 'example.com/disk') + pvc('data', 'ReadWriteOnce', 'vendor') + `---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: example.com/disk}
spec: {podInfoOnMount: true}
` + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'error', messageIncludes: ['CSIDriver "example.com/disk" requires attach'] }],
    },
    {
      name: 'ReadWriteOncePod is one pod even on one node',
      code: pvc('data', 'ReadWriteOncePod', 'gp3') + ebs + deployment('web', 'data', { replicas: '2', podSpec: '\n      nodeName: node-a' }),
      errors: [{ messageId: 'replicas', severity: 'error', messageIncludes: ['admits one pod in the whole cluster'] }],
    },
    {
      name: 'required podAntiAffinity spreads the replicas',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', {
        replicas: '3',
        podSpec: `
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: kubernetes.io/hostname
              labelSelector: {matchLabels: {app: web}}`,
      }),
      errors: [{ messageId: 'replicas', severity: 'error', messageIncludes: ['podAntiAffinity on kubernetes.io/hostname even puts each pod on a different node'] }],
    },
    {
      name: 'read-only replicas still need the volume attached on every node',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '3', readOnly: true }),
      errors: [{ messageId: 'replicas', severity: 'error' }],
    },
    {
      name: 'preferred (not required) podAffinity does not co-locate',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data') + job('backup', 'data', {
        podSpec: `
      affinity:
        podAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                topologyKey: kubernetes.io/hostname
                labelSelector: {matchLabels: {app: web}}`,
      }),
      errors: [{ messageId: 'sharedWorkloads', severity: 'error', resource: 'Job//backup' }],
    },
    {
      name: 'pins to different nodes do not co-locate',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') +
        deployment('web', 'data', { podSpec: '\n      nodeName: node-a' }) + job('backup', 'data', { podSpec: '\n      nodeName: node-b' }),
      errors: [{ messageId: 'sharedWorkloads', severity: 'error' }],
    },
    {
      name: 'the driver comes from a bound in-tree nfs PV',
      code: pvc('data', 'ReadWriteOnce', '', '\n  volumeName: share') + `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: share}
spec:
  storageClassName: ""
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: 10.0.0.1, path: /share}
` + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'warning', messageIncludes: ['kubernetes.io/nfs volumes have no attach step'] }],
    },
    {
      name: 'the default class in the repo gives the driver of a claim without class',
      code: sc('standard', 'kubernetes.io/aws-ebs', '\n  annotations: {storageclass.kubernetes.io/is-default-class: "true"}') +
        pvc('data', 'ReadWriteOnce') + deployment('web', 'data', { replicas: '2' }),
      errors: [{ messageId: 'replicas', severity: 'error', messageIncludes: ['kubernetes.io/aws-ebs (migrated to ebs.csi.aws.com)'] }],
    },
    {
      name: 'two claims on one multi-replica Deployment make one finding',
      code: ebs + efs + pvc('a', 'ReadWriteOnce', 'efs') + pvc('b', 'ReadWriteOnce', 'gp3') + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: a, mountPath: /a}, {name: b, mountPath: /b}]}]
      volumes:
        - {name: a, persistentVolumeClaim: {claimName: a}}
        - {name: b, persistentVolumeClaim: {claimName: b}}
`,
      errors: [{ messageId: 'replicas', severity: 'error', messageIncludes: ['"a" (efs.csi.aws.com), ReadWriteOnce PersistentVolumeClaim "b" (ebs.csi.aws.com)', 'Multi-Attach'] }],
    },
    {
      // A homelab's `storage-node: "true"` may be on one node (then the volume works) or several: the repo does not say.
      name: 'two workloads that require the same custom node label: a warning that names the label',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3')
        + deployment('web', 'data', { podSpec: '\n      nodeSelector: {example.com/storage-node: "true"}' })
        + job('backup', 'data', { podSpec: '\n      nodeSelector: {example.com/storage-node: "true"}' }),
      errors: [{ messageId: 'sharedWorkloads', severity: 'warning', messageIncludes: ['Multi-Attach', 'unless only one node carries the label example.com/storage-node=true'] }],
    },
    {
      name: 'replicas that require a custom node label: a warning',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3') + deployment('web', 'data', { replicas: '2', podSpec: '\n      nodeSelector: {disk: ssd-node-1}' }),
      errors: [{ messageId: 'replicas', severity: 'warning', messageIncludes: ['unless only one node carries the label disk=ssd-node-1'] }],
    },
    {
      name: 'a node-group label selects a pool of nodes: still an error',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3')
        + deployment('web', 'data', { podSpec: '\n      nodeSelector: {eks.amazonaws.com/nodegroup: storage}' })
        + job('backup', 'data', { podSpec: '\n      nodeSelector: {eks.amazonaws.com/nodegroup: storage}' }),
      errors: [{ messageId: 'sharedWorkloads', severity: 'error' }],
    },
    {
      name: 'different custom labels do not keep the pods together: an error',
      code: ebs + pvc('data', 'ReadWriteOnce', 'gp3')
        + deployment('web', 'data', { podSpec: '\n      nodeSelector: {role: web}' })
        + job('backup', 'data', { podSpec: '\n      nodeSelector: {role: batch}' }),
      errors: [{ messageId: 'sharedWorkloads', severity: 'error' }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: i === 0 ? 'replicas' : 'sharedWorkloads', severity: 'error' as const }] })),
  ],
});

ruleTester({ ...rule, id: `${rule.id} (documented examples)` }, {
  valid: rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  invalid: [],
});
