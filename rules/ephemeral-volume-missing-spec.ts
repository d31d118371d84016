// A generic ephemeral volume without a volumeClaimTemplate, or whose template has no spec.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { containerLabel, podSpecRejection } from '../src/model/wiring.js';

const CLAIM_FIELDS = ['accessModes', 'resources', 'storageClassName', 'volumeMode', 'dataSource', 'dataSourceRef', 'selector', 'volumeName'];

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export default defineRule({
  id: 'ephemeral-volume-missing-spec',
  meta: {
    severity: 'error',
    kinds: WORKLOAD_KINDS,
    summary: 'A generic ephemeral volume without volumeClaimTemplate, or whose volumeClaimTemplate has no spec.',
    why:
      'A generic ephemeral volume (`volumes[].ephemeral`) is a claim created per pod from `ephemeral.volumeClaimTemplate`, ' +
      'and the claim\'s fields live under `volumeClaimTemplate.spec`. Pod validation (`validateEphemeralVolumeSource`) requires ' +
      'the template ("volumeClaimTemplate: Required value") and validates its spec like a PVC\'s, so a missing spec fails as ' +
      'an empty claim ("…volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required", ' +
      '"…spec.resources[storage]: Required value"). The usual slip is writing `accessModes` and `resources` directly under ' +
      '`volumeClaimTemplate`: those keys are unknown there, so strict field validation (kubectl\'s default) reports them as ' +
      'unknown fields and lenient decoding drops them, leaving the spec empty; either way the object is refused. A Pod, and ' +
      'the template of a Deployment, ReplicaSet, DaemonSet, Job or CronJob, is rejected at apply; a StatefulSet is accepted by ' +
      'API servers before v1.34 and every pod creation then fails (FailedCreate events).',
    trigger:
      'A `volumes[]` entry with `ephemeral` whose `volumeClaimTemplate` is absent, or whose `volumeClaimTemplate` has no ' +
      '`spec` object.',
    exceptions:
      'A template with a `spec` that lacks access modes or a storage request is reported by claim-spec-invalid. CSI ' +
      'ephemeral volumes (`volumes[].csi`) are a different volume type and are not checked.',
    fix:
      'Put the claim under `ephemeral.volumeClaimTemplate.spec`: `accessModes`, `resources.requests.storage`, and usually ' +
      '`storageClassName`; `volumeClaimTemplate.metadata` may only hold labels and annotations.',
    reportsAt: 'The `volumeClaimTemplate` key (or `ephemeral` when the template is absent); related: a container that mounts the volume.',
    references: [
      { title: 'Kubernetes API validation: validateEphemeralVolumeSource, ValidatePersistentVolumeClaimTemplate', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'Kubernetes docs: generic ephemeral volumes', url: 'https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/#generic-ephemeral-volumes' },
    ],
    messages: {
      noTemplate: (d: { kind: string; workload: string; volume: string; when: string }) =>
        `${d.kind} "${d.workload}": ephemeral volume "${d.volume}" has no volumeClaimTemplate; validation fails with ` +
        `"ephemeral.volumeClaimTemplate: Required value", and ${d.when}.`,
      noSpec: (d: { kind: string; workload: string; volume: string; misplaced: string; when: string }) =>
        `${d.kind} "${d.workload}": the volumeClaimTemplate of ephemeral volume "${d.volume}" has no spec` +
        `${d.misplaced ? ` (${d.misplaced} must go under volumeClaimTemplate.spec)` : ''}; it validates as an empty claim ` +
        `("spec.accessModes: Required value", "spec.resources[storage]: Required value"), and ${d.when}.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: builder, namespace: ci}
spec:
  selector: {matchLabels: {app: builder}}
  template:
    metadata: {labels: {app: builder}}
    spec:
      containers:
        - name: builder
          image: gcr.io/kaniko-project/executor:v1.23.0
          volumeMounts:
            - name: scratch
              mountPath: /workspace
      volumes:
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              accessModes: [ReadWriteOnce]
              resources: {requests: {storage: 20Gi}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: builder, namespace: ci}
spec:
  selector: {matchLabels: {app: builder}}
  template:
    metadata: {labels: {app: builder}}
    spec:
      containers:
        - name: builder
          image: gcr.io/kaniko-project/executor:v1.23.0
          volumeMounts:
            - name: scratch
              mountPath: /workspace
      volumes:
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              spec:
                accessModes: [ReadWriteOnce]
                resources: {requests: {storage: 20Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const base = { kind: template.kind, workload: template.workload.name, when: podSpecRejection(template.kind) };
      for (const volume of template.volumes) {
        if (!volume.ephemeralTemplate) continue;
        const use = template.uses.find((u) => u.volumeName === volume.name);
        const related = use ? [{ resource: template.workload, path: [...use.path, 'name'], message: `mounted by ${containerLabel(use)}` }] : [];
        const claimTemplate = volume.ephemeralTemplate.object;
        if (!isObject(claimTemplate)) {
          report({
            resource: template.workload,
            path: volume.ephemeralTemplate.path,
            messageId: 'noTemplate',
            data: { ...base, volume: volume.name },
            related,
          });
          continue;
        }
        if (isObject(claimTemplate.spec)) continue;
        const misplaced = CLAIM_FIELDS.filter((field) => field in claimTemplate);
        report({
          resource: template.workload,
          path: volume.ephemeralTemplate.path,
          messageId: 'noSpec',
          data: { ...base, volume: volume.name, misplaced: misplaced.join(', ') },
          related,
        });
      }
    }
  },
});
