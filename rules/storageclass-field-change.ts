// A change edits a StorageClass field that cannot be updated (parameters, provisioner, reclaimPolicy,
// volumeBindingMode); flipping reclaimPolicy to Delete is called out: forced through, it deletes data.
import { defineChangeRule } from '../src/review/change-rule.js';
import { firstDifference, show } from '../src/review/diff.js';
import type { JsonPath, Resource } from '../src/types.js';

/** parameters is a map[string]string: YAML `iops: 3000` and `iops: "3000"` are one value. */
function parametersOf(object: any): Record<string, string> {
  const parameters = object?.parameters;
  if (!parameters || typeof parameters !== 'object') return {};
  return Object.fromEntries(Object.entries(parameters).map(([key, value]) => [key, value == null ? '' : String(value)]));
}

/** The GitOps tool that deletes and recreates the object when an update is refused, as its annotations ask; undefined when none. */
function forcedReplace(resource: Resource): string | undefined {
  const metadata = resource.object?.metadata ?? {};
  const syncOptions = String(metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '');
  if (/(^|,)\s*(Replace|Force)=true\s*(,|$)/.test(syncOptions)) return 'Argo CD (sync option Replace=true / Force=true)';
  const fluxForce = metadata.annotations?.['kustomize.toolkit.fluxcd.io/force'] ?? metadata.labels?.['kustomize.toolkit.fluxcd.io/force'];
  if (String(fluxForce ?? '') === 'enabled') return 'Flux (kustomize.toolkit.fluxcd.io/force: enabled)';
  return undefined;
}

