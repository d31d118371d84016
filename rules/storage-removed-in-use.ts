// A change removes a PersistentVolumeClaim, StorageClass or PersistentVolume that the environment still uses, or
// points a workload at a new claim in place of one it removes.
import type { StorageModel } from '../src/model/storage-model.js';
import { defineChangeRule, type EnvironmentChanges } from '../src/review/change-rule.js';
import { isEmptyValue, valuesEqual } from '../src/review/diff.js';
import type { JsonPath, Resource } from '../src/types.js';

/** What keeps a removed object in the cluster although it left Git: Helm's keep, Argo CD's Prune=false, Flux's prune: disabled. */
function pruneProtection(resource: Resource): string | undefined {
  const metadata = resource.object?.metadata ?? {};
  const annotations = metadata.annotations ?? {};
  const labels = metadata.labels ?? {};
  if (annotations['helm.sh/resource-policy'] === 'keep') return 'helm.sh/resource-policy: keep';
  const options = String(annotations['argocd.argoproj.io/sync-options'] ?? '').split(',').map((o) => o.trim());
  if (options.includes('Prune=false')) return 'argocd.argoproj.io/sync-options: Prune=false';
  if (annotations['kustomize.toolkit.fluxcd.io/prune'] === 'disabled' || labels['kustomize.toolkit.fluxcd.io/prune'] === 'disabled') {
    return 'kustomize.toolkit.fluxcd.io/prune: disabled';
  }
  return undefined;
}

/**
 * Who deletes a claim that leaves Git, in words, from the tools that manage it as far as the base shows (the
 * environment's Argo CD Application, Flux Kustomization or HelmRelease, else markers): `active` ends "…, it stays
 * Terminating", `passive` follows "is". A Flux Kustomization with `prune: false` deletes nothing: `kept` says so.
 */
function deleterOf(baseModel: StorageModel, pvc: Resource): { active: string; passive: string } | { kept: string } {
  const applied = pvc.appliedBy;
  if (applied?.kind === 'flux-kustomization' && !applied.prune) return { kept: `Flux Kustomization "${applied.name}" (prune: false)` };
  const tools = baseModel.deletionExposure(pvc).tools;
  const active: string[] = [];
  const passive: string[] = [];
  for (const t of tools) {
    if (t.tool === 'helm') {
      active.push(`Helm deletes it on the upgrade (${t.why})`);
      passive.push(`deleted by Helm on the upgrade (${t.why})`);
    } else if (t.tool === 'argocd' && applied?.kind === 'argocd-application' && !applied.prune) {
      // Without automated prune, Argo CD shows the claim as needing pruning and deletes it on a sync with pruning.
      active.push(`Argo CD deletes it on the first sync with pruning (${t.why}; automated prune is off)`);
      passive.push(`deleted by Argo CD on the first sync with pruning (${t.why}; automated prune is off)`);
    } else {
      const name = t.tool === 'argocd' ? 'Argo CD' : 'Flux';
      active.push(`${name} prunes it (${t.why})`);
      passive.push(`pruned by ${name} (${t.why})`);
    }
  }
  if (active.length === 0) {
    const what = 'what applies the repo prunes (a GitOps tool, kubectl apply --prune; the repo does not show which)';
    return { active: `if ${what}, it deletes the claim`, passive: `deleted if ${what}` };
  }
  return { active: active.join(' and '), passive: passive.join(' and ') };
}

const claimNamePath = (volumePath: JsonPath): JsonPath => [...volumePath, 'persistentVolumeClaim', 'claimName'];

/**
 * The working tree's version of a base workload: the same kind, namespace and name; else, for a workload the change
 * renamed (a Kustomize namePrefix, a Helm release name), a new workload of the same kind and namespace with the same
 * selector.
 */
function successorOf(workload: Resource, baseModel: StorageModel, model: StorageModel, changes: EnvironmentChanges): Resource | undefined {
  const same = changes.headOf(workload);
  if (same) return same;
  const selector = workload.object?.spec?.selector;
  if (isEmptyValue(selector)) return undefined;
  const namespace = baseModel.namespaceOf(workload) ?? baseModel.defaultNamespace;
  return changes
    .added(workload.kind)
    .find((candidate) => (model.namespaceOf(candidate) ?? model.defaultNamespace) === namespace && valuesEqual(selector, candidate.object?.spec?.selector));
}

