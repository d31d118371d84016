// Several pods of one workload run a database server on the same ReadWriteOnce claim. ReadWriteOnce is per node, so
// pods that land on one node both mount it read-write and both servers open one data directory.
import { defineRule } from '../src/define-rule.js';
import { describeDriver, RWO, RWOP, RWX } from '../src/model/claims.js';
import { databaseContainer } from '../src/model/databases.js';
import { podContainers, usesOfContainer } from '../src/model/mounts.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath } from '../src/types.js';

/** Kinds whose pod count is a replica count of identical pods; DaemonSets put one pod per node, StatefulSets are statefulset-shared-claim's. */
const KINDS = new Set(['Deployment', 'ReplicaSet', 'ReplicationController', 'Rollout']);

/** More than one pod of the template at once: how many, said for the message, and where. */
function severalPods(model: StorageModel, template: PodTemplate): { count: number; text: string; path: JsonPath } | undefined {
  const count = model.podCount(template);
  if (count.kind === 'autoscaled') return { count: count.max, text: `up to ${count.max} pods (HorizontalPodAutoscaler "${count.hpa.name}")`, path: count.countPath };
  if (count.kind === 'count' && count.count > 1) return { count: count.count, text: `${count.count} replicas`, path: count.replicas.path };
  return undefined;
}

export default defineRule({
  id: 'database-replicas-share-rwo-claim',
  meta: {
    severity: 'warning',
    severities: ['error'],
    kinds: ['Deployment', 'ReplicaSet', 'ReplicationController', 'Rollout', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'HorizontalPodAutoscaler'],
    summary: 'Several replicas of a database server mount one ReadWriteOnce claim; pods on the same node both write its data.',
    why:
      'ReadWriteOnce means one node, not one pod: "ReadWriteOnce access mode still can allow multiple pods to access (read ' +
      'from or write to) that volume when the pods are running on the same node". Replicas of a database server that share ' +
      'one claim therefore both start whenever the scheduler puts them on the node the volume is attached to (or on any node, ' +
      'for drivers without an attach step), and two server processes open one data directory: PostgreSQL\'s postmaster.pid ' +
      'check does not see a server in another container\'s PID namespace, so the data is corrupted; servers that take a file ' +
      'lock (MySQL/InnoDB, MongoDB) make the second replica crash-loop instead. A database directory has exactly one writer; ' +
      'ReadWriteOncePod is the access mode that says so, and Kubernetes then keeps the second pod Pending instead.',
    trigger:
      'A Deployment, ReplicaSet, ReplicationController or Argo Rollout with more than one pod (`replicas` > 1, or an HPA with ' +
      '`maxReplicas` > 1) whose container runs a database server pvlint recognises (the images of databases.ts, with the server ' +
      'as the command) and mounts a PersistentVolumeClaim in the repo whose access modes contain ReadWriteOnce and neither ' +
      'ReadWriteMany nor ReadWriteOncePod. An error when the pods are held on one node (a required node pin, podAffinity to ' +
      'themselves on kubernetes.io/hostname, or a node-local volume): then they certainly run side by side.',
    exceptions:
      'Silent for read-only mounts, for caches without persistence (Redis/Valkey without `--appendonly yes` or `--save`), ' +
      'for claims not in the repo, for ReadWriteOncePod claims (rwo-claim-multi-node reports the Pending pods) and for ' +
      'StatefulSets (statefulset-shared-claim: give each replica its own claim). Replicas spread over nodes also hit ' +
      'rwo-claim-multi-node (Multi-Attach); this rule is about the ones that share a node.',
    fix:
      'Run one replica (`replicas: 1`, `strategy: Recreate`) and set `accessModes: [ReadWriteOncePod]` on the claim so no second ' +
      'pod can mount it; for several database instances use a StatefulSet with volumeClaimTemplates (one claim per replica) and ' +
      'the database\'s own replication.',
    reportsAt: 'The volume\'s `claimName` in the workload; the claim\'s access modes are related.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes" (ReadWriteOnce allows several pods on one node; ReadWriteOncePod one pod)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'Kubernetes blog: ReadWriteOncePod PersistentVolume access mode goes GA (1.29)', url: 'https://kubernetes.io/blog/2023/12/18/read-write-once-pod-access-mode-ga/' },
      { title: 'pgsql-hackers, 2025-12: "File locks for data directory lockfile in the context of Linux namespaces" (two servers on one data directory under ReadWriteOnce)', url: 'https://horton.kehvyn.dev/messages/ejJ1M2p0anpocW9mcWhyanZmZ2t3bDRjY3pocHFpYnozdDQ3Z3B4N2ZiZTdjZWFpaGtAaTVtdmV1MndmcHhu/thread' },
    ],
    messages: {
      shared: (d: { kind: string; workload: string; pods: string; product: string; claim: string; driver: string; pinned: boolean }) =>
        `${d.kind} "${d.workload}" runs ${d.pods} of ${d.product} on ReadWriteOnce PersistentVolumeClaim "${d.claim}" (${d.driver}); ` +
        (d.pinned
          ? 'its pods are held on one node, where ReadWriteOnce lets every one of them mount the volume read-write'
          : 'ReadWriteOnce is per node, so replicas scheduled on the same node both mount it read-write') +
        `: two ${d.product} servers open one data directory (corruption, or a crash-looping replica). ` +
        'Run one replica and make the claim ReadWriteOncePod.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pg-data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 20Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: pg}
spec:
  replicas: 2
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers:
        - name: postgres
          image: postgres:16
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: pg-data}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pg-data}
spec:
  accessModes: [ReadWriteOncePod]
  storageClassName: gp3
  resources: {requests: {storage: 20Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: pg}
spec:
  replicas: 1
  strategy: {type: Recreate}
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers:
        - name: postgres
          image: postgres:16
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: pg-data}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (!KINDS.has(template.kind)) continue;
      const pods = severalPods(model, template);
      if (!pods) continue;
      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      const reported = new Set<string>();
      for (const container of podContainers(template, ['containers'])) {
        const db = databaseContainer(container);
        if (!db || (db.role === 'cache' && db.persistence !== 'on')) continue;
        for (const use of usesOfContainer(template, container)) {
          if (use.readOnly || reported.has(use.volumeName)) continue;
          const volume = template.volumes.find((v) => v.name === use.volumeName);
          if (!volume?.claimName || volume.readOnly) continue;
          const lookup = model.lookupClaim(namespace, volume.claimName);
          if (lookup.status !== 'found' || lookup.value.kind !== 'pvc') continue;
          const storage = model.claimStorage(lookup.value.resource);
          const modes = storage.accessModes;
          if (!modes.includes(RWO) || modes.includes(RWX) || modes.includes(RWOP)) continue;
          reported.add(use.volumeName);
          const pinned = model.selfCoLocated(template) || storage.nodePin !== undefined;
          report({
            resource: template.workload,
            path: [...volume.path, 'persistentVolumeClaim', 'claimName'],
            messageId: 'shared',
            severity: pinned ? 'error' : 'warning',
            data: {
              kind: template.kind, workload: template.workload.name, pods: pods.text, product: db.db.product,
              claim: storage.pvc.name, driver: describeDriver(storage), pinned,
            },
            related: [
              { resource: storage.pvc, path: ['spec', 'accessModes'], message: `PersistentVolumeClaim "${storage.pvc.name}" (${modes.join(', ')})` },
              { resource: template.workload, path: pods.path, message: pods.text },
            ],
          });
        }
      }
    }
  },
});
