// A claim the pod asks for but no container uses: a StatefulSet claim template, or a PVC / generic ephemeral volume.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { containersOf, fragmentReason, knownVolumeNames } from '../src/model/wiring.js';

export default defineRule({
  id: 'unused-claim-volume',
  meta: {
    severity: 'warning',
    kinds: WORKLOAD_KINDS,
    summary: 'A StatefulSet claim template, or a pod volume backed by a claim, that no container mounts.',
    why:
      'Nothing rejects an unused claim, but it still costs and still constrains. The StatefulSet controller creates one PVC per ' +
      'replica for every `volumeClaimTemplates` entry and adds it to each pod, mounted or not; the ephemeral volume controller ' +
      'creates a PVC for every `ephemeral` volume; and the scheduler\'s VolumeBinding plugin waits for every claim in ' +
      '`volumes` to exist and bind (provisioning it, pinning the pod to its node and zone) before the pod can run. The kubelet, ' +
      'on the other hand, skips volumes that no container uses ("Skipping unused volume"), so the data never reaches the ' +
      'application. Usually the mount was renamed or lost in a refactor and the container writes to its ephemeral filesystem ' +
      'instead, which is lost when the pod goes. In a StatefulSet, a pod volume with the same name as a claim template is ' +
      'silently replaced by the template\'s claim (`updateStorage`), so that volume entry is dead configuration too.',
    trigger:
      'A `volumeClaimTemplates[]` entry whose name no `volumeMounts[]`/`volumeDevices[]` of any container, init container or ' +
      'ephemeral container uses; a `volumes[]` entry with `persistentVolumeClaim` or `ephemeral` that none of them uses; ' +
      'a StatefulSet pod volume that shares its name with a claim template.',
    exceptions:
      'Volumes of other kinds (configMap, secret, emptyDir, …) are not reported. Documents that read as Kustomize patch ' +
      'fragments (an apps/v1 workload without `spec.selector`, containers without `image`) are skipped: the mounts may be in ' +
      'the base. A pod template with a mount of an undeclared name is left to mount-unknown-volume, which suggests the ' +
      'unused volume as the one meant. A container injected at admission by a mutating webhook that mounts the claim is ' +
      'invisible here; disable the rule for that workload if that is the design.',
    fix:
      'Mount the claim where the application writes (check the `name` of the container\'s `volumeMounts`), or delete the claim ' +
      'template / volume if it is no longer needed (a StatefulSet\'s existing PVCs are kept and must be deleted by hand).',
    reportsAt: 'The `metadata.name` of the claim template, or the `name` of the pod volume; related: the first container\'s `volumeMounts` (for a template), the PVC (for a claim volume), the claim template (for a shadowed volume).',
    references: [
      { title: 'kubelet desired state of world populator: "Skipping unused volume"', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go' },
      { title: 'StatefulSet controller: updateStorage / getPersistentVolumeClaims', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/statefulset/stateful_set_utils.go' },
      { title: 'kube-scheduler VolumeBinding plugin (waits for every claim of the pod)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumebinding/volume_binding.go' },
      { title: 'Kubernetes docs: generic ephemeral volumes', url: 'https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/#generic-ephemeral-volumes' },
    ],
    messages: {
      unusedTemplate: (d: { workload: string; template: string }) =>
        `StatefulSet "${d.workload}": volumeClaimTemplate "${d.template}" is mounted by no container; a PVC is still created and provisioned ` +
        `for every replica, but the application never sees it.`,
      unusedVolume: (d: { kind: string; workload: string; volume: string; what: string }) =>
        `${d.kind} "${d.workload}": volume "${d.volume}" (${d.what}) is mounted by no container; the pod still waits for the claim ` +
        `to be created and bound, but the kubelet never mounts it.`,
      shadowed: (d: { workload: string; volume: string; source: string }) =>
        `StatefulSet "${d.workload}": pod volume "${d.volume}" (${d.source}) has the name of a volumeClaimTemplate; the controller ` +
        `replaces it with the template's claim, so this entry is never used.`,
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: queue}
spec:
  serviceName: kafka
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      containers:
        - name: kafka
          image: apache/kafka:3.7.0
          volumeMounts:
            - name: data
              mountPath: /var/lib/kafka
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
    - metadata: {name: logs}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: queue}
spec:
  serviceName: kafka
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec:
      containers:
        - name: kafka
          image: apache/kafka:3.7.0
          volumeMounts:
            - name: data
              mountPath: /var/lib/kafka
            - name: logs
              mountPath: /var/log/kafka
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
    - metadata: {name: logs}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (fragmentReason(template)) continue;
      const used = new Set(template.uses.map((use) => use.volumeName));
      // A mount of an undeclared name is mount-unknown-volume's finding, which points at the volume it probably meant.
      const known = knownVolumeNames(template);
      if ([...used].some((name) => !known.has(name))) continue;
      const templateNames = new Set(template.claimTemplates.map((t) => t.name));
      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      // Where a mount would go: the first regular container (its volumeMounts when it has some).
      const container = containersOf(template).find((c) => c.kind === 'containers');
      const mountSite = container
        ? [{ resource: template.workload, path: Array.isArray(container.object.volumeMounts) ? [...container.path, 'volumeMounts'] : [...container.path, 'name'], message: `volumeMounts of container "${String(container.object.name ?? `#${container.index}`)}"` }]
        : [];
      for (const claimTemplate of template.claimTemplates) {
        if (used.has(claimTemplate.name)) continue;
        report({
          resource: template.workload,
          path: [...claimTemplate.path, 'metadata', 'name'],
          messageId: 'unusedTemplate',
          data: { workload: template.workload.name, template: claimTemplate.name },
          related: mountSite,
        });
      }
      for (const volume of template.volumes) {
        if (templateNames.has(volume.name)) {
          const claimTemplate = template.claimTemplates.find((t) => t.name === volume.name)!;
          report({
            resource: template.workload,
            path: [...volume.path, 'name'],
            messageId: 'shadowed',
            data: { workload: template.workload.name, volume: volume.name, source: volume.source },
            related: [{ resource: template.workload, path: [...claimTemplate.path, 'metadata', 'name'], message: `volumeClaimTemplate "${claimTemplate.name}"` }],
          });
          continue;
        }
        if (volume.source !== 'persistentVolumeClaim' && volume.source !== 'ephemeral') continue;
        if (used.has(volume.name)) continue;
        const related = [];
        if (volume.claimName !== undefined) {
          const lookup = model.lookupClaim(namespace, volume.claimName);
          if (lookup.status === 'found' && lookup.value.kind === 'pvc') {
            related.push({ resource: lookup.value.resource, path: ['metadata', 'name'], message: `PersistentVolumeClaim "${volume.claimName}"` });
          }
        }
        report({
          resource: template.workload,
          path: [...volume.path, 'name'],
          messageId: 'unusedVolume',
          data: {
            kind: template.kind,
            workload: template.workload.name,
            volume: volume.name,
            what: volume.source === 'ephemeral' ? 'a generic ephemeral volume' : `PersistentVolumeClaim "${volume.claimName ?? ''}"`,
          },
          related,
        });
      }
    }
  },
});
