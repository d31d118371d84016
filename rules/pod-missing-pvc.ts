// R21: a pod template mounts a claim that does not exist in its namespace.
import { defineRule } from '../src/define-rule.js';
import { likelyMeant } from '../src/model/name-suggestions.js';
import { isShadowedByClaimTemplate } from '../src/model/pod-templates.js';

export default defineRule({
  id: 'pod-missing-pvc',
  meta: {
    catalogueId: 'R21',
    severity: 'note',
    severities: ['error', 'warning'],
    kinds: ['Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A pod template mounts a PersistentVolumeClaim that does not exist in its namespace.',
    why:
      'Claims must exist in the same namespace as the pod. The scheduler refuses a pod whose claim is absent ' +
      '(`persistentvolumeclaim "x" not found`), so the pod stays Pending; after a PVC is deleted, a Deployment or Job ' +
      'keeps recreating pods that can never start.',
    trigger:
      '`volumes[].persistentVolumeClaim.claimName` names a claim that is neither a PVC in the pod\'s namespace nor a ' +
      'claim a StatefulSet in that namespace creates from its volumeClaimTemplates (`<template>-<statefulset>-<ordinal>`).',
    exceptions:
      'A claim that is not in the repo may exist in the cluster: without `bundleComplete` the finding is a note. ' +
      'It is an error when the environment\'s own kustomization declares the claim and deletes it with a `$patch: delete` ' +
      'patch (the render lacks it while the base has it): then the repository itself removed it. ' +
      'It is an error when a PVC of that name exists in another namespace written in the repo (it can never be used from ' +
      'here) or when the bundle is declared complete; a PVC of that name written without ' +
      '`metadata.namespace` is a note, since it lands in whatever namespace it is applied to (`kubectl apply -n`, an Argo CD ' +
      'destination, a Flux targetNamespace), which may be the pod\'s — and so is a workload written without a namespace ' +
      'whose claim the repo has in some namespace. Generic ephemeral volumes create their own claims and are never reported, nor is a StatefulSet pod volume ' +
      'that shares its name with a claim template (the controller replaces it with the template\'s claim). ' +
      'When a claim of the namespace that no pod mounts has a name one slip away (`sonar` / `sonarr`; never names differing ' +
      'only in digits), the message suggests it and the finding is a warning: the mount is most likely a typo.',
    fix:
      'Create the PVC in the pod\'s namespace (or move the workload next to it). For per-replica storage use a StatefulSet ' +
      'with volumeClaimTemplates or a generic ephemeral volume.',
    reportsAt: 'The `claimName` of the volume. For a claim the environment deletes, the `$patch: delete` line (the mount is related).',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Claims As Volumes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#claims-as-volumes' },
      { title: 'Kustomize docs: patchesStrategicMerge / patches (strategic merge patches, `$patch: delete`)', url: 'https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/patchesstrategicmerge/' },
      { title: 'kube-scheduler VolumeBinding plugin (persistentvolumeclaim not found)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumebinding/volume_binding.go' },
    ],
    messages: {
      missing: (d: { kind: string; workload: string; claim: string; namespace: string; complete: boolean; suggestion: string }) =>
        `${d.kind} "${d.workload}" mounts PersistentVolumeClaim "${d.claim}", which ${d.complete ? 'does not exist' : 'is not in the repo'} in namespace "${d.namespace}"` +
        `${d.suggestion ? ` (did you mean "${d.suggestion}"? nothing mounts that claim)` : ''}; ` +
        `pods stay Pending with 'persistentvolumeclaim "${d.claim}" not found'${d.complete ? '' : ' unless it exists in the cluster'}.`,
      removedByPatch: (d: { kind: string; workload: string; claim: string; namespace: string }) =>
        `${d.kind} "${d.workload}" mounts PersistentVolumeClaim "${d.claim}", which this environment's kustomization deletes ` +
        `with a \`$patch: delete\` patch while the workload still mounts it: the environment no longer creates the claim, so new pods stay ` +
        `Pending with 'persistentvolumeclaim "${d.claim}" not found' (and GitOps pruning deletes a claim that exists). ` +
        'Keep the claim in this environment, or remove the volume and its mounts from the workload here too.',
      otherNamespace: (d: { kind: string; workload: string; claim: string; namespace: string; others: string }) =>
        `${d.kind} "${d.workload}" in namespace "${d.namespace}" mounts PersistentVolumeClaim "${d.claim}", but a claim of that name exists only in ${d.others}; ` +
        'claims must be in the pod\'s namespace, so pods stay Pending.',
      unnamespaced: (d: { kind: string; workload: string; claim: string; namespace: string }) =>
        `${d.kind} "${d.workload}" in namespace "${d.namespace}" mounts PersistentVolumeClaim "${d.claim}", which the repo writes without ` +
        `a namespace: it is created in whatever namespace it is applied to, and unless that is "${d.namespace}" the pods stay Pending. ` +
        `Set metadata.namespace: ${d.namespace} on the claim to make it certain.`,
      unnamespacedWorkload: (d: { kind: string; workload: string; claim: string; others: string }) =>
        `${d.kind} "${d.workload}" is written without a namespace and mounts PersistentVolumeClaim "${d.claim}", which the repo has in namespace ${d.others}: ` +
        'the pods run in whatever namespace the workload is applied to, and unless that is the claim\'s they stay Pending. ' +
        'Set metadata.namespace on the workload to make it certain.',
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: web-data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: web-data, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: web-data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: web-data, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    /** The PVCs of a namespace that no pod template mounts: what a misspelt claimName most likely meant. */
    const unmountedByNamespace = new Map<string, string[]>();
    const unmountedClaims = (namespace: string): string[] => {
      let names = unmountedByNamespace.get(namespace);
      if (!names) {
        names = [...new Set(model.claimsOf()
          .filter((pvc) => (model.namespaceOf(pvc) ?? model.defaultNamespace) === namespace && model.usesOfClaim(namespace, pvc.name).length === 0)
          .map((pvc) => pvc.name))];
        unmountedByNamespace.set(namespace, names);
      }
      return names;
    };
    for (const template of model.templates) {
      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      for (const volume of template.volumes) {
        if (volume.claimName === undefined || isShadowedByClaimTemplate(template, volume)) continue;
        const lookup = model.lookupClaim(namespace, volume.claimName);
        if (lookup.status === 'found') continue;
        const path = [...volume.path, 'persistentVolumeClaim', 'claimName'];
        const elsewhere = model.claimsNamed(volume.claimName).filter((pvc) => model.namespaceOf(pvc) !== namespace);
        const base = { kind: template.kind, workload: template.workload.name, claim: volume.claimName, namespace };
        // A PVC written without a namespace lands in the namespace it is applied to (`kubectl apply -n`, an Argo CD
        // destination, a Flux targetNamespace): pvlint's "default" is a guess, and the claim may well be the pod's.
        const unnamespaced = elsewhere.find((pvc) => pvc.namespace === undefined);
        if (unnamespaced) {
          report({
            resource: template.workload, path, messageId: 'unnamespaced', severity: 'note', data: base,
            related: [{ resource: unnamespaced, path: ['metadata'], message: `PVC "${unnamespaced.name}" without metadata.namespace` }],
          });
          continue;
        }
        if (elsewhere.length > 0 && template.workload.namespace === undefined) {
          const claims = elsewhere.map((pvc) => `"${model.namespaceOf(pvc)}"`).join(', ');
          report({
            resource: template.workload, path, messageId: 'unnamespacedWorkload', severity: 'note', data: { ...base, others: claims },
            related: elsewhere.map((pvc) => ({ resource: pvc, path: ['metadata', 'namespace'], message: `PVC "${pvc.name}" in namespace "${model.namespaceOf(pvc)}"` })),
          });
          continue;
        }
        if (elsewhere.length > 0) {
          report({
            resource: template.workload,
            path,
            messageId: 'otherNamespace',
            severity: 'error',
            data: { ...base, others: `namespace ${elsewhere.map((pvc) => `"${model.namespaceOf(pvc)}"`).join(', ')}` },
            related: elsewhere.map((pvc) => ({ resource: pvc, path: ['metadata', 'name'], message: `PVC "${pvc.name}" in namespace "${model.namespaceOf(pvc)}"` })),
          });
          continue;
        }
        const removed = model.removed.find((r) => r.resource.kind === 'PersistentVolumeClaim' &&
          (r.resource.name === volume.claimName || r.deletedBy?.object?.metadata?.name === volume.claimName));
        if (removed) {
          // At the delete patch: the line the environment's author wrote, and the one to revert.
          const at = removed.deletedBy ? { resource: removed.deletedBy, path: ['$patch'] } : { resource: template.workload, path };
          report({
            ...at, messageId: 'removedByPatch', severity: 'error', data: base,
            related: [
              { resource: template.workload, path, message: `${template.kind} "${template.workload.name}" mounts it` },
              { resource: removed.resource, path: ['metadata', 'name'], message: `PersistentVolumeClaim "${removed.resource.name}" as the base declares it` },
            ],
          });
          continue;
        }
        const suggestion = likelyMeant(volume.claimName, unmountedClaims(namespace));
        const near = suggestion === undefined ? undefined : model.claimDefinitions(namespace, suggestion)[0];
        report({
          resource: template.workload,
          path,
          messageId: 'missing',
          // A claim of the namespace one slip away that nothing mounts: most likely the one meant.
          severity: lookup.status === 'missing' ? 'error' : suggestion !== undefined ? 'warning' : 'note',
          data: { ...base, complete: lookup.status === 'missing', suggestion: suggestion ?? '' },
          ...(near ? { related: [{ resource: near, path: ['metadata', 'name'], message: `PersistentVolumeClaim "${near.name}", which nothing mounts` }] } : {}),
        });
      }
    }
  },
});
