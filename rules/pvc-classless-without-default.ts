// R10: a claim without a class in a repo without a default class; or a class "" claim with no PV for it.
import { defineRule } from '../src/define-rule.js';
import { asClaimResource, claimPath, claimTemplateNames, type ClaimObject } from '../src/model/claim-objects.js';
import type { StorageModel } from '../src/model/storage-model.js';

function boundInRepo(model: StorageModel, claim: ClaimObject): boolean {
  const names = claim.origin === 'claim-template' ? claimTemplateNames(claim) : [claim.claimName];
  return model.ofKind('PersistentVolume').some((pv) => names.some((name) => model.matchVolumeToClaim(asClaimResource(claim, name), pv).mismatches.length === 0));
}

export default defineRule({
  id: 'pvc-classless-without-default',
  meta: {
    catalogueId: 'R10',
    severity: 'note',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim sets no storage class and the repo has no default StorageClass, so nothing may provision it.',
    why:
      'A claim without `storageClassName` gets the default StorageClass when it is created. Without a default class it ' +
      'keeps no class: it can only bind a pre-created PersistentVolume without class, and otherwise stays Pending — until ' +
      'a default class appears (Kubernetes 1.28+ assigns it retroactively), or forever on older clusters. A claim with ' +
      '`storageClassName: ""` explicitly asks for no class: it is never provisioned and waits for a matching PV forever.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral claim template without ' +
      '`storageClassName` (and without the beta class annotation) while the scope has no StorageClass marked default; or ' +
      'one with `storageClassName: ""` while the scope has no PersistentVolume at all. Note; a warning for the first case ' +
      'when the bundle is declared complete (then no default class exists).',
    exceptions:
      'Silent when a PersistentVolume in the repo can bind the claim, when it sets `volumeName` (it binds that PV), or ' +
      'when it has a selector (it asks for a pre-created PV; pv-pvc-static-mismatch and pvc-selector-dynamic-provisioning ' +
      'cover it). A class "" claim in a repo that has PersistentVolumes is pv-pvc-static-mismatch\'s. The cluster may ' +
      'have a default class the repo does not show, hence the note.',
    fix: 'Set an explicit `storageClassName` on the claim (or ship a default StorageClass with the repo).',
    reportsAt: 'The claim\'s `spec` (where storageClassName belongs), or its `storageClassName: ""`.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Class" and "Retroactive default StorageClass assignment"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#retroactive-default-storageclass-assignment' },
      { title: 'Kubernetes docs: Storage Classes, "Default StorageClass"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#default-storageclass' },
      { title: 'kubernetes DefaultStorageClass admission plugin (setdefault/admission.go)', url: 'https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/storage/storageclass/setdefault/admission.go' },
    ],
    messages: {
      noDefault: (d: { claim: string; complete: boolean }) =>
        `${d.claim} sets no storageClassName and the repo has no default StorageClass; ` +
        `${d.complete ? 'with no default class in the cluster' : 'unless the cluster has one'}, nothing provisions it and it stays Pending ` +
        '(Kubernetes 1.28+ assigns a default class retroactively once one exists).',
      emptyClass: (d: { claim: string }) =>
        `${d.claim} sets storageClassName "", which is never provisioned, and the repo has no PersistentVolume for it; ` +
        'it stays Pending unless a matching PV without class is created outside the repo.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads, namespace: web}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads, namespace: web}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
`,
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads, namespace: web}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const hasDefault = model.defaultClasses.length > 0;
    const hasVolumes = model.hasKind('PersistentVolume');
    for (const claim of model.claimObjects()) {
      const spec = claim.object?.spec;
      if (!spec || typeof spec !== 'object') continue;
      if (typeof spec.volumeName === 'string' && spec.volumeName !== '') continue;
      if (spec.selector != null) continue;
      const own = model.classOfClaim(claim.object);
      const label = claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : '');
      if (!own.set) {
        if (hasDefault || boundInRepo(model, claim)) continue;
        report({
          resource: claim.resource, path: claimPath(claim, 'spec'), messageId: 'noDefault',
          severity: model.bundleComplete ? 'warning' : 'note',
          data: { claim: label, complete: model.bundleComplete },
        });
      } else if (own.name === '' && !hasVolumes) {
        report({
          resource: claim.resource,
          path: claimPath(claim, ...(own.via === 'annotation' ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'] : ['spec', 'storageClassName'])),
          messageId: 'emptyClass', data: { claim: label },
        });
      }
    }
  },
});
