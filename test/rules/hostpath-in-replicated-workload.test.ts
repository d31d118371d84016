import rule from '../../rules/hostpath-in-replicated-workload.js';
import { ruleTester } from '../helpers/rule-tester.js';

const workload = (opts: { kind?: string; path: string; mountPath?: string; readOnly?: boolean; type?: string; pod?: string; image?: string; volume?: string; replicas?: number }) => `apiVersion: apps/v1
kind: ${opts.kind ?? 'Deployment'}
metadata: {name: app}
spec:${opts.replicas !== undefined ? `\n  replicas: ${opts.replicas}` : ''}
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:${opts.pod ?? ''}
      containers:
        - name: app
          image: ${opts.image ?? 'registry.example.com/app:1'}
          volumeMounts: [{name: ${opts.volume ?? 'host'}, mountPath: ${opts.mountPath ?? '/data'}${opts.readOnly ? ', readOnly: true' : ''}}]
      volumes:
        - name: ${opts.volume ?? 'host'}
          hostPath: {path: ${opts.path}${opts.type ? `, type: ${opts.type}` : ''}}
`;
/** A Deployment writing claim `data`. */
const writer = `apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: app, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;
const hostPathPv = (nodeAffinity = '') => `apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-host}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /mnt/data}
  claimRef: {namespace: default, name: data}${nodeAffinity}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: ""
  volumeName: pv-host
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
${writer}`;

/** A claim of class `manual` with no volumeName: it binds whichever PV of that class fits (the Kubernetes docs' task). */
const manualPv = (name: string, extra = '') => `apiVersion: v1
kind: PersistentVolume
metadata: {name: ${name}}
spec:
  storageClassName: manual
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  hostPath: {path: /mnt/${name}}${extra}
---
`;
const manualClaim = (storageClass = 'manual') => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  storageClassName: ${storageClass}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 3Gi}}
---
${writer}`;
const pinned = `
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]`;

ruleTester(rule, {
  valid: [
    { name: 'a DaemonSet (node agent)', code: workload({ kind: 'DaemonSet', path: '/srv/data' }) },
    { name: 'stays quiet on a DaemonSet keeping per-node state in a DirectoryOrCreate hostPath', code: workload({ kind: 'DaemonSet', path: '/var/lib/agent-state', type: 'DirectoryOrCreate' }) },
    { name: 'a read-only mount', code: workload({ path: '/srv/data', readOnly: true }) },
    { name: 'a system path', code: workload({ path: '/var/log' }) },
    { name: 'the container runtime socket', code: workload({ path: '/var/run/docker.sock', mountPath: '/var/run/docker.sock' }) },
    { name: 'a socket by type', code: workload({ path: '/srv/agent/agent.socket', type: 'Socket' }) },
    { name: 'a template pinned to one node', code: workload({ path: '/srv/data', pod: '\n      nodeSelector: {kubernetes.io/hostname: node-1}' }) },
    { name: 'Spark scratch space', code: workload({ path: '/mnt/k8s-disks/0', volume: 'spark-local-dir-1' }) },
    {
      name: 'a hostPath PV pinned by node affinity',
      code: hostPathPv(`
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]`),
    },
    { name: 'a class-matched claim that may also bind a pinned PV', code: manualPv('pv-a') + manualPv('pv-b', pinned) + manualClaim() },
    {
      name: 'a class defined by a StorageClass in the repo may be provisioned, not bound to the hostPath PV',
      code: manualPv('pv-a') + 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: manual}\nprovisioner: rancher.io/local-path\n---\n' + manualClaim(),
    },
    { name: 'a hostPath PV too small for the claim is not its volume', code: manualPv('pv-a').replace('5Gi', '1Gi') + manualClaim() },
  ],
  invalid: [
    {
      name: 'a claim of a class only hostPath PVs carry binds one of them: class-matched, not named',
      code: manualPv('pv-a') + manualClaim(),
      errors: [{ messageId: 'persistentVolume', resource: 'PersistentVolume//pv-a', path: ['spec', 'hostPath', 'path'], messageIncludes: ['PersistentVolumeClaim "data"'] }],
    },
    {
      name: 'a Deployment writing a hostPath directory',
      code: workload({ path: '/srv/data' }),
      errors: [{ messageId: 'inline', severity: 'warning', line: 15, path: ['spec', 'template', 'spec', 'volumes', 0, 'hostPath', 'path'], messageIncludes: ['/srv/data', 'nothing pins the pods'] }],
    },
    {
      name: 'one database pod on hostPath is a warning (it breaks only when the pod moves to another node)',
      code: workload({ path: '/srv/pg', image: 'postgres:16', mountPath: '/var/lib/postgresql/data' }),
      errors: [{ messageId: 'inlineDatabase', severity: 'warning', messageIncludes: ['PostgreSQL data directory /var/lib/postgresql/data'] }],
    },
    {
      name: 'several database pods on one hostPath data directory are an error',
      code: workload({ path: '/srv/pg', image: 'postgres:16', mountPath: '/var/lib/postgresql/data', replicas: 2 }),
      errors: [{ messageId: 'inlineDatabase', severity: 'error', messageIncludes: ['PostgreSQL data directory /var/lib/postgresql/data'] }],
    },
    {
      name: 'a hostPath PersistentVolume without node affinity',
      code: hostPathPv(),
      errors: [{ messageId: 'persistentVolume', resource: 'PersistentVolume//pv-host', path: ['spec', 'hostPath', 'path'], messageIncludes: ['single node testing only'] }],
    },
  ],
});
