// R05: a claim with spec.selector whose class provisions volumes, and no PersistentVolume in the repo matches it.
import { defineRule } from '../src/define-rule.js';
import { NO_PROVISIONER } from '../src/model/provisioners.js';
import { asClaimResource, claimPath, claimTemplateNames, isPlaceholder } from '../src/model/claim-objects.js';


export default defineRule({
  id: 'pvc-selector-dynamic-provisioning',
  meta: {
    catalogueId: 'R05',
    severity: 'error',
    severities: ['warning', 'note'],
    kinds: ['PersistentVolumeClaim', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim with a label selector expects dynamic provisioning, but provisioners never create volumes for claims with a selector.',
    why:
      'The Kubernetes docs: "A PVC with a non-empty selector can\'t have a PV dynamically provisioned for it." The CSI ' +
      'external-provisioner gives up on such a claim with ProvisioningFailed "claim Selector is not supported". The ' +
      'selector only filters existing PersistentVolumes, so unless a matching PV exists the claim stays Pending forever ' +
      'although its StorageClass has a working provisioner.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral claim template with `spec.selector` ' +
      '(any selector, also `{}`: the provisioner checks for a non-nil selector) and no `volumeName`, whose effective ' +
      'StorageClass — its own, or the repo\'s default class when it sets none — is in the repo with a provisioner other ' +
      'than kubernetes.io/no-provisioner, while no PersistentVolume in the repo can bind it (the static matching of ' +
      'pv-pvc-static-mismatch: access modes, capacity, volume mode, class and the selector). Error when the bundle is ' +
      'declared complete; warning otherwise (a matching PV may exist outside the repo). A note when the class is not in the ' +
      'repo and no PersistentVolume in the repo carries it: whether it provisions is the cluster\'s to say, and the cloud ' +
      'classes such a claim usually names (gp2, managed-premium, standard-rwo) do.',
    exceptions:
      'Silent when a PV in the repo matches (selectors with In/Exists/NotIn/DoesNotExist requirements are evaluated ' +
      'exactly), when the claim sets volumeName (the selector is then ignored), when its class is "" or a ' +
      'no-provisioner class (pv-pvc-static-mismatch reports those), when the class is not in the repo but PersistentVolumes ' +
      'in the repo carry it (a static-binding label, pv-pvc-static-mismatch\'s), and in a complete bundle when the class is ' +
      'not in it (pvc-unknown-storageclass\'s error).',
    fix:
      'Drop the selector to let the StorageClass provision a volume, or create matching PersistentVolumes and give the ' +
      'claim a class that does not provision (`storageClassName: ""` or a kubernetes.io/no-provisioner class).',
    reportsAt: 'The claim\'s `spec.selector`; related: the StorageClass\'s provisioner.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Selector" (no dynamic provisioning with a selector)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#selector' },
      { title: 'kubernetes-csi external-provisioner controller.go (prepareProvision: "claim Selector is not supported")', url: 'https://github.com/kubernetes-csi/external-provisioner/blob/master/pkg/controller/controller.go' },
      { title: 'kubernetes/kubernetes issue #34549', url: 'https://github.com/kubernetes/kubernetes/issues/34549' },
    ],
    messages: {
      selector: (d: { claim: string; storageClass: string; provisioner: string; defaulted: boolean; pvs: string; complete: boolean }) =>
        `${d.claim} has a label selector, and its StorageClass "${d.storageClass}"${d.defaulted ? ' (the default class)' : ''} provisions volumes with ${d.provisioner}; ` +
        `provisioners never create a volume for a claim with a selector ("claim Selector is not supported"), and ${d.pvs}, ` +
        `so the claim stays Pending${d.complete ? '' : ' unless a matching PersistentVolume exists outside the repo'}.`,
      selectorUnknownClass: (d: { claim: string; storageClass: string; defaulted: boolean; pvs: string }) =>
        `${d.claim} has a label selector and StorageClass "${d.storageClass}"${d.defaulted ? ' (the default class)' : ''}, which is not in the repo: ` +
        'if that class provisions volumes, the provisioner refuses a claim with a selector ("claim Selector is not supported"), ' +
        `and ${d.pvs}; the claim binds only a pre-created PersistentVolume of that class whose labels match, else it stays Pending.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache, namespace: web}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
  selector:
    matchLabels: {tier: fast}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache, namespace: web}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const volumes = model.ofKind('PersistentVolume');
    for (const claim of model.claimObjects()) {
      const spec = claim.object?.spec;
      if (!spec || typeof spec !== 'object' || spec.selector == null || typeof spec.selector !== 'object') continue;
      if (typeof spec.volumeName === 'string' && spec.volumeName !== '') continue;
      const effective = model.effectiveClassOfClaim(claim.object);
      if (effective.name === undefined || effective.name === '' || isPlaceholder(effective.name)) continue;
      const lookup = model.storageClassFor(effective.name, claim.resource);
      const names = claim.origin === 'claim-template' ? claimTemplateNames(claim) : [claim.claimName];
      const matches = () => volumes.some((pv) => names.some((name) => model.matchVolumeToClaim(asClaimResource(claim, name), pv).mismatches.length === 0));
      const label = claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : '');
      const pvs = volumes.length === 0 ? 'the repo has no PersistentVolume for it' : 'no PersistentVolume in the repo matches it';
      if (lookup.status !== 'found') {
        // A class that only PersistentVolumes name is a static-binding label (pv-pvc-static-mismatch's); a missing class in a
        // complete bundle is pvc-unknown-storageclass's error.
        if (model.bundleComplete || volumes.some((pv) => model.classOfVolume(pv.object) === effective.name) || matches()) continue;
        report({
          resource: claim.resource, path: claimPath(claim, 'spec', 'selector'), messageId: 'selectorUnknownClass', severity: 'note',
          data: { claim: label, storageClass: effective.name, defaulted: effective.defaulted, pvs },
        });
        continue;
      }
      const provisioner = lookup.value.object?.provisioner;
      if (typeof provisioner !== 'string' || provisioner === '' || provisioner === NO_PROVISIONER) continue;
      if (matches()) continue;
      report({
        resource: claim.resource,
        path: claimPath(claim, 'spec', 'selector'),
        messageId: 'selector',
        severity: model.bundleComplete ? 'error' : 'warning',
        data: { claim: label, storageClass: effective.name, provisioner, defaulted: effective.defaulted, pvs, complete: model.bundleComplete },
        related: [{ resource: lookup.value, path: ['provisioner'], message: `StorageClass "${lookup.value.name}"` }],
      });
    }
  },
});
