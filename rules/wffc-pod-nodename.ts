// R22: a pod template with spec.nodeName uses a claim the scheduler has to bind (WaitForFirstConsumer) or a
// ReadWriteOncePod claim whose one-pod check lives in the scheduler.
import { defineRule } from '../src/define-rule.js';
import { RWOP } from '../src/model/claims.js';
import { podContainers, usesOfContainer, volumeNamed } from '../src/model/mounts.js';
import { type ResolvedClaim } from '../src/model/volume-claims.js';
import type { JsonPath, Resource } from '../src/types.js';

const SELECTED_NODE = 'volume.kubernetes.io/selected-node';

const ORIGIN: Record<ResolvedClaim['origin'], string> = {
  pvc: 'PersistentVolumeClaim',
  'claim-template': 'claim template',
  ephemeral: 'generic ephemeral volume',
};

/** The claim is already bound or reserved: the PV controller binds it without the scheduler. */
function preBound(claim: ResolvedClaim): boolean {
  const volumeName = claim.object?.spec?.volumeName;
  if (typeof volumeName === 'string' && volumeName !== '') return true;
  return claim.storage.bound !== undefined;
}

export default defineRule({
  id: 'wffc-pod-nodename',
  meta: {
    catalogueId: 'R22',
    severity: 'error',
    severities: ['warning', 'note'],
    kinds: ['Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A pod template sets spec.nodeName and uses a claim of a WaitForFirstConsumer StorageClass (never bound) or a ReadWriteOncePod claim (one-pod check skipped).',
    why:
      'With `volumeBindingMode: WaitForFirstConsumer` the claim is provisioned or bound only once the scheduler has picked a node ' +
      'for a pod that uses it. `spec.nodeName` hands the pod to the kubelet directly, bypassing the scheduler, so the claim is ' +
      'never bound and the pod waits forever: "If you choose to use WaitForFirstConsumer, do not use nodeName in the Pod spec ' +
      '… the scheduler will be bypassed and PVC will remain in pending state." The ReadWriteOncePod check ("node has pod using ' +
      'PersistentVolumeClaim with the same name and ReadWriteOncePod access mode") is also a scheduler plugin, so a pod with ' +
      '`nodeName` skips it.',
    trigger:
      'A pod template with a non-empty `spec.nodeName` that mounts a claim — a PersistentVolumeClaim in the repo, a StatefulSet ' +
      'claim template or a generic ephemeral volume — whose effective StorageClass (its own, or the default class of the repo) is ' +
      'in the repo with `volumeBindingMode: WaitForFirstConsumer` (error); a claim not yet bound whose class names no ' +
      'StorageClass in the repo and no PersistentVolume in the repo (note: the cluster\'s class decides, and node-local ' +
      'classes such as local-path-provisioner\'s `local-path` are WaitForFirstConsumer); or a claim whose access modes are ' +
      'ReadWriteOncePod (warning).',
    exceptions:
      'Claims already bound or reserved — `spec.volumeName` set, a PV in the repo whose `claimRef` names the claim — bind without ' +
      'the scheduler; a claim annotated `volume.kubernetes.io/selected-node` is provisioned for that node. Claims that are not ' +
      'in the repo, claims without a class while the repo shows no default class, and classes that PersistentVolumes in the ' +
      'repo carry (static binding, which does not wait for the scheduler unless the class says so) are not reported.',
    fix:
      'Replace `nodeName` with `nodeSelector: {kubernetes.io/hostname: <node>}` (or required node affinity on that label), so ' +
      'the scheduler places the pod and binds its claims.',
    reportsAt: 'The pod template\'s `spec.nodeName`; related: the claim and its StorageClass.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Volume binding mode" (do not use nodeName with WaitForFirstConsumer)', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#volume-binding-mode' },
      { title: 'rancher/local-path-provisioner deploy/local-path-storage.yaml (StorageClass local-path, volumeBindingMode: WaitForFirstConsumer)', url: 'https://github.com/rancher/local-path-provisioner/blob/master/deploy/local-path-storage.yaml' },
      { title: 'KEP-2485: ReadWriteOncePod PersistentVolume access mode (scheduler enforcement, nodeName bypass)', url: 'https://github.com/kubernetes/enhancements/blob/master/keps/sig-storage/2485-read-write-once-pod-pv-access-mode/README.md' },
    ],
    messages: {
      unknownClass: (d: { kind: string; workload: string; node: string; origin: string; claim: string; storageClass: string }) =>
        `${d.kind} "${d.workload}" sets nodeName "${d.node}" and mounts ${d.origin} "${d.claim}" of StorageClass "${d.storageClass}", ` +
        'which is not in the repo: if that class is WaitForFirstConsumer (local-path-provisioner\'s local-path is), nodeName ' +
        'bypasses the scheduler that would bind the claim, so it stays Pending ("waiting for first consumer") and the pod never starts.',
      wffc: (d: { kind: string; workload: string; node: string; origin: string; claim: string; storageClass: string }) =>
        `${d.kind} "${d.workload}" sets nodeName "${d.node}" and mounts ${d.origin} "${d.claim}" of StorageClass "${d.storageClass}", ` +
        'which is WaitForFirstConsumer: nodeName bypasses the scheduler, so the claim is never provisioned or bound and the pod ' +
        'waits forever (the claim stays Pending).',
      rwop: (d: { kind: string; workload: string; node: string; origin: string; claim: string }) =>
        `${d.kind} "${d.workload}" sets nodeName "${d.node}" and mounts ReadWriteOncePod ${d.origin} "${d.claim}": the scheduler's ` +
        'one-pod check is skipped for pods with nodeName, so a second pod can be sent to the claim and fails at mount instead of waiting Pending.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-ssd}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache}
spec:
  storageClassName: local-ssd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 100Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: indexer}
spec:
  nodeName: worker-3
  containers: [{name: indexer, image: registry.example.com/indexer:5, volumeMounts: [{name: cache, mountPath: /cache}]}]
  volumes: [{name: cache, persistentVolumeClaim: {claimName: cache}}]
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-ssd}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache}
spec:
  storageClassName: local-ssd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 100Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: indexer}
