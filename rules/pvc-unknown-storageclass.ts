// R13: a claim names a StorageClass the repo does not define.
import { defineRule } from '../src/define-rule.js';
import { claimPath, isPlaceholder } from '../src/model/claim-objects.js';
import { closestName } from '../src/model/wiring.js';

export default defineRule({
  id: 'pvc-unknown-storageclass',
  meta: {
    catalogueId: 'R13',
    severity: 'note',
    severities: ['error'],
    kinds: ['PersistentVolumeClaim', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim names a StorageClass that is not in the repo; if the cluster lacks it too, the claim stays Pending.',
    why:
      'A claim\'s class must exist for anything to provision it: the PV controller finds no class and no provisioner, ' +
      'and the claim waits for a PersistentVolume of that class that nobody creates ("storageclass … not found"), so it ' +
      'and every pod using it stay Pending. A typo in the class name fails the same way.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral claim template whose class ' +
      '(`spec.storageClassName`, or the beta annotation that overrides it) is not empty and names no StorageClass in ' +
      'the scope. A note, since the cluster may provide the class (cloud defaults, classes installed by charts); an ' +
      'error when the bundle is declared complete; a warning in a GitOps cluster pvlint rendered whole (no HelmRelease ' +
      'or chart left unrendered) that defines StorageClasses of its own. The message suggests a class of the repo with a similar name.',
    exceptions:
      '`storageClassName: ""` (no class) and claims without a class are not this rule\'s (see pvc-classless-without-default); ' +
      'nor are class names that are still placeholders (Flux `${VAR}` substitutions). ' +
      'Silent when a PersistentVolume in the repo has that class: static binding needs no StorageClass object (like the ' +
      '`manual` class of the Kubernetes tutorials).',
    fix: 'Correct the class name, or ship the StorageClass with the repo (or declare the cluster\'s classes as known).',
    reportsAt: 'The claim\'s `spec.storageClassName` (or the beta annotation).',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Class"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#class-1' },
      { title: 'Kubernetes docs: Dynamic Volume Provisioning', url: 'https://kubernetes.io/docs/concepts/storage/dynamic-provisioning/' },
      { title: 'kubernetes pv_controller.go (provisionClaim, findProvisionablePlugin)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/pv_controller.go' },
    ],
    messages: {
      unknown: (d: { claim: string; storageClass: string; complete: boolean; suggestion: string }) =>
        `${d.claim} uses StorageClass "${d.storageClass}", which ${d.complete ? 'does not exist' : 'is not in the repo'}` +
        `${d.suggestion ? ` (did you mean "${d.suggestion}"?)` : ''}; ${d.complete ? '' : 'if the cluster does not have it either, '}nothing provisions the claim and it stays Pending.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-ssd}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  storageClassName: fast-sdd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-ssd}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  storageClassName: fast-ssd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const classNames = [...new Set(model.ofKind('StorageClass').map((c) => c.name))];
    const volumeClasses = new Set(model.ofKind('PersistentVolume').map((pv) => model.classOfVolume(pv.object)));
    for (const claim of model.claimObjects()) {
      const own = model.classOfClaim(claim.object);
      if (!own.set || own.name === '' || isPlaceholder(own.name)) continue;
      const lookup = model.lookupClass(own.name);
      if (lookup.status === 'found') continue;
      // A class used only to match pre-created PVs (no StorageClass object needed) is static binding.
      if (volumeClasses.has(own.name)) continue;
      report({
        resource: claim.resource,
        path: claimPath(claim, ...(own.via === 'annotation' ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'] : ['spec', 'storageClassName'])),
        messageId: 'unknown',
        // A whole GitOps cluster that defines its own classes: a class none of them is, is likely a typo.
        severity: lookup.status === 'missing' ? 'error' : model.wholeCluster && classNames.length > 0 ? 'warning' : 'note',
        data: {
          claim: claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : ''),
          storageClass: own.name,
          complete: lookup.status === 'missing',
          suggestion: closestName(own.name, classNames) ?? '',
        },
      });
    }
  },
});
