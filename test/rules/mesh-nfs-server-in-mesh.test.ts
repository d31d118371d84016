import rule from '../../rules/mesh-nfs-server-in-mesh.js';
import { ruleTester } from '../helpers/rule-tester.js';

const namespace = (labels = 'istio-injection: enabled') => `apiVersion: v1
kind: Namespace
metadata:
  name: storage
  labels: {${labels}}
---
`;

const server = (o: { labels?: string; annotations?: string; image?: string; port?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: nfs-server, namespace: storage}
spec:
  selector: {matchLabels: {app: nfs-server}}
  template:
    metadata:
      labels: {app: nfs-server${o.labels ? `, ${o.labels}` : ''}}${o.annotations ? `\n      annotations: {${o.annotations}}` : ''}
    spec:
      containers:
        - name: nfs
          image: ${o.image ?? 'registry.example.com/nfs-server:2.6'}
          securityContext: {privileged: true}
          ports: [${o.port ?? '{name: nfs, containerPort: 2049}'}]
---
`;

const service = (targetPort = '') => `apiVersion: v1
kind: Service
metadata: {name: nfs, namespace: storage}
spec:
  selector: {app: nfs-server}
  clusterIP: 10.96.20.49
  ports: [{name: nfs, port: 2049${targetPort}}]
---
`;

const pv = (server: string) => `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  nfs: {server: ${server}, path: /exports}
`;

ruleTester(rule, {
  valid: [
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
    { name: 'inbound port 2049 excluded', code: namespace() + server({ annotations: 'traffic.sidecar.istio.io/excludeInboundPorts: "2049"' }) + service() + pv('nfs.storage.svc.cluster.local') },
    { name: 'includeInboundPorts leaves 2049 out', code: namespace() + server({ annotations: 'traffic.sidecar.istio.io/includeInboundPorts: "8080"' }) + service() + pv('nfs.storage.svc.cluster.local') },
    { name: 'namespace without injection', code: namespace('team: storage') + server() + service() + pv('nfs.storage.svc.cluster.local') },
    { name: 'nobody mounts it through kubelet', code: namespace() + server() + service() },
    { name: 'a PV naming another server', code: namespace() + server() + service() + pv('filer.example.internal') },
    { name: 'Linkerd pods are not judged', code: namespace('team: storage') + server({ annotations: 'linkerd.io/inject: enabled' }) + service() + pv('nfs.storage.svc.cluster.local') },
  ],
  invalid: [
    ...rule.meta.examples.invalid.map((code, i) => ({
      name: `documented invalid example ${i + 1}`, code,
      errors: [{ messageId: 'inMesh', severity: 'warning' as const, line: 13, messageIncludes: ['Deployment "nfs-server"', 'PersistentVolume "shared"', 'Service "nfs"'] }],
    })),
    {
      name: 'referenced by clusterIP from an NFS CSI PV',
      code: namespace() + server() + service() + `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  csi: {driver: nfs.csi.k8s.io, volumeHandle: nfs-shared, volumeAttributes: {server: 10.96.20.49, share: /exports}}
`,
      errors: [{ messageId: 'inMesh', messageIncludes: ['PersistentVolume "shared"'] }],
    },
    {
      name: 'referenced from a StorageClass parameter, service routing a named target port',
      code: namespace() + server() + service(', targetPort: nfs') + `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: nfs}
provisioner: nfs.csi.k8s.io
parameters: {server: nfs.storage.svc, share: /exports}
`,
      errors: [{ messageId: 'inMesh', messageIncludes: ['StorageClass "nfs"'] }],
    },
    {
      name: 'ganesha image without a declared port, inline pod volume using the short name',
      code: namespace() + server({ image: 'registry.example.com/nfs-ganesha:5', port: '' }) + service(', targetPort: 2049') + `apiVersion: v1
kind: Pod
metadata: {name: reader, namespace: storage}
spec:
  containers: [{name: reader, image: busybox, volumeMounts: [{name: share, mountPath: /share}]}]
  volumes: [{name: share, nfs: {server: nfs, path: /exports}}]
`,
      errors: [{ messageId: 'inMesh', messageIncludes: ['Pod "reader" (volume "share")'] }],
    },
    {
      name: 'server namespace not in the repo: note',
      code: server({ labels: 'tier: storage' }) + service() + pv('nfs.storage.svc.cluster.local'),
      errors: [{ messageId: 'unknownMesh', severity: 'note' }],
    },
  ],
});
