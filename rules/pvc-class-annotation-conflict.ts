// R08: the legacy beta storage-class annotation overrides spec.storageClassName.
import { defineRule } from '../src/define-rule.js';
import { claimPath } from '../src/model/claim-objects.js';
import type { JsonPath, Resource } from '../src/types.js';

const ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

export default defineRule({
  id: 'pvc-class-annotation-conflict',
  meta: {
    catalogueId: 'R08',
    severity: 'error',
    severities: ['note'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'The deprecated volume.beta.kubernetes.io/storage-class annotation is set, and overrides spec.storageClassName when both are set.',
    why:
      'Every controller reads a claim\'s or volume\'s class with GetPersistentVolumeClaimClass / GetPersistentVolumeClass, ' +
      'which "use beta annotation first": when the annotation and `spec.storageClassName` differ, binding, defaulting ' +
      'and provisioning all follow the annotation, and the spec field a reviewer reads is ignored. The annotation is ' +
      'deprecated ("will become fully deprecated in a future Kubernetes release").',
    trigger:
      'A PersistentVolumeClaim, PersistentVolume, StatefulSet volumeClaimTemplate or generic ephemeral claim template ' +
      'with the annotation volume.beta.kubernetes.io/storage-class and a different `spec.storageClassName` (error); the ' +
      'annotation alone, or with the same value, is a note (deprecated).',
    exceptions: 'Objects without the annotation. Other deprecated annotations are not this rule\'s concern.',
    fix: 'Remove the annotation and keep the class in `spec.storageClassName` (set it to the annotation\'s value if that is the class in use).',
    reportsAt: 'The annotation; related: `spec.storageClassName`.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Class" (beta annotation)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#class' },
      { title: 'kubernetes component-helpers storage/volume/helpers.go (GetPersistentVolumeClaimClass: "Use beta annotation first")', url: 'https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/storage/volume/helpers.go' },
    ],
    messages: {
      conflict: (d: { object: string; annotation: string; spec: string }) =>
        `${d.object} has annotation ${ANNOTATION}: "${d.annotation}" and spec.storageClassName "${d.spec}"; the annotation wins in every ` +
        `controller, so the object uses class "${d.annotation}", not the "${d.spec}" its spec shows.`,
      deprecated: (d: { object: string; annotation: string }) =>
        `${d.object} sets its class with the deprecated annotation ${ANNOTATION}: "${d.annotation}"; use spec.storageClassName instead.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: shop
  annotations: {volume.beta.kubernetes.io/storage-class: standard}
spec:
  storageClassName: fast-ssd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
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
    const targets: { resource: Resource; path: JsonPath; object: any; label: string }[] = [
      ...model.claimObjects().map((c) => ({ resource: c.resource, path: claimPath(c), object: c.object, label: c.label })),
      ...model.ofKind('PersistentVolume').map((pv) => ({ resource: pv, path: [] as JsonPath, object: pv.object, label: `PersistentVolume "${pv.name}"` })),
    ];
    for (const target of targets) {
      const annotation = target.object?.metadata?.annotations?.[ANNOTATION];
      if (annotation == null) continue;
      const annotationPath = [...target.path, 'metadata', 'annotations', ANNOTATION];
      const spec = target.object?.spec?.storageClassName;
      if (spec != null && String(spec) !== String(annotation)) {
        report({
          resource: target.resource, path: annotationPath, messageId: 'conflict',
          data: { object: target.label, annotation: String(annotation), spec: String(spec) },
          related: [{ resource: target.resource, path: [...target.path, 'spec', 'storageClassName'], message: `spec.storageClassName "${String(spec)}"` }],
        });
      } else {
        report({ resource: target.resource, path: annotationPath, messageId: 'deprecated', severity: 'note', data: { object: target.label, annotation: String(annotation) } });
      }
    }
  },
});