export default defineChangeRule({
  id: 'storageclass-field-change',
  meta: {
    severity: 'error',
    severities: ['warning'],
    kinds: ['StorageClass'],
    summary: 'A change edits a StorageClass\'s parameters, provisioner, reclaimPolicy or volumeBindingMode, which cannot be updated; flipping reclaimPolicy to Delete is called out.',
    why:
      'A StorageClass is fixed once created except for its metadata, allowVolumeExpansion, mountOptions and allowedTopologies: ' +
      'the API server rejects other changes ("parameters: Forbidden: updates to parameters are forbidden.", the same for ' +
      'provisioner and reclaimPolicy, and "volumeBindingMode: … field is immutable"), so every sync fails. The usual way ' +
      'around it, deleting and recreating the class (kubectl replace --force, Argo CD Replace=true, Flux force), does go ' +
      'through: existing volumes keep the policy and parameters they were provisioned with, but every volume provisioned ' +
      'afterwards follows the new class; with reclaimPolicy Delete, deleting such a claim (a Helm uninstall, a GitOps prune, ' +
      'a namespace deletion) deletes its disk.',
    trigger:
      'With `--base`, a StorageClass of the same name in both trees of an environment whose `provisioner`, `parameters` ' +
      '(as strings), `reclaimPolicy` (default Delete) or `volumeBindingMode` (default Immediate) differ. A reclaimPolicy that ' +
      'becomes Delete gets its own message.',
    exceptions:
      'Changes to labels and annotations (including the default-class annotation), allowVolumeExpansion, mountOptions and ' +
      'allowedTopologies are allowed and never reported. A class that is only added or only removed is not a change of a ' +
      'class (see storage-removed-in-use for a removed class that claims still use). A class that asks its GitOps tool to ' +
      'replace it (`argocd.argoproj.io/sync-options` with Replace=true or Force=true, or `kustomize.toolkit.fluxcd.io/force: ' +
      'enabled`) is deleted and recreated, so the change goes through: a warning that says what the recreation does.',
    fix:
      'Leave the class as it is and create a new StorageClass under a new name with the new settings; point new claims (and ' +
      'the claim templates of new StatefulSets) at it, and migrate existing volumes when they need the new settings. To ' +
      'keep data when claims are deleted, set `persistentVolumeReclaimPolicy: Retain` on the existing PersistentVolumes ' +
      '(that field may change) rather than flipping the class.',
    reportsAt: 'The changed field of the StorageClass in the working tree; the class at the base as related.',
    references: [
      { title: 'kubernetes/kubernetes pkg/apis/storage/validation: ValidateStorageClassUpdate', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/storage/validation/validation.go' },
      { title: 'Kubernetes docs: Storage Classes, "Reclaim policy"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#reclaim-policy' },
      { title: 'Kubernetes docs: Change the Reclaim Policy of a PersistentVolume', url: 'https://kubernetes.io/docs/tasks/administer-cluster/change-pv-reclaim-policy/' },
    ],
    messages: {
      immutable: (d: { name: string; field: string; from: string; to: string; error: string }) =>
        `StorageClass "${d.name}": ${d.field} changes from ${d.from} to ${d.to}, but a StorageClass's parameters, provisioner, reclaimPolicy and ` +
        `volumeBindingMode cannot be updated ("${d.error}"); every sync of this change fails.`,
      replaced: (d: { name: string; field: string; from: string; to: string; how: string }) =>
        `StorageClass "${d.name}": ${d.field} changes from ${d.from} to ${d.to}; the API server forbids updating it, but ${d.how} deletes and ` +
        'recreates the class, so the change goes through: volumes provisioned before keep the old settings, only new volumes get the new ones.',
      reclaimToDelete: (d: { name: string; from: string }) =>
        `StorageClass "${d.name}": reclaimPolicy changes from ${d.from} to Delete. The API server rejects the update ("reclaimPolicy: Forbidden: updates to ` +
        'reclaimPolicy are forbidden."); if the class is recreated to force it, every volume provisioned from it afterwards is deleted together with its claim.',
    },
    examples: {
      invalid: [
        {
          base: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: keep}
provisioner: ebs.csi.aws.com
reclaimPolicy: Retain
`,
          head: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: keep}
provisioner: ebs.csi.aws.com
reclaimPolicy: Delete
`,
        },
      ],
      valid: [
        {
          base: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: keep}
provisioner: ebs.csi.aws.com
reclaimPolicy: Retain
`,
          head: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: keep}
provisioner: ebs.csi.aws.com
reclaimPolicy: Retain
allowVolumeExpansion: true
`,
        },
      ],
    },
  },
  check({ changes, report }) {
    for (const { base, head } of changes.pairs('StorageClass')) {
      const related = [{ resource: base, path: ['metadata', 'name'] as JsonPath, message: `StorageClass "${base.name}" at the base` }];
      const b = base.object ?? {};
      const h = head.object ?? {};
      const how = forcedReplace(head);
      const immutable = (path: JsonPath, from: unknown, to: unknown, error: string) => how
        ? report({ resource: head, path, messageId: 'replaced', severity: 'warning', data: { name: head.name, field: path.join('.'), from: show(from), to: show(to), how }, related })
        : report({ resource: head, path, messageId: 'immutable', data: { name: head.name, field: path.join('.'), from: show(from), to: show(to), error }, related });

      if (String(b.provisioner ?? '') !== String(h.provisioner ?? '')) {
        immutable(['provisioner'], b.provisioner, h.provisioner, 'provisioner: Forbidden: updates to provisioner are forbidden.');
      }
      const fromParameters = parametersOf(b);
      const toParameters = parametersOf(h);
      const diff = firstDifference(fromParameters, toParameters, ['parameters']);
      if (diff) {
        const key = diff[1] as string | undefined;
        immutable(diff, key === undefined ? fromParameters : fromParameters[key], key === undefined ? toParameters : toParameters[key], 'parameters: Forbidden: updates to parameters are forbidden.');
      }
      const fromReclaim = String(b.reclaimPolicy ?? 'Delete');
      const toReclaim = String(h.reclaimPolicy ?? 'Delete');
      if (fromReclaim !== toReclaim) {
        if (toReclaim === 'Delete') {
          report({ resource: head, path: ['reclaimPolicy'], messageId: 'reclaimToDelete', data: { name: head.name, from: show(fromReclaim) }, related });
        } else {
          immutable(['reclaimPolicy'], fromReclaim, toReclaim, 'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.');
        }
      }
      const fromBinding = String(b.volumeBindingMode ?? 'Immediate');
      const toBinding = String(h.volumeBindingMode ?? 'Immediate');
      if (fromBinding !== toBinding) {
        immutable(['volumeBindingMode'], fromBinding, toBinding, 'volumeBindingMode: Invalid value: … field is immutable');
      }
    }
  },
});