/** Claims and claim templates of the working tree that name a class, with where they name it. */
function classUsers(model: StorageModel): { resource: Resource; path: JsonPath; label: string; claim: any }[] {
  const users: { resource: Resource; path: JsonPath; label: string; claim: any }[] = [];
  for (const pvc of model.ofKind('PersistentVolumeClaim')) {
    const viaAnnotation = pvc.object?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] != null;
    users.push({
      resource: pvc,
      path: viaAnnotation ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'] : ['spec', 'storageClassName'],
      label: `PersistentVolumeClaim "${pvc.name}"`,
      claim: pvc.object,
    });
  }
  for (const template of model.templates) {
    for (const claimTemplate of template.claimTemplates) {
      users.push({
        resource: template.workload,
        path: [...claimTemplate.path, 'spec', 'storageClassName'],
        label: `StatefulSet "${template.workload.name}" volumeClaimTemplate "${claimTemplate.name}"`,
        claim: claimTemplate.object,
      });
    }
  }
  return users;
}

export default defineChangeRule({
  id: 'storage-removed-in-use',
  meta: {
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'StorageClass', 'PersistentVolume'],
    summary: 'A change removes a PersistentVolumeClaim, StorageClass or PersistentVolume that the environment still uses, or swaps a workload\'s claim for a new one.',
    why:
      'What leaves Git leaves the cluster: Argo CD and Flux prune it, Helm deletes it on upgrade. A deleted claim stays ' +
      'Terminating while pods use it (kubernetes.io/pvc-protection); when they restart it is gone, its volume is deleted ' +
      'with it when the reclaim policy is Delete (the default for dynamic provisioning), and the pods stay Pending ' +
      '(`persistentvolumeclaim "x" not found`) — nothing recreates a standalone claim. A workload switched to a new claim ' +
      'starts on an empty volume while the old claim, with the data, is pruned. A deleted StorageClass leaves existing ' +
      'volumes alone, but claims that name it can no longer be provisioned (a StatefulSet scale-up, a recreated claim) ' +
      'or expanded. A deleted PersistentVolume stays Terminating while bound (kubernetes.io/pv-protection) and is gone once ' +
      'released, so a claim that names it in `volumeName` can never bind again.',
    trigger:
      'With `--base`, per environment: a PersistentVolumeClaim at the base that the working tree no longer has (same namespace ' +
      'and name, and no StatefulSet claim template provides it) while a pod template in the working tree still mounts it; a ' +
      'workload present in both trees whose volume mounted a removed claim at the base and mounts another claim now; a ' +
      'workload renamed by the change (same kind, namespace and selector) counts as the same workload; a ' +
      'StorageClass at the base that the working tree no longer has (nor the configuration declares) while a claim or claim ' +
      'template still names it, or relies on it as the default class; a PersistentVolume at the base that the working tree no ' +
      'longer has while a claim names it in `spec.volumeName`.',
    exceptions:
      'A removed claim that carries `helm.sh/resource-policy: keep`, `argocd.argoproj.io/sync-options: Prune=false` or ' +
      '`kustomize.toolkit.fluxcd.io/prune: disabled` at the base is not deleted by that tool: the finding is a warning ' +
      '(it stays in the cluster, unmanaged); so is a claim a Flux Kustomization with `prune: false` applies. The message names ' +
      'what deletes the claim: the Argo CD Application or Flux Kustomization that applies it in the environment (Argo CD ' +
      'without automated prune deletes it on the first sync with pruning), Helm for a chart\'s or a Flux HelmRelease\'s own ' +
      'objects, else the tool its markers show; with none, whatever applies the repo, if it prunes. A new claim that is a clone or restore (`dataSource`/`dataSourceRef`) is a ' +
      'deliberate migration and is not reported. A removed StorageClass is a warning: existing volumes keep working. Objects ' +
      'moved to another environment are not followed: each environment is compared with itself at the base.',
    fix:
      'Keep the claim (or class, or PV) in the environment as long as a workload uses it. To retire a claim, first remove ' +
      'its consumers, then the claim, in a later change; to move a workload to a new claim, copy the data (a clone with ' +
      '`dataSource`, a snapshot restore) and set `persistentVolumeReclaimPolicy: Retain` on the old volume until the move ' +
      'is verified; to keep an object in the cluster without Git, annotate it (`helm.sh/resource-policy: keep`, Argo CD ' +
      '`Prune=false`, Flux `kustomize.toolkit.fluxcd.io/prune: disabled`) in a change before the one that removes it.',
    reportsAt: 'The consumer in the working tree that still uses the removed object (a claimName, a storageClassName, a volumeName); the removed object at the base as related, with its path in the base tree.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Storage Object in Use Protection"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#storage-object-in-use-protection' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reclaiming"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reclaiming' },
      { title: 'Argo CD: Sync Options, "No Prune Resources"', url: 'https://argo-cd.readthedocs.io/en/stable/user-guide/sync-options/#no-prune-resources' },
      { title: 'Flux: Kustomization, "Garbage collection"', url: 'https://fluxcd.io/flux/components/kustomize/kustomizations/#prune' },
      { title: 'Helm: Chart tips and tricks, "Tell Helm Not To Uninstall a Resource"', url: 'https://helm.sh/docs/howto/charts_tips_and_tricks/#tell-helm-not-to-uninstall-a-resource' },
    ],
    messages: {
      claimRemoved: (d: { kind: string; workload: string; claim: string; namespace: string; deleter: string }) =>
        `${d.kind} "${d.workload}" still mounts PersistentVolumeClaim "${d.claim}", which this change removes from namespace "${d.namespace}": ${d.deleter}, ` +
        'it stays Terminating while pods use it, then its volume goes with it under reclaim policy Delete, and new pods stay Pending ' +
        `('persistentvolumeclaim "${d.claim}" not found').`,
      claimRemovedProtected: (d: { kind: string; workload: string; claim: string; namespace: string; protection: string }) =>
        `${d.kind} "${d.workload}" still mounts PersistentVolumeClaim "${d.claim}", which this change removes from namespace "${d.namespace}"; ${d.protection} keeps it in the ` +
        'cluster, but nothing in Git manages it any more.',
      claimReplaced: (d: { kind: string; workload: string; volume: string; from: string; to: string; deleted: string }) =>
        `${d.kind} "${d.workload}": volume "${d.volume}" now mounts PersistentVolumeClaim "${d.to}" instead of "${d.from}", which this change removes: the pods start on ` +
        `a new, empty volume, and "${d.from}" with the data is ${d.deleted}, its volume deleted under reclaim policy Delete.`,
      claimReplacedProtected: (d: { kind: string; workload: string; volume: string; from: string; to: string; protection: string }) =>
        `${d.kind} "${d.workload}": volume "${d.volume}" now mounts PersistentVolumeClaim "${d.to}" instead of "${d.from}", which this change removes: the pods start on ` +
        `a new, empty volume; ${d.protection} keeps "${d.from}" with the data in the cluster, unmanaged.`,
      classRemoved: (d: { user: string; storageClass: string; implicit: boolean }) =>
        `${d.user} ${d.implicit ? 'relies on the default StorageClass' : 'names StorageClass'} "${d.storageClass}", which this change removes: existing volumes keep working, ` +
        'but new claims from it (a StatefulSet scale-up, a recreated claim) stay Pending and resizing is rejected.',
      volumeRemoved: (d: { claim: string; volume: string }) =>
        `PersistentVolumeClaim "${d.claim}" names PersistentVolume "${d.volume}" in volumeName, which this change removes: the PV stays Terminating while bound ` +
        '(kubernetes.io/pv-protection) and is gone once released, so the claim can never bind again.',
    },
    examples: {
      invalid: [
        {
          base: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads}
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
          head: `apiVersion: apps/v1
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
        },
      ],
      valid: [
        {
          base: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads}
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
          head: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx}]
`,
        },
      ],
    },
  },
  check({ base: baseModel, head: model, changes, report }) {
    // Claims the change removes, by namespace/name.
    const removedClaims = new Map<string, Resource>();
    for (const pvc of changes.removed('PersistentVolumeClaim')) {
      const namespace = baseModel.namespaceOf(pvc) ?? baseModel.defaultNamespace;
      if (model.lookupClaim(namespace, pvc.name).status === 'found') continue;
      removedClaims.set(`${namespace}/${pvc.name}`, pvc);
    }
    const removedRelated = (pvc: Resource) => [{ resource: pvc, path: ['metadata', 'name'] as JsonPath, message: `PersistentVolumeClaim "${pvc.name}", removed by this change` }];

    // Still mounted in the working tree.
    const stillMounted = new Set<string>();
    for (const [key, pvc] of removedClaims) {
      const namespace = key.slice(0, key.indexOf('/'));
      for (const use of model.usesOfClaim(namespace, pvc.name)) {
        stillMounted.add(key);
        const deleter = deleterOf(baseModel, pvc);
        const protection = pruneProtection(pvc) ?? ('kept' in deleter ? deleter.kept : undefined);
        const data = { kind: use.template.kind, workload: use.template.workload.name, claim: pvc.name, namespace };
        report({
          resource: use.template.workload,
          path: claimNamePath(use.volume.path),
          ...(protection
            ? { messageId: 'claimRemovedProtected' as const, severity: 'warning' as const, data: { ...data, protection } }
            : { messageId: 'claimRemoved' as const, data: { ...data, deleter: 'active' in deleter ? deleter.active : '' } }),
          related: removedRelated(pvc),
        });
      }
    }

    // Swapped: the same workload's volume mounted a removed claim at the base and another claim now.
    for (const baseTemplate of baseModel.templates) {
      const workload = successorOf(baseTemplate.workload, baseModel, model, changes);
      if (!workload) continue;
      const headTemplate = model.templates.find((t) => t.workload === workload);
      if (!headTemplate) continue;
      const namespace = baseModel.namespaceOf(baseTemplate.workload) ?? baseModel.defaultNamespace;
      for (const volume of baseTemplate.volumes) {
        if (volume.claimName === undefined) continue;
        const key = `${namespace}/${volume.claimName}`;
        const pvc = removedClaims.get(key);
        if (!pvc || stillMounted.has(key)) continue;
        const now = headTemplate.volumes.find((v) => v.name === volume.name);
        if (!now || now.claimName === undefined || now.claimName === volume.claimName) continue;
        const replacement = model.lookupClaim(model.namespaceOf(workload) ?? model.defaultNamespace, now.claimName);
        if (replacement.status === 'found' && replacement.value.kind === 'pvc') {
          const spec = replacement.value.resource.object?.spec ?? {};
          if (spec.dataSource != null || spec.dataSourceRef != null) continue;
        }
        const deleter = deleterOf(baseModel, pvc);
        const protection = pruneProtection(pvc) ?? ('kept' in deleter ? deleter.kept : undefined);
        const data = { kind: headTemplate.kind, workload: workload.name, volume: volume.name, from: volume.claimName, to: now.claimName };
        report({
          resource: workload,
          path: claimNamePath(now.path),
          ...(protection
            ? { messageId: 'claimReplacedProtected' as const, severity: 'warning' as const, data: { ...data, protection } }
            : { messageId: 'claimReplaced' as const, data: { ...data, deleted: 'passive' in deleter ? deleter.passive : '' } }),
          related: removedRelated(pvc),
        });
      }
    }

    // StorageClasses that claims still name (or rely on as the default).
    const removedClasses = changes.removed('StorageClass').filter((sc) => model.lookupClass(sc.name).status !== 'found');
    if (removedClasses.length > 0) {
      const baseDefault = baseModel.newestDefaultClass();
      const headDefault = model.newestDefaultClass();
      for (const user of classUsers(model)) {
        const own = model.classOfClaim(user.claim);
        const implicit = !own.set;
        const name = own.set ? own.name : baseDefault && !headDefault ? baseDefault.name : undefined;
        const removed = name === undefined ? undefined : removedClasses.find((sc) => sc.name === name);
        if (!removed) continue;
        report({
          resource: user.resource,
          path: implicit ? user.path.slice(0, -1) : user.path,
          messageId: 'classRemoved',
          severity: 'warning',
          data: { user: user.label, storageClass: removed.name, implicit },
          related: [{ resource: removed, path: ['metadata', 'name'], message: `StorageClass "${removed.name}", removed by this change` }],
        });
      }
    }

    // PersistentVolumes that claims name in volumeName.
    for (const pv of changes.removed('PersistentVolume')) {
      if (model.lookupVolume(pv.name).status === 'found') continue;
      for (const pvc of model.ofKind('PersistentVolumeClaim')) {
        if (pvc.object?.spec?.volumeName !== pv.name) continue;
        report({
          resource: pvc,
          path: ['spec', 'volumeName'],
          messageId: 'volumeRemoved',
          severity: 'warning',
          data: { claim: pvc.name, volume: pv.name },
          related: [{ resource: pv, path: ['metadata', 'name'], message: `PersistentVolume "${pv.name}", removed by this change` }],
        });
      }
    }
  },
});
