// A change replaces a StatefulSet with one of another name (or namespace) and the same claim templates: the new
// pods get new, empty claims, and the old claims with the data are left behind (or deleted).
import { defineChangeRule } from '../src/review/change-rule.js';
import { valuesEqual } from '../src/review/diff.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { Resource } from '../src/types.js';

function templateNames(sts: Resource): string[] {
  const templates = sts.object?.spec?.volumeClaimTemplates;
  if (!Array.isArray(templates)) return [];
  return templates.map((t: any) => String(t?.metadata?.name ?? '')).filter(Boolean).sort();
}

const claimNames = (templates: readonly string[], sts: string, count: number) =>
  templates.flatMap((t) => Array.from({ length: count }, (_, i) => `${t}-${sts}-${i}`));

/** The replicas the StatefulSet is written with (1 when unset, negative or not a number): one claim per ordinal. */
function replicasOf(model: StorageModel, sts: Resource): number {
  const template = model.templateOf(sts);
  const written = template ? model.podCount(template).replicas : undefined;
  return written?.kind === 'count' && written.count >= 0 ? written.count : 1;
}

function list(names: readonly string[]): string {
  if (names.length === 0) return 'none';
  const shown = names.slice(0, 3).map((n) => `"${n}"`).join(', ');
  return names.length > 3 ? `${shown}, …` : shown;
}

export default defineChangeRule({
  id: 'statefulset-renamed',
  meta: {
    severity: 'warning',
    severities: ['error'],
    kinds: ['StatefulSet'],
    summary: 'A change replaces a StatefulSet with one of another name (or namespace) and the same claim templates: its pods start on new, empty claims.',
    why:
      'A StatefulSet\'s pods use the claims named `<template>-<statefulset>-<ordinal>`. Renamed (directly, or by a Kustomize ' +
      '`namePrefix`/`nameSuffix` or a Helm release name), it is a new StatefulSet: GitOps deletes the old one and creates the ' +
      'new one, whose pods get new claims, provisioned empty. The old claims with the data stay behind, orphaned (the ' +
      'default retention policy keeps them); with `persistentVolumeClaimRetentionPolicy.whenDeleted: Delete` they are ' +
      'deleted with the old StatefulSet, and their volumes with them under reclaim policy Delete.',
    trigger:
      'With `--base`, in one environment: a StatefulSet at the base that the working tree no longer has, and a StatefulSet ' +
      'in the working tree that the base did not have, with the same volumeClaimTemplate names (at least one) and the same ' +
      '`spec.selector` or the same pod template labels. An error when the old StatefulSet\'s `whenDeleted` is Delete.',
    exceptions:
      'StatefulSets without claim templates carry no per-replica data and are not reported. A StatefulSet that is only ' +
      'removed or only added is not a rename. When several new StatefulSets could be the successor, the first one with the ' +
      'same selector (else the same labels) in the same namespace is taken.',
    fix:
      'Keep the old name (exclude the StatefulSet from the prefix or suffix, or set the name explicitly). If the rename is ' +
      'wanted, move the data: set the old volumes to `persistentVolumeReclaimPolicy: Retain`, delete the old claims, clear ' +
      'the volumes\' claimRef, and create claims with the new names that bind them (`volumeName`) before the new StatefulSet ' +
      'starts; or restore the new claims from snapshots.',
    reportsAt: 'The name of the new StatefulSet in the working tree; the old StatefulSet at the base as related.',
    references: [
      { title: 'Kubernetes docs: StatefulSets, "Stable Storage"', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#stable-storage' },
      { title: 'Kubernetes docs: StatefulSets, "PersistentVolumeClaim retention"', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#persistentvolumeclaim-retention' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reserving a PersistentVolume"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reserving-a-persistentvolume' },
    ],
    messages: {
      renamed: (d: { from: string; to: string; fromNamespace: string; toNamespace: string; templates: string; newClaims: string; oldClaims: string; deleted: boolean }) =>
        `StatefulSet "${d.to}"${d.toNamespace !== d.fromNamespace ? ` in namespace "${d.toNamespace}"` : ''} replaces "${d.from}"${d.toNamespace !== d.fromNamespace ? ` of namespace "${d.fromNamespace}"` : ''} ` +
        `with the same claim templates (${d.templates}): its pods get new, empty claims (${d.newClaims}), while the data stays in ${d.oldClaims}` +
        (d.deleted ? ', which are deleted with the old StatefulSet (persistentVolumeClaimRetentionPolicy.whenDeleted: Delete).' : ', orphaned.'),
    },
    examples: {
      invalid: [
        {
          base: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
          head: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: postgres}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
        },
      ],
      valid: [
        {
          base: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
          head: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: postgres:17, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
        },
      ],
    },
  },
  check({ base: baseModel, head: model, changes, report }) {
    const candidates = changes.added('StatefulSet').filter((sts) => templateNames(sts).length > 0);
    const taken = new Set<Resource>();
    for (const old of changes.removed('StatefulSet')) {
      const templates = templateNames(old);
      if (templates.length === 0) continue;
      const oldNamespace = baseModel.namespaceOf(old) ?? baseModel.defaultNamespace;
      const sameTemplates = candidates.filter((sts) => !taken.has(sts) && templateNames(sts).join('\u0000') === templates.join('\u0000'));
      const selectorMatch = (sts: Resource) => valuesEqual(old.object?.spec?.selector, sts.object?.spec?.selector);
      const labelMatch = (sts: Resource) => valuesEqual(old.object?.spec?.template?.metadata?.labels, sts.object?.spec?.template?.metadata?.labels);
      const sameNamespace = (sts: Resource) => (model.namespaceOf(sts) ?? model.defaultNamespace) === oldNamespace;
      const successor =
        sameTemplates.find((sts) => sameNamespace(sts) && selectorMatch(sts)) ??
        sameTemplates.find((sts) => sameNamespace(sts) && labelMatch(sts)) ??
        sameTemplates.find(selectorMatch) ??
        sameTemplates.find(labelMatch);
      if (!successor) continue;
      taken.add(successor);
      const deleted = old.object?.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete';
      report({
        resource: successor,
        path: ['metadata', 'name'],
        messageId: 'renamed',
        ...(deleted ? { severity: 'error' as const } : {}),
        data: {
          from: old.name,
          to: successor.name,
          fromNamespace: oldNamespace,
          toNamespace: model.namespaceOf(successor) ?? model.defaultNamespace,
          templates: templates.map((t) => `"${t}"`).join(', '),
          newClaims: list(claimNames(templates, successor.name, replicasOf(model, successor))),
          oldClaims: list(claimNames(templates, old.name, replicasOf(baseModel, old))),
          deleted,
        },
        related: [{ resource: old, path: ['metadata', 'name'], message: `StatefulSet "${old.name}", removed by this change` }],
      });
    }
  },
});