spec:
  nodeSelector: {kubernetes.io/hostname: worker-3}
  containers: [{name: indexer, image: registry.example.com/indexer:5, volumeMounts: [{name: cache, mountPath: /cache}]}]
  volumes: [{name: cache, persistentVolumeClaim: {claimName: cache}}]
`,
      ],
    },
  },
  check({ model, report }) {
    // Classes that PersistentVolumes in the repo carry: static-binding labels, not classes the repo forgot.
    let pvClasses: Set<string> | undefined;
    const carriedByVolumes = (name: string) =>
      (pvClasses ??= new Set(model.ofKind('PersistentVolume').map((pv) => model.classOfVolume(pv.object)))).has(name);
    for (const template of model.templates) {
      const node = template.spec?.nodeName;
      if (typeof node !== 'string' || node === '') continue;
      const nodeNamePath: JsonPath = [...template.specPath, 'nodeName'];
      const used = new Set(podContainers(template).flatMap((c) => usesOfContainer(template, c).map((u) => u.volumeName)));
      const names = new Set([...template.volumes.map((v) => v.name), ...template.claimTemplates.map((t) => t.name)]);
      for (const name of names) {
        if (!used.has(name)) continue;
        const ref = volumeNamed(template, name);
        if (!ref) continue;
        const claim = model.claimOfVolume(template, ref);
        if (!claim || claim === 'external') continue;
        const base = { kind: template.kind, workload: template.workload.name, node, origin: ORIGIN[claim.origin], claim: claim.name };
        const claimRelated = { resource: claim.owner, path: claim.path, message: `${ORIGIN[claim.origin]} "${claim.name}"` };
        const annotations = claim.object?.metadata?.annotations ?? {};
        if (!preBound(claim) && annotations[SELECTED_NODE] == null) {
          const effective = model.effectiveClassOfClaim(claim.object);
          if (effective.name) {
            const lookup = model.storageClassFor(effective.name, claim.owner);
            if (lookup.status === 'found' && lookup.value.object?.volumeBindingMode === 'WaitForFirstConsumer') {
              const storageClass: Resource = lookup.value;
              report({
                resource: template.workload, path: nodeNamePath, messageId: 'wffc', severity: 'error',
                data: { ...base, storageClass: storageClass.name },
                related: [claimRelated, { resource: storageClass, path: ['volumeBindingMode'], message: `StorageClass "${storageClass.name}"` }],
              });
              continue;
            }
            if (lookup.status !== 'found' && !model.bundleComplete && !carriedByVolumes(effective.name)) {
              report({
                resource: template.workload, path: nodeNamePath, messageId: 'unknownClass', severity: 'note',
                data: { ...base, storageClass: effective.name }, related: [claimRelated],
              });
              continue;
            }
          }
        }
        if (claim.storage.accessModes.includes(RWOP)) {
          report({ resource: template.workload, path: nodeNamePath, messageId: 'rwop', severity: 'warning', data: base, related: [claimRelated] });
        }
      }
    }
  },
});
