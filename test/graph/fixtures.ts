// A small environment with a bit of everything the picture draws: two namespaces (one in the repo, with Istio
// injection), a shared RWO claim, a StatefulSet claim template with an absent class, a static NFS PV bound by
// volumeName and claimRef, an HPA, an in-memory emptyDir, a configMap (left out) and a claim that is not in the repo.
export const SHOP = `apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {istio-injection: enabled}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Retain
allowVolumeExpansion: true
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: shop}
spec: {accessModes: [ReadWriteOnce], storageClassName: fast, resources: {requests: {storage: 5Gi}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  strategy: {type: Recreate}
  template:
    spec:
      containers:
        - name: app
          image: web
          volumeMounts: [{name: data, mountPath: /data}, {name: cfg, mountPath: /etc/cfg}, {name: scratch, mountPath: /tmp}, {name: missing, mountPath: /m}]
      volumes:
        - {name: data, persistentVolumeClaim: {claimName: shared}}
        - {name: cfg, configMap: {name: cfg}}
        - {name: scratch, emptyDir: {medium: Memory, sizeLimit: 1Gi}}
        - {name: missing, persistentVolumeClaim: {claimName: nowhere}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: shop}
spec:
  schedule: "0 3 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: backup, image: b, volumeMounts: [{name: data, mountPath: /backup, readOnly: true}]}]
          volumes: [{name: data, persistentVolumeClaim: {claimName: shared}}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 3
  podManagementPolicy: Parallel
  template:
    spec:
      containers: [{name: pg, image: postgres, volumeMounts: [{name: pgdata, mountPath: /var/lib/postgresql/data/pgdata}]}]
  volumeClaimTemplates:
    - metadata: {name: pgdata}
      spec: {accessModes: [ReadWriteOnce], storageClassName: gold, resources: {requests: {storage: 50Gi}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: nfs-archive}
spec:
  capacity: {storage: 1Ti}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: ""
  nfs: {server: 10.0.0.5, path: /exports/archive}
  claimRef: {namespace: data, name: archive}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: archive, namespace: data}
spec: {accessModes: [ReadWriteMany], storageClassName: "", volumeName: nfs-archive, resources: {requests: {storage: 1Ti}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, minReplicas: 2, maxReplicas: 6}
`;

import type { EnvironmentGraph, GraphNode } from '../../src/graph/model.js';

/** Names that break naive output: quotes, brackets, `#`, entities, HTML, pipes, backticks, keywords, unicode. */
export const NASTY_NAMES = [
  'a "quoted" name',
  'end',
  'x]y[z (p) {q}',
  '#hash; &amp; #35;',
  'ünïcødé 名前 🚀',
  'pipe|name',
  'back`tick``s',
  'style: x #1; classDef y:#f00;',
  '<script>alert(1)</script>',
  'colon:/path:8080',
  'back\\slash',
];

/** A hand-made picture whose every name and detail is one of NASTY_NAMES (with findings on one node and one edge). */
export function nastyGraph(): EnvironmentGraph {
  const nodes: GraphNode[] = NASTY_NAMES.map((name, i) => ({
    id: `n:${name}`,
    type: (['workload', 'volume', 'claim', 'pv', 'class'] as const)[i % 5],
    kind: i % 5 === 0 ? 'Deployment' : i % 5 === 1 ? 'volume' : i % 5 === 2 ? 'PVC' : i % 5 === 3 ? 'PV' : 'StorageClass',
    name,
    namespace: i % 5 < 3 ? `ns "${i % 2}" #${i % 2}` : undefined,
    details: [`detail of ${name}`],
    ...(i === 2 ? { external: { note: 'not in the repo' } } : {}),
    findings: i === 1 ? [1] : [],
  }));
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, from: nodes[i].id, to: node.id, type: 'mounts' as const, findings: i === 0 ? [0] : [] }));
  return {
    environment: 'env "quoted" #1 <x> | `y`',
    kind: 'manifests',
    nodes,
    edges,
    namespaces: [{ name: 'ns "0" #0', external: false }, { name: 'ns "1" #1', external: true }],
    findings: [
      { ruleId: 'rule-<one>|"x"', severity: 'error', message: 'message with | pipe and <b>html</b> & `code` *stars* _under_', location: { file: 'dir/a|b.yaml', region: { startLine: 3, startColumn: 1, endLine: 3, endColumn: 5 } }, nodes: [], edges: ['e0'] },
      { ruleId: 'node-rule', severity: 'warning', message: 'on a node', location: { file: 'x.yaml', region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 } }, nodes: [nodes[1].id], edges: [] },
    ],
  };
}
