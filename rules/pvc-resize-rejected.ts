// A change lowers a claim's storage request (never allowed), or raises it while the claim's StorageClass does not
// allow expansion (rejected by the PersistentVolumeClaimResize admission plugin).
import { compareQuantities, parseQuantity } from '../src/model/quantity.js';
import { defineChangeRule } from '../src/review/change-rule.js';
import type { JsonPath } from '../src/types.js';

const REQUEST: JsonPath = ['spec', 'resources', 'requests', 'storage'];

export default defineChangeRule({
  id: 'pvc-resize-rejected',
  meta: {
    severity: 'error',
    kinds: ['PersistentVolumeClaim'],
    summary: 'A change shrinks a PersistentVolumeClaim\'s storage request, or grows it while its StorageClass does not allow volume expansion.',
    why:
      'Kubernetes does not shrink volumes: the API server rejects a lower request ("spec.resources.requests.storage: Forbidden: ' +
      'field can not be less than previous value"). A higher request is admitted only for a claim whose StorageClass sets ' +
      '`allowVolumeExpansion: true` ("only dynamically provisioned pvc can be resized and the storageclass that provisions the ' +
      'pvc must support resize"). Either way the sync or `helm upgrade` fails on every attempt, and recreating the claim to ' +
      'force the new size starts from an empty volume.',
    trigger:
      'With `--base`, a PersistentVolumeClaim of the same namespace and name in both trees of an environment whose ' +
      '`spec.resources.requests.storage` is lower than at the base (compared as quantities: "10Gi" equals "10240Mi"); or ' +
      'higher, when the claim\'s class (its `storageClassName`, else the default class in the repo) is `""` or a StorageClass ' +
      'in the working tree (or declared in the configuration) without `allowVolumeExpansion: true`.',
    exceptions:
      'A growth whose class is not in the repo (nor declared in the configuration) is not reported: the cluster\'s class may ' +
      'allow it. Requests that are not valid quantities are left to claim-spec-invalid. StatefulSet claim templates are ' +
      'covered by immutable-storage-field-change (templates cannot change at all). With the RecoverVolumeExpansionFailure ' +
      'feature (on by default since v1.32, GA in v1.34), a request may go back down after a failed expansion as long as it stays above ' +
      'the claim\'s status.capacity; pvlint cannot see the capacity and still reports it.',
    fix:
      'To shrink, create a new, smaller claim, copy the data (or restore a snapshot), move the workload to it and delete the ' +
      'old claim. To grow, set `allowVolumeExpansion: true` on the StorageClass first (that field may change), then raise the ' +
      'request; a claim without a class (`""`, statically provisioned) is resized by resizing its volume by hand.',
    reportsAt: 'The storage request in the working tree (the patch that sets it, for a Kustomize overlay); the claim at the base and the StorageClass as related.',
    references: [
      { title: 'kubernetes/kubernetes pkg/apis/core/validation: ValidatePersistentVolumeClaimUpdate ("field can not be less than previous value")', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'kubernetes/kubernetes plugin/pkg/admission/storage/persistentvolume/resize: PersistentVolumeClaimResize admission', url: 'https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/storage/persistentvolume/resize/admission.go' },
      { title: 'Kubernetes docs: Persistent Volumes, "Expanding Persistent Volumes Claims"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#expanding-persistent-volumes-claims' },
      { title: 'Kubernetes docs: Persistent Volumes, "Recovering from Failure when Expanding Volumes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#recovering-from-failure-when-expanding-volumes' },
    ],
    messages: {
      shrink: (d: { name: string; from: string; to: string }) =>
        `PersistentVolumeClaim "${d.name}": the storage request shrinks from ${d.from} to ${d.to}, but volumes cannot shrink: the API server rejects it ` +
        '("spec.resources.requests.storage: Forbidden: field can not be less than previous value").',
      growStatic: (d: { name: string; from: string; to: string }) =>
        `PersistentVolumeClaim "${d.name}": the storage request grows from ${d.from} to ${d.to}, but the claim has no StorageClass (""), and only dynamically provisioned ` +
        'claims can be resized ("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize").',
      growNotAllowed: (d: { name: string; from: string; to: string; storageClass: string }) =>
        `PersistentVolumeClaim "${d.name}": the storage request grows from ${d.from} to ${d.to}, but StorageClass "${d.storageClass}" does not set allowVolumeExpansion: true, ` +
        'so the update is rejected ("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize").',
    },
    examples: {
      invalid: [
        {
          base: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 20Gi}}
`,
          head: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
        },
      ],
      valid: [
        {
          base: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
allowVolumeExpansion: true
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 10Gi}}
`,
          head: `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
allowVolumeExpansion: true
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 20Gi}}
`,
        },
      ],
    },
  },
  check({ head: model, changes, report }) {
    for (const { base, head } of changes.pairs('PersistentVolumeClaim')) {
      const from = parseQuantity(base.object?.spec?.resources?.requests?.storage);
      const to = parseQuantity(head.object?.spec?.resources?.requests?.storage);
      if (!from || !to) continue;
      const order = compareQuantities(to, from);
      if (order === 0) continue;
      const data = { name: head.name, from: from.text, to: to.text };
      const related = [{ resource: base, path: REQUEST, message: `PersistentVolumeClaim "${base.name}" requests ${from.text} at the base` }];
      if (order < 0) {
        report({ resource: head, path: REQUEST, messageId: 'shrink', data, related });
        continue;
      }
      const storageClass = model.effectiveClassOfClaim(head.object);
      if (storageClass.name === undefined) continue;
      if (storageClass.name === '') {
        report({ resource: head, path: REQUEST, messageId: 'growStatic', data, related });
        continue;
      }
      const lookup = model.storageClassFor(storageClass.name, head);
      if (lookup.status !== 'found' || lookup.value.object?.allowVolumeExpansion === true) continue;
      const sc = lookup.value;
      report({
        resource: head,
        path: REQUEST,
        messageId: 'growNotAllowed',
        data: { ...data, storageClass: storageClass.name },
        related: [
          ...related,
          {
            resource: sc,
            path: sc.object?.allowVolumeExpansion === undefined ? ['metadata', 'name'] : ['allowVolumeExpansion'],
            message: `StorageClass "${sc.name}"${sc.object?.allowVolumeExpansion === undefined ? ' does not set allowVolumeExpansion' : ' sets allowVolumeExpansion: false'}`,
          },
        ],
      });
    }
  },
});
