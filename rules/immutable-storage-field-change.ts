// R44: a change edits a field the API server refuses to update: StatefulSet selector, serviceName,
// podManagementPolicy and volumeClaimTemplates; a claim's spec other than its storage request and
// volumeAttributesClassName; a PersistentVolume's source, volumeMode or node affinity.
import { volumeModeOf } from '../src/model/claims.js';
import { defineChangeRule } from '../src/review/change-rule.js';
import { firstDifference, isEmptyValue, show } from '../src/review/diff.js';
import type { JsonPath, Resource } from '../src/types.js';

const STS_ALLOWED = "'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds'";
const CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** The keys of PersistentVolumeSpec that make up PersistentVolumeSource (one of them is set). */
const PV_SOURCES = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'csi', 'fc', 'flexVolume', 'flocker',
  'gcePersistentDisk', 'glusterfs', 'hostPath', 'iscsi', 'local', 'nfs', 'photonPersistentDisk', 'portworxVolume',
  'quobyte', 'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
];

const dotted = (path: JsonPath) => path.map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[');
const valueAt = (object: any, path: JsonPath) => path.reduce((value, key) => (value == null ? undefined : value[key as any]), object);

/** A claim template as the API server stores it: no status or type fields, volumeMode defaulted. */
function normalizeTemplate(template: any): any {
  const copy = structuredClone(template ?? {});
  delete copy.status;
  delete copy.apiVersion;
  delete copy.kind;
  if (copy.metadata) delete copy.metadata.creationTimestamp;
  copy.spec ??= {};
  if (copy.spec.volumeMode == null || copy.spec.volumeMode === '') copy.spec.volumeMode = 'Filesystem';
  return copy;
}

/** dataSourceRef and dataSource mirror each other on create; either one written means the same source. */
function dataSourceOf(spec: any): unknown {
  const ref = spec?.dataSourceRef ?? spec?.dataSource;
  if (isEmptyValue(ref)) return undefined;
  return { apiGroup: ref.apiGroup ?? '', kind: ref.kind, name: ref.name, namespace: ref.namespace ?? '' };
}

export default defineChangeRule({
  id: 'immutable-storage-field-change',
  meta: {
    catalogueId: 'R44',
    severity: 'error',
    severities: ['warning'],
    kinds: ['StatefulSet', 'PersistentVolumeClaim', 'PersistentVolume'],
    summary: 'A change edits a StatefulSet, PersistentVolumeClaim or PersistentVolume field that the API server refuses to update.',
    why:
      'Some storage fields are fixed once the object exists. The API server rejects an update of a StatefulSet spec outside ' +
      `${STS_ALLOWED} ("spec: Forbidden: updates to statefulset spec for fields other than … are forbidden"), of a claim's spec ` +
      'outside resources.requests and volumeAttributesClassName ("spec: Forbidden: spec is immutable after creation except ' +
      'resources.requests and volumeAttributesClassName for bound claims"), and of a PersistentVolume\'s source ' +
      '("spec.persistentvolumesource is immutable after creation"), volumeMode or node affinity ("field is immutable"). ' +
      'Argo CD and Flux retry the sync and stay failed; `helm upgrade` fails. Forcing it by deleting and recreating the ' +
      'object recreates a claim empty (its volume is deleted when the reclaim policy is Delete), and existing StatefulSet ' +
      'claims never pick up an edited template.',
    trigger:
      'With `--base`, for an object of the same kind, namespace and name in both trees of an environment: a StatefulSet\'s ' +
      '`spec.selector`, `spec.serviceName`, `spec.podManagementPolicy` (default OrderedReady) or `spec.volumeClaimTemplates` ' +
      '(a template added, removed, reordered or edited, including its labels and annotations) differ; a claim\'s ' +
      '`accessModes`, `selector`, `volumeMode` (default Filesystem), `dataSource`/`dataSourceRef`, `resources.limits`, a ' +
      '`volumeName` that was set, a `storageClassName` that was set, the `volume.beta.kubernetes.io/storage-class` annotation, ' +
      'or a `volumeAttributesClassName` that is cleared; a PersistentVolume\'s source (`csi`, `nfs`, `hostPath`, `local`, …), ' +
      '`volumeMode`, or a `nodeAffinity` it already had. Values compare as the API server compares them: "1Gi" equals ' +
      '"1024Mi", and absent equals empty.',
    exceptions:
      'Fields the API server lets change are never reported: StatefulSet replicas, template, updateStrategy, ordinals, ' +
      'minReadySeconds and persistentVolumeClaimRetentionPolicy (and revisionHistoryLimit, which is not about storage; ' +
      'older API servers reject changing it too); a claim\'s storage request ' +
      '(see pvc-resize-rejected) and volumeAttributesClassName; a `volumeName` the base did not set (the API allows setting it ' +
      'once); a storageClassName moved from the beta annotation to the field; a PV\'s capacity, access modes, reclaim ' +
      'policy, class, mount options, claimRef, a `csi.controllerExpandSecretRef` it did not have, or a first `nodeAffinity`. ' +
      'Setting `storageClassName` on a claim that had none is a warning: the API allows it only when the live claim has ' +
      'no class, and the default StorageClass usually filled it in at creation. pvlint assumes claims are bound (an ' +
      'unbound claim also refuses a new storage request). PV node affinity is mutable only with the alpha feature gate ' +
      'MutablePVNodeAffinity (v1.35), which pvlint does not assume.',
    fix:
      'Revert the field. To really change it, migrate: for a StatefulSet, delete it with `kubectl delete statefulset <name> ' +
      '--cascade=orphan` (pods and claims stay) and let the new spec be applied, then resize or migrate existing claims ' +
      'one by one; for a claim, create a new claim (a clone with `dataSource`, or a restore from a VolumeSnapshot) under ' +
      'a new name and move the workload to it; for a PV, create a new PV for the new source.',
    reportsAt: 'The changed field in the working tree (the patch that sets it, for a Kustomize overlay); the object at the base as related.',
    references: [
      { title: 'kubernetes/kubernetes pkg/apis/apps/validation: ValidateStatefulSetUpdate', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/validation/validation.go' },
      { title: 'kubernetes/kubernetes pkg/apis/core/validation: ValidatePersistentVolumeClaimUpdate, ValidatePersistentVolumeUpdate', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'Kubernetes docs: StatefulSet, "Deleting a StatefulSet" (--cascade=orphan)', url: 'https://kubernetes.io/docs/tasks/run-application/delete-stateful-set/' },
      { title: 'Kubernetes docs: Persistent Volumes, "Volume Cloning" and "Volume Snapshot and Restore"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#volume-snapshot-and-restore-volume-from-snapshot-support' },
      { title: 'Kubernetes blog: v1.35 Mutable PersistentVolume Node Affinity (alpha)', url: 'https://kubernetes.io/blog/2026/01/08/kubernetes-v1-35-mutable-pv-nodeaffinity/' },
    ],
    messages: {
      statefulSetField: (d: { name: string; field: string; from: string; to: string }) =>
        `StatefulSet "${d.name}": ${d.field} changes from ${d.from} to ${d.to}, but the API server rejects it ("spec: Forbidden: updates to statefulset spec ` +
        `for fields other than ${STS_ALLOWED} are forbidden"); every sync of this change fails.`,
      templateChanged: (d: { name: string; template: string; field: string; from: string; to: string }) =>
        `StatefulSet "${d.name}": volumeClaimTemplate "${d.template}" changes (${d.field}: ${d.from} → ${d.to}), but volumeClaimTemplates are immutable ` +
        '("spec: Forbidden: updates to statefulset spec for fields other than … are forbidden"): the update is rejected, and existing claims would not change anyway.',
      templateAdded: (d: { name: string; template: string }) =>
        `StatefulSet "${d.name}": volumeClaimTemplate "${d.template}" is added, but volumeClaimTemplates are immutable ` +
        '("spec: Forbidden: updates to statefulset spec for fields other than … are forbidden"): the update is rejected.',
      templateRemoved: (d: { name: string; template: string }) =>
        `StatefulSet "${d.name}": volumeClaimTemplate "${d.template}" is removed, but volumeClaimTemplates are immutable ` +
        '("spec: Forbidden: updates to statefulset spec for fields other than … are forbidden"): the update is rejected.',
      templateOrder: (d: { name: string; from: string; to: string }) =>
        `StatefulSet "${d.name}": the volumeClaimTemplates are reordered (${d.from} → ${d.to}); the list is part of the immutable spec, so the update is rejected.`,
      claimField: (d: { name: string; field: string; from: string; to: string }) =>
        `PersistentVolumeClaim "${d.name}": ${d.field} changes from ${d.from} to ${d.to}, but a claim's spec is immutable after creation ("spec: Forbidden: spec is ` +
        'immutable after creation except resources.requests and volumeAttributesClassName for bound claims"); the update is rejected, and recreating the claim to force it starts from an empty volume.',
      claimClassSet: (d: { name: string; to: string }) =>
        `PersistentVolumeClaim "${d.name}": storageClassName is set to ${d.to} where the base left it unset. The API server accepts that only while the live claim has no class; ` +
        'if the default StorageClass filled it in at creation and it is another class, the update is rejected ("spec is immutable after creation …").',
      claimAnnotation: (d: { name: string; from: string; to: string }) =>
        `PersistentVolumeClaim "${d.name}": the ${CLASS_ANNOTATION} annotation changes from ${d.from} to ${d.to}, but it is immutable ("metadata.annotations: Invalid value: … field is immutable"); the update is rejected.`,
      claimAttributesCleared: (d: { name: string; from: string }) =>
        `PersistentVolumeClaim "${d.name}": volumeAttributesClassName ${d.from} is removed, but the API server rejects clearing it ("update from non-nil value to nil is forbidden").`,
      volumeField: (d: { name: string; field: string; from: string; to: string }) =>
        `PersistentVolume "${d.name}": ${d.field} changes from ${d.from} to ${d.to}, but ${d.field.startsWith('spec.nodeAffinity') ? 'node affinity' : d.field.startsWith('spec.volumeMode') ? 'volumeMode' : 'the volume source'} ` +
        `is immutable after creation ("${d.field.startsWith('spec.nodeAffinity') || d.field.startsWith('spec.volumeMode') ? 'field is immutable' : 'spec.persistentvolumesource is immutable after creation'}"); the update is rejected.`,
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
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
`,
          head: `apiVersion: apps/v1
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
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 20Gi}}
`,
        },
      ],
      valid: [
        {
          base: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 10Gi}}
`,
          head: `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 10240Mi}}
`,
        },
      ],
    },
  },
  check({ changes, report }) {
    const related = (resource: Resource, kind: string) => [{ resource, path: ['metadata', 'name'] as JsonPath, message: `${kind} "${resource.name}" at the base` }];

    for (const { base, head } of changes.pairs('StatefulSet')) {
      const b = base.object?.spec ?? {};
      const h = head.object?.spec ?? {};
      const fields: [string, unknown, unknown][] = [
        ['selector', b.selector, h.selector],
        ['serviceName', b.serviceName ?? '', h.serviceName ?? ''],
        ['podManagementPolicy', b.podManagementPolicy ?? 'OrderedReady', h.podManagementPolicy ?? 'OrderedReady'],
      ];
      for (const [field, from, to] of fields) {
        const diff = firstDifference(from, to, ['spec', field]);
        if (!diff) continue;
        report({
          resource: head,
          path: diff,
          messageId: 'statefulSetField',
          data: { name: head.name, field: dotted(diff), from: show(valueAt({ spec: { [field]: from } }, diff)), to: show(valueAt({ spec: { [field]: to } }, diff)) },
          related: related(base, 'StatefulSet'),
        });
      }
      const baseTemplates: any[] = Array.isArray(b.volumeClaimTemplates) ? b.volumeClaimTemplates : [];
      const headTemplates: any[] = Array.isArray(h.volumeClaimTemplates) ? h.volumeClaimTemplates : [];
      const nameOf = (t: any) => String(t?.metadata?.name ?? '');
      let changed = false;
      headTemplates.forEach((template, i) => {
        const name = nameOf(template);
        const before = baseTemplates.find((t) => nameOf(t) === name);
        const at: JsonPath = ['spec', 'volumeClaimTemplates', i];
        if (!before) {
          changed = true;
          report({ resource: head, path: at, messageId: 'templateAdded', data: { name: head.name, template: name }, related: related(base, 'StatefulSet') });
          return;
        }
        const diff = firstDifference(normalizeTemplate(before), normalizeTemplate(template), at);
        if (!diff) return;
        changed = true;
        const inner = diff.slice(at.length);
        report({
          resource: head,
          path: diff,
          messageId: 'templateChanged',
          data: {
            name: head.name,
            template: name,
            field: dotted(inner) || 'template',
            from: show(valueAt(normalizeTemplate(before), inner)),
            to: show(valueAt(normalizeTemplate(template), inner)),
          },
          related: related(base, 'StatefulSet'),
        });
      });
      for (const template of baseTemplates) {
        if (headTemplates.some((t) => nameOf(t) === nameOf(template))) continue;
        changed = true;
        report({
          resource: head,
          path: ['spec', 'volumeClaimTemplates'],
          messageId: 'templateRemoved',
          data: { name: head.name, template: nameOf(template) },
          related: related(base, 'StatefulSet'),
        });
      }
      const baseOrder = baseTemplates.map(nameOf);
      const headOrder = headTemplates.map(nameOf);
      if (!changed && baseOrder.join('\u0000') !== headOrder.join('\u0000')) {
        report({
          resource: head,
          path: ['spec', 'volumeClaimTemplates'],
          messageId: 'templateOrder',
          data: { name: head.name, from: baseOrder.join(', '), to: headOrder.join(', ') },
          related: related(base, 'StatefulSet'),
        });
      }
    }

    for (const { base, head } of changes.pairs('PersistentVolumeClaim')) {
      const b = base.object?.spec ?? {};
      const h = head.object?.spec ?? {};
      const claimField = (path: JsonPath, from: unknown, to: unknown) => {
        const diff = firstDifference(from, to, path);
        if (!diff) return;
        const inner = diff.slice(path.length);
        report({
          resource: head,
          path: diff,
          messageId: 'claimField',
          data: { name: head.name, field: dotted(diff), from: show(valueAt(from, inner)), to: show(valueAt(to, inner)) },
          related: related(base, 'PersistentVolumeClaim'),
        });
      };
      claimField(['spec', 'accessModes'], b.accessModes, h.accessModes);
      claimField(['spec', 'selector'], b.selector, h.selector);
      claimField(['spec', 'volumeMode'], volumeModeOf(base.object), volumeModeOf(head.object));
      const headSourceKey = h.dataSourceRef != null || h.dataSource == null ? 'dataSourceRef' : 'dataSource';
      const baseSource = dataSourceOf(b);
      const headSource = dataSourceOf(h);
      if (firstDifference(baseSource, headSource)) {
        report({
          resource: head,
          path: ['spec', headSourceKey],
          messageId: 'claimField',
          data: { name: head.name, field: `spec.${headSourceKey}`, from: show(baseSource), to: show(headSource) },
          related: related(base, 'PersistentVolumeClaim'),
        });
      }
      claimField(['spec', 'resources', 'limits'], b.resources?.limits, h.resources?.limits);
      if (typeof b.volumeName === 'string' && b.volumeName !== '') claimField(['spec', 'volumeName'], b.volumeName, h.volumeName ?? '');

      // Storage class: the beta annotation is immutable; the field may move from the annotation, or be set from nil.
      const baseAnnotation = base.object?.metadata?.annotations?.[CLASS_ANNOTATION];
      const headAnnotation = head.object?.metadata?.annotations?.[CLASS_ANNOTATION];
      const upgradedFromAnnotation =
        baseAnnotation != null && b.storageClassName == null && h.storageClassName != null && String(h.storageClassName) === String(baseAnnotation) &&
        (headAnnotation == null || String(headAnnotation) === String(baseAnnotation));
      if (!upgradedFromAnnotation) {
        if (String(baseAnnotation ?? '') !== String(headAnnotation ?? '')) {
          report({
            resource: head,
            path: ['metadata', 'annotations', CLASS_ANNOTATION],
            messageId: 'claimAnnotation',
            data: { name: head.name, from: show(baseAnnotation), to: show(headAnnotation) },
            related: related(base, 'PersistentVolumeClaim'),
          });
        }
        if (b.storageClassName != null) {
          if (h.storageClassName == null || String(h.storageClassName) !== String(b.storageClassName)) {
            report({
              resource: head,
              path: ['spec', 'storageClassName'],
              messageId: 'claimField',
              data: { name: head.name, field: 'spec.storageClassName', from: show(String(b.storageClassName)), to: h.storageClassName == null ? 'absent' : show(String(h.storageClassName)) },
              related: related(base, 'PersistentVolumeClaim'),
            });
          }
        } else if (h.storageClassName != null && (baseAnnotation == null || String(h.storageClassName) !== String(baseAnnotation))) {
          report({
            resource: head,
            path: ['spec', 'storageClassName'],
            messageId: 'claimClassSet',
            severity: 'warning',
            data: { name: head.name, to: show(String(h.storageClassName)) },
            related: related(base, 'PersistentVolumeClaim'),
          });
        }
      }
      if (typeof b.volumeAttributesClassName === 'string' && (h.volumeAttributesClassName == null || h.volumeAttributesClassName === '')) {
        report({
          resource: head,
          path: ['spec', 'volumeAttributesClassName'],
          messageId: 'claimAttributesCleared',
          data: { name: head.name, from: show(b.volumeAttributesClassName) },
          related: related(base, 'PersistentVolumeClaim'),
        });
      }
    }

    for (const { base, head } of changes.pairs('PersistentVolume')) {
      const b = base.object?.spec ?? {};
      const h = head.object?.spec ?? {};
      const sourceOf = (spec: any, dropExpandSecret: boolean) => {
        const source: Record<string, unknown> = {};
        for (const key of PV_SOURCES) if (spec[key] !== undefined) source[key] = spec[key];
        if (dropExpandSecret && source.csi && typeof source.csi === 'object') {
          const { controllerExpandSecretRef: _dropped, ...rest } = source.csi as Record<string, unknown>;
          source.csi = rest;
        }
        return source;
      };
      // A controllerExpandSecretRef may be added to a CSI volume that had none.
      const addsExpandSecret = b.csi?.controllerExpandSecretRef == null && h.csi?.controllerExpandSecretRef != null;
      const volumeField = (path: JsonPath, from: unknown, to: unknown) => {
        const diff = firstDifference(from, to, path);
        if (!diff) return;
        const inner = diff.slice(path.length);
        report({
          resource: head,
          path: diff,
          messageId: 'volumeField',
          data: { name: head.name, field: dotted(diff), from: show(valueAt(from, inner)), to: show(valueAt(to, inner)) },
          related: related(base, 'PersistentVolume'),
        });
      };
      volumeField(['spec'], sourceOf(b, addsExpandSecret), sourceOf(h, addsExpandSecret));
      volumeField(['spec', 'volumeMode'], volumeModeOf(base.object), volumeModeOf(head.object));
      if (!isEmptyValue(b.nodeAffinity)) volumeField(['spec', 'nodeAffinity'], b.nodeAffinity, h.nodeAffinity);
    }
  },
});
