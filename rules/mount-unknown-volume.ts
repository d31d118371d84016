// A container mounts (or maps as a block device) a volume name the pod does not declare.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS, getPath, type PodTemplate } from '../src/model/pod-templates.js';
import { closestName, containerLabel, containersOf, fragmentReason, knownVolumeNames, podSpecRejection } from '../src/model/wiring.js';
import type { JsonPath } from '../src/types.js';

/** A `volumes` list written at a level where the API ignores it (workload spec, template, container). */
function misplacedVolumes(template: PodTemplate): JsonPath | undefined {
  const candidates: JsonPath[] = [];
  if (template.kind !== 'Pod') candidates.push(['spec', 'volumes'], [...template.specPath.slice(0, -1), 'volumes']);
  for (const container of containersOf(template)) candidates.push([...container.path, 'volumes']);
  return candidates.find((path) => Array.isArray(getPath(template.workload.object, path)));
}

export default defineRule({
  id: 'mount-unknown-volume',
  meta: {
    severity: 'error',
    kinds: WORKLOAD_KINDS,
    summary: 'A container mounts a volume name that is neither in the pod\'s volumes nor, in a StatefulSet, in its volumeClaimTemplates.',
    why:
      'Every `volumeMounts[].name` and `volumeDevices[].name` must name an entry of the pod\'s `volumes` (a StatefulSet\'s ' +
      '`volumeClaimTemplates` count as volumes: the controller adds one per template to each pod). Pod validation ' +
      '(`ValidateVolumeMounts` / `ValidateVolumeDevices`) rejects anything else with ' +
      '`spec.containers[0].volumeMounts[0].name: Not found: "data"`. When that happens depends on the kind: a Pod, and the ' +
      'pod template of a Deployment, ReplicaSet, ReplicationController, DaemonSet, Job or CronJob, is validated when the ' +
      'object is applied, so `kubectl apply` fails. A StatefulSet\'s template was not validated before Kubernetes v1.34: the ' +
      'StatefulSet is accepted, and the controller then fails to create each pod, leaving only `FailedCreate` events ' +
      '(`create Pod web-0 in StatefulSet web failed error: Pod "web-0" is invalid: …volumeMounts[0].name: Not found`) far from ' +
      'the author; v1.34 added that validation on create. An Argo Rollout is accepted by the API server; the Rollouts ' +
      'controller runs the same template validation and marks it InvalidSpec.',
    trigger:
      'A `volumeMounts[]` or `volumeDevices[]` entry of a container, init container or ephemeral container whose `name` is ' +
      'not the `name` of any `volumes[]` entry of the same pod spec and, for a StatefulSet, not the `metadata.name` of any ' +
      '`volumeClaimTemplates[]` entry.',
    exceptions:
      'Documents that read as Kustomize patch fragments rather than whole objects are skipped, because the volumes may be in ' +
      'the base: an apps/v1 workload without `spec.selector`, or a pod template whose containers have no `image` (the API ' +
      'rejects both, so a whole object never looks like that). A real manifest that forgot `volumes:` entirely is still ' +
      'reported. Volumes injected later by a mutating webhook are not visible; such a mount is reported.',
    fix:
      'Declare the volume under the pod\'s `volumes` (or, in a StatefulSet, add a `volumeClaimTemplates` entry of that name), ' +
      'or correct the mount\'s `name` to the volume it meant; the message suggests a close existing name, or the only ' +
      'declared volume no container uses, when there is one.',
    reportsAt: 'The `name` of the offending `volumeMounts[]` / `volumeDevices[]` entry; related: the suggested volume or claim template, when there is one.',
    references: [
      { title: 'Kubernetes API validation: ValidateVolumeMounts / ValidateVolumeDevices (field.NotFound)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'Kubernetes apps validation: ValidateStatefulSetSpec, ValidatePodTemplateSpecForReplicaSet', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/apps/validation/validation.go' },
      { title: 'kubernetes/kubernetes PR #131790: pod template validation for StatefulSet create (v1.34)', url: 'https://github.com/kubernetes/kubernetes/pull/131790' },
      { title: 'Argo Rollouts: ValidateRolloutSpec (template validated like a ReplicaSet\'s)', url: 'https://github.com/argoproj/argo-rollouts/blob/master/pkg/apis/rollouts/validation/validation.go' },
      { title: 'Kubernetes docs: StatefulSet volume claim templates', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#volume-claim-templates' },
    ],
    messages: {
      unknown: (d: { kind: string; workload: string; container: string; field: string; volume: string; declared: string; suggestion?: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} ${d.field === 'volumeDevices' ? 'maps a block device from' : 'mounts'} volume "${d.volume}", which is ${d.declared}` +
        `${d.suggestion ? ` (did you mean "${d.suggestion}"?)` : ''}; validation fails with '${d.field}[].name: Not found: "${d.volume}"', and ${d.when}.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: db}
spec:
  serviceName: pg
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers:
        - name: pg
          image: postgres:16
          volumeMounts:
            - name: pgdata
              mountPath: /var/lib/postgresql/data
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, namespace: db}
spec:
  serviceName: pg
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers:
        - name: pg
          image: postgres:16
          volumeMounts:
            - name: data
              mountPath: /var/lib/postgresql/data
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (fragmentReason(template)) continue;
      const known = knownVolumeNames(template);
      const declared = template.kind === 'StatefulSet'
        ? (known.size === 0 ? 'not declared (the pod has no volumes and the StatefulSet no volumeClaimTemplates)' : 'in neither the pod\'s volumes nor the volumeClaimTemplates')
        : (known.size === 0 ? 'not declared (the pod spec has no volumes)' : 'not in the pod\'s volumes');
      const misplaced = known.size === 0 ? misplacedVolumes(template) : undefined;
      for (const use of template.uses) {
        if (known.has(use.volumeName)) continue;
        // A close spelling, else the one declared volume no container uses: the mount most likely meant it.
        const unused = [...known].filter((name) => !template.uses.some((u) => u.volumeName === name));
        const suggestion = closestName(use.volumeName, known) ?? (unused.length === 1 ? unused[0] : undefined);
        const related = [];
        if (misplaced) related.push({ resource: template.workload, path: misplaced, message: `volumes list outside the pod spec (${misplaced.join('.')})` });
        if (suggestion !== undefined) {
          const volume = template.volumes.find((v) => v.name === suggestion);
          const claimTemplate = template.claimTemplates.find((t) => t.name === suggestion);
          if (volume) related.push({ resource: template.workload, path: [...volume.path, 'name'], message: `volume "${suggestion}"` });
          else if (claimTemplate) related.push({ resource: template.workload, path: [...claimTemplate.path, 'metadata', 'name'], message: `volumeClaimTemplate "${suggestion}"` });
        }
        report({
          resource: template.workload,
          path: [...use.path, 'name'],
          messageId: 'unknown',
          data: {
            kind: template.kind,
            workload: template.workload.name,
            container: containerLabel(use),
            field: use.type === 'device' ? 'volumeDevices' : 'volumeMounts',
            volume: use.volumeName,
            declared: misplaced
              ? `not declared in the pod spec (the volumes list at ${misplaced.join('.')} is not part of it; it belongs at ${[...template.specPath, 'volumes'].join('.')})`
              : declared,
            suggestion,
            when: podSpecRejection(template.kind),
          },
          related,
        });
      }
    }
  },
});
