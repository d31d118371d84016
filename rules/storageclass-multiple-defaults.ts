// R09: more than one StorageClass is marked default.
import { defineRule } from '../src/define-rule.js';
import { compareVersion } from '../src/model/cluster-facts.js';
import { isDefaultClass } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

const GA = 'storageclass.kubernetes.io/is-default-class';
const BETA = 'storageclass.beta.kubernetes.io/is-default-class';

function annotationPath(storageClass: Resource): JsonPath {
  const annotations = storageClass.object?.metadata?.annotations ?? {};
  return ['metadata', 'annotations', annotations[GA] === 'true' ? GA : BETA];
}

export default defineRule({
  id: 'storageclass-multiple-defaults',
  meta: {
    catalogueId: 'R09',
    severity: 'warning',
    severities: ['error'],
    kinds: ['StorageClass'],
    summary: 'More than one StorageClass is marked as the default class.',
    why:
      'Claims without storageClassName get the default class from the DefaultStorageClass admission plugin. With several ' +
      'defaults, Kubernetes before 1.26 rejects every such claim ("N default StorageClasses were found"); since 1.26 the ' +
      'most recently created default wins, which depends on the order the classes were applied, not on anything in the ' +
      'repo — so which disks new claims get can change when a class is re-created.',
    trigger:
      'Two or more distinct StorageClasses — in the scope, or declared as the cluster\'s classes in the configuration — ' +
      'whose annotation storageclass.kubernetes.io/is-default-class (or the beta storageclass.beta.kubernetes.io/is-default-class) ' +
      'is exactly the string "true" (a declared class with `default: true`). Warning; error when the configuration states a ' +
      'Kubernetes version before 1.26.',
    exceptions:
      'Values other than "true" ("True", "yes") do not make a class default and are not counted. The same class ' +
      'written twice in one scope counts once. Defaults that exist only in the cluster are not visible.',
    fix:
      'Keep exactly one default class: set the annotation to "false" (or remove it) on the others. When switching the ' +
      'default, add the new one and then remove the old one; claims created in the short window without a default get ' +
      'it assigned retroactively (Kubernetes 1.28+).',
    reportsAt: 'The default-class annotation of every default class after the first; related: the first.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Default StorageClass"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#default-storageclass' },
      { title: 'Kubernetes docs: Change the default StorageClass', url: 'https://kubernetes.io/docs/tasks/administer-cluster/change-default-storage-class/' },
      { title: 'kubernetes pkg/volume/util/storageclass.go (GetDefaultClass)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/util/storageclass.go' },
      { title: 'kubernetes/kubernetes PR #110559 (newest default wins, retroactive default assignment)', url: 'https://github.com/kubernetes/kubernetes/pull/110559' },
    ],
    messages: {
      multiple: (d: { storageClass: string; others: string }) =>
        `StorageClass "${d.storageClass}" is marked default, and so is ${d.others}; claims without storageClassName are rejected ` +
        'before Kubernetes 1.26 ("default StorageClasses were found") and since 1.26 get whichever default was created last, ' +
        'which depends on apply order.',
      multipleOld: (d: { storageClass: string; others: string; version: string }) =>
        `StorageClass "${d.storageClass}" is marked default, and so is ${d.others}; on Kubernetes ${d.version} (before 1.26) the API server ` +
        'rejects every claim without storageClassName ("default StorageClasses were found").',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp2
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: kubernetes.io/aws-ebs
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp2
  annotations: {storageclass.kubernetes.io/is-default-class: "false"}
provisioner: kubernetes.io/aws-ebs
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
`,
      ],
    },
  },
  check({ model, report }) {
    const byName = new Map<string, Resource>();
    // Defaults the configuration declares for the cluster come first: the repo's extra default is the one to change.
    for (const storageClass of model.defaultClasses) {
      if (model.isDeclared?.(storageClass)) byName.set(storageClass.name, storageClass);
    }
    for (const storageClass of model.ofKind('StorageClass')) {
      if (isDefaultClass(storageClass) && !byName.has(storageClass.name)) byName.set(storageClass.name, storageClass);
    }
    const defaults = [...byName.values()];
    if (defaults.length < 2) return;
    const version = model.kubernetesVersion;
    const before126 = version !== undefined && compareVersion(version, 1, 26) < 0;
    const [first, ...rest] = defaults;
    for (const storageClass of rest) {
      const others = defaults.filter((c) => c !== storageClass).map((c) => `StorageClass "${c.name}"${model.isDeclared?.(c) ? ' (declared in the configuration)' : ''}`).join(', ');
      report({
        resource: storageClass,
        path: annotationPath(storageClass),
        messageId: before126 ? 'multipleOld' : 'multiple',
        severity: before126 ? 'error' : 'warning',
        data: { storageClass: storageClass.name, others, version: version?.text ?? '' },
        related: [{ resource: first, path: annotationPath(first), message: `StorageClass "${first.name}" is also default` }],
      });
    }
  },
});
