// R42: a PVC in a later Argo CD sync wave than a workload that mounts it.
import { defineRule } from '../src/define-rule.js';
import { ARGO_SYNC_WAVE, argoSyncOptionsOf, isArgoHook, isHelmHook, syncWaveOf, type SyncWave } from '../src/model/gitops.js';
import type { ClaimUse } from '../src/model/storage-model.js';
import type { JsonPath } from '../src/types.js';

function waveText(wave: SyncWave): string {
  return wave.from === 'sync-wave' ? `sync-wave ${wave.wave}` : wave.from === 'hook-weight' ? `wave ${wave.wave}, from helm.sh/hook-weight` : 'wave 0, no sync-wave';
}

function wavePath(wave: SyncWave): JsonPath {
  const annotation = wave.from === 'hook-weight' ? 'helm.sh/hook-weight' : ARGO_SYNC_WAVE;
  return wave.from === 'default' ? ['metadata'] : ['metadata', 'annotations', annotation];
}

export default defineRule({
  id: 'syncwave-pvc-after-consumer',
  meta: {
    catalogueId: 'R42',
    severity: 'warning',
    kinds: ['PersistentVolumeClaim'],
    summary: 'A PersistentVolumeClaim has a later Argo CD sync wave than a workload that mounts it.',
    why:
      'Argo CD applies lower waves first, but prunes and deletes higher waves first and waits until they are gone before the ' +
      'next wave ("resources from higher waves are processed first"; Application deletion likewise). A claim in a higher wave ' +
      'than its consumer is deleted first; kubernetes.io/pvc-protection keeps it Terminating while the consumer\'s pods, in a ' +
      'lower wave that Argo CD has not reached, still use it — so the prune or the deletion hangs. On creation the pods of the ' +
      'earlier wave wait Pending ("persistentvolumeclaim not found") until the claim\'s wave.',
    trigger:
      'A PersistentVolumeClaim whose wave (`argocd.argoproj.io/sync-wave` as an integer, else a Helm hook weight, else 0, as ' +
      'gitops-engine computes it) is greater than the wave of a Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod, ReplicaSet ' +
      'or Rollout in the scope that mounts it.',
    exceptions:
      'Claims and consumers that are hooks (Argo CD or Helm) are not compared: hooks are not pruned and run in their own phase. ' +
      '`PruneLast=true` on the claim defers its pruning during a sync but not Application deletion, so it is mentioned, not ' +
      'exempted. A sync-wave that is not an integer counts as 0, as in Argo CD.',
    fix: 'Give storage (StorageClass, PersistentVolume, PersistentVolumeClaim) a lower sync wave than every workload that mounts it.',
    reportsAt: 'The claim\'s `argocd.argoproj.io/sync-wave` annotation; the consumer\'s wave is the related location.',
    references: [
      { title: 'Argo CD docs: Sync Phases and Waves (pruning processes higher waves first)', url: 'https://argo-cd.readthedocs.io/en/stable/user-guide/sync-waves/' },
      { title: 'argoproj/argo-cd#3959: delete application resources in reverse wave order', url: 'https://github.com/argoproj/argo-cd/issues/3959' },
      { title: 'argoproj/gitops-engine#538: prune resources in reverse wave order and wait for deletion', url: 'https://github.com/argoproj/gitops-engine/pull/538' },
      { title: 'Kubernetes docs: Persistent Volumes, "Storage Object in Use Protection"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#storage-object-in-use-protection' },
    ],
    messages: {
      later: (d: { claim: string; wave: string; kind: string; workload: string; consumerWave: string; pruneLast: boolean }) =>
        `PersistentVolumeClaim "${d.claim}" has ${d.wave}, later than ${d.kind} "${d.workload}" (${d.consumerWave}) that mounts it: Argo CD ` +
        `creates the claim after the ${d.kind}'s pods (which wait Pending), and when pruning or deleting the application it deletes the claim ` +
        `first and waits — but pvc-protection keeps it Terminating while those pods still use it, so the operation hangs` +
        `${d.pruneLast ? ' (PruneLast=true only defers pruning during a sync; Application deletion still goes by wave)' : ''}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: uploads
  annotations:
    argocd.argoproj.io/sync-wave: "2"
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: uploads, mountPath: /uploads}]}]
      volumes: [{name: uploads, persistentVolumeClaim: {claimName: uploads}}]
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: uploads
  annotations:
    argocd.argoproj.io/sync-wave: "-1"
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: uploads, mountPath: /uploads}]}]
      volumes: [{name: uploads, persistentVolumeClaim: {claimName: uploads}}]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const { namespace, name } of model.mountedClaims()) {
      for (const [pvc, uses] of model.usesByDefinition(namespace, name)) {
        const meta = pvc.object?.metadata;
        if (isArgoHook(meta) || isHelmHook(meta)) continue;
        const wave = syncWaveOf(meta);
        let earliest: { use: ClaimUse; wave: SyncWave } | undefined;
        for (const use of uses) {
          const consumerMeta = use.template.workload.object?.metadata;
          if (isArgoHook(consumerMeta) || isHelmHook(consumerMeta)) continue;
          const consumerWave = syncWaveOf(consumerMeta);
          if (consumerWave.wave >= wave.wave) continue;
          if (!earliest || consumerWave.wave < earliest.wave.wave) earliest = { use, wave: consumerWave };
        }
        if (!earliest) continue;
        const workload = earliest.use.template.workload;
        report({
          resource: pvc, path: wavePath(wave), messageId: 'later',
          data: {
            claim: pvc.name, wave: waveText(wave), kind: workload.kind, workload: workload.name, consumerWave: waveText(earliest.wave),
            pruneLast: argoSyncOptionsOf(meta).get('PruneLast') === 'true',
          },
          related: [{
            resource: workload,
            path: earliest.wave.from === 'default' ? [...earliest.use.volume.path, 'persistentVolumeClaim', 'claimName'] : wavePath(earliest.wave),
            message: `${workload.kind} "${workload.name}" (${waveText(earliest.wave)}) mounts the claim`,
          }],
        });
      }
    }
  },
});
