// R39: a StatefulSet's PVC retention policy deletes its claims on scale-down or deletion.
import { defineRule } from '../src/define-rule.js';
import type { Severity } from '../src/types.js';

export default defineRule({
  id: 'sts-retention-delete',
  meta: {
    catalogueId: 'R39',
    severity: 'warning',
    severities: ['note'],
    kinds: ['StatefulSet'],
    summary: 'A StatefulSet\'s persistentVolumeClaimRetentionPolicy deletes its claims when it is scaled down or deleted.',
    why:
      '`persistentVolumeClaimRetentionPolicy.whenScaled: Delete` makes the StatefulSet controller delete the claims of the ordinals ' +
      'above the new replica count when it scales down; `whenDeleted: Delete` deletes every claim created from the ' +
      'volumeClaimTemplates when the StatefulSet is deleted — including a Helm uninstall or a GitOps prune of the StatefulSet. ' +
      'With the usual reclaimPolicy Delete the disks go too. The default for both is Retain (the field needs the ' +
      'StatefulSetAutoDeletePVC feature, beta and on by default since Kubernetes 1.27).',
    trigger:
      'A StatefulSet with at least one volumeClaimTemplate and `spec.persistentVolumeClaimRetentionPolicy.whenDeleted` or ' +
      '`.whenScaled` set to Delete: warning; a note when every claim template\'s StorageClass is in the repo with reclaimPolicy ' +
      'Retain (the PersistentVolumes survive, Released).',
    exceptions:
      'StatefulSets without volumeClaimTemplates (the policy has nothing to delete) and policies left at Retain are not reported. ' +
      'Kubernetes versions before 1.27 ignore the field unless the feature gate is on; pvlint does not know the cluster version.',
    fix: 'Keep the default Retain for stateful data and delete claims deliberately; if automatic cleanup is wanted, provision from a class with reclaimPolicy Retain.',
    reportsAt: 'The `whenDeleted` or `whenScaled` field set to Delete.',
    references: [
      { title: 'Kubernetes docs: StatefulSets, "PersistentVolumeClaim retention"', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#persistentvolumeclaim-retention' },
      { title: 'Kubernetes blog: Kubernetes 1.27: StatefulSet PVC Auto-Deletion (beta)', url: 'https://kubernetes.io/blog/2023/05/04/kubernetes-1-27-statefulset-pvc-auto-deletion-beta/' },
      { title: 'Kubernetes feature gate StatefulSetAutoDeletePVC', url: 'https://kubernetes.io/docs/reference/command-line-tools-reference/feature-gates/' },
    ],
    messages: {
      whenScaled: (d: { sts: string; templates: string; db: string; reclaim: string }) =>
        `StatefulSet "${d.sts}" has persistentVolumeClaimRetentionPolicy.whenScaled: Delete: scaling it down deletes the claims (${d.templates}) of the ` +
        `removed ordinals${d.db}; ${d.reclaim}. Scaling back up starts those replicas with empty volumes.`,
      whenDeleted: (d: { sts: string; templates: string; db: string; reclaim: string }) =>
        `StatefulSet "${d.sts}" has persistentVolumeClaimRetentionPolicy.whenDeleted: Delete: deleting the StatefulSet (an uninstall or prune included) ` +
        `deletes all its claims (${d.templates})${d.db}; ${d.reclaim}.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka}
spec:
  serviceName: kafka
  replicas: 3
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Retain
    whenScaled: Delete
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      containers: [{name: kafka, image: apache/kafka:3.8.0, volumeMounts: [{name: data, mountPath: /var/lib/kafka}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka}
spec:
  serviceName: kafka
  replicas: 3
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: Retain
    whenScaled: Retain
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      containers: [{name: kafka, image: apache/kafka:3.8.0, volumeMounts: [{name: data, mountPath: /var/lib/kafka}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (template.kind !== 'StatefulSet' || template.claimTemplates.length === 0) continue;
      const policy = template.workload.object?.spec?.persistentVolumeClaimRetentionPolicy;
      if (!policy || typeof policy !== 'object') continue;
      const reclaims = template.claimTemplates.map((vct) => model.reclaimOfClaim(vct.object));
      const allRetain = reclaims.every((r) => r.policy === 'Retain');
      const deleteClasses = [...new Set(reclaims.flatMap((r) => (r.policy === 'Delete' && r.via === 'class' ? [`"${r.storageClass.name}"`] : [])))];
      const reclaim = allRetain
        ? 'their StorageClasses have reclaimPolicy Retain, so the PersistentVolumes stay Released and the data can be recovered by hand'
        : deleteClasses.length > 0
          ? `with reclaimPolicy Delete (StorageClass ${deleteClasses.join(', ')}) the volumes and their data are deleted too`
          : 'with the usual reclaimPolicy Delete the volumes and their data are deleted too';
      const dbs = model.databaseVolumes(template);
      const dbNames = [...new Set(template.claimTemplates.map((t) => dbs.get(t.name)?.product).filter(Boolean))];
      const data = {
        sts: template.workload.name,
        templates: template.claimTemplates.map((t) => `"${t.name}"`).join(', '),
        db: dbNames.length > 0 ? `, which hold ${dbNames.join(' and ')} data` : '',
        reclaim,
      };
      const severity: Severity = allRetain ? 'note' : 'warning';
      for (const field of ['whenScaled', 'whenDeleted'] as const) {
        if (policy[field] !== 'Delete') continue;
        report({ resource: template.workload, path: ['spec', 'persistentVolumeClaimRetentionPolicy', field], messageId: field, severity, data });
      }
    }
  },
});
