// volumeDevices that pod validation rejects: the same volume also mounted, a device path that is a mount path or
// repeats, a device from a volume that is not a claim.
import { defineRule } from '../src/define-rule.js';
import { WORKLOAD_KINDS, type ContainerUse } from '../src/model/pod-templates.js';
import { containerLabel, podSpecRejection } from '../src/model/wiring.js';

export default defineRule({
  id: 'volume-device-invalid',
  meta: {
    severity: 'error',
    kinds: WORKLOAD_KINDS,
    summary: 'A volumeDevices entry that pod validation rejects: the volume is also mounted, the path is taken, or the volume is not a claim.',
    why:
      'A raw block device (`volumeDevices`) and a filesystem mount (`volumeMounts`) are exclusive uses of a volume within a ' +
      'container. Pod validation (`ValidateVolumeMounts` / `ValidateVolumeDevices`) rejects the same volume in both lists ' +
      '("must not already exist in volumeMounts" / "…in volumeDevices"), a `devicePath` equal to a `mountPath` ("must not ' +
      'already exist as a path in volumeMounts"), two devices with the same name or path ("must be unique"), a `devicePath` ' +
      'with a `..` element, and a device taken from a volume that is not a PersistentVolumeClaim or generic ephemeral volume ' +
      '("can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"). A Pod, and the template of a ' +
      'Deployment, ReplicaSet, DaemonSet, Job or CronJob, is rejected at apply; a StatefulSet is accepted by API servers ' +
      'before v1.34 and every pod creation then fails (FailedCreate events).',
    trigger:
      'Within one container (or init / ephemeral container): a `volumeDevices[].name` that is also a `volumeMounts[].name`; a ' +
      '`devicePath` equal to a `mountPath`; a repeated device `name` or `devicePath`; a `devicePath` containing a `..` ' +
      'element; or a device whose volume is declared with a source other than `persistentVolumeClaim` or `ephemeral` ' +
      '(a StatefulSet claim template counts as a claim).',
    exceptions:
      'A device naming an undeclared volume is reported by mount-unknown-volume. Whether the claim really is `volumeMode: ' +
      'Block` is the volume-mode-mount-mismatch rule\'s concern (R23); the same device path in different containers is ' +
      'allowed and not reported.',
    fix:
      'Use a volume either as a block device or as a mounted filesystem in a container, not both; give every device its own ' +
      'path outside the container\'s mount paths; take block devices only from a PVC (or generic ephemeral volume) with ' +
      '`volumeMode: Block`.',
    reportsAt: 'The `name` or `devicePath` of the offending `volumeDevices[]` entry; related: the conflicting mount, device or volume.',
    references: [
      { title: 'Kubernetes API validation: ValidateVolumeDevices / ValidateVolumeMounts', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'Kubernetes docs: raw block volume support', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#raw-block-volume-support' },
      { title: 'kubernetes/kubernetes PR #131790: pod template validation for StatefulSet create (v1.34)', url: 'https://github.com/kubernetes/kubernetes/pull/131790' },
    ],
    messages: {
      alsoMounted: (d: { kind: string; workload: string; container: string; volume: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} uses volume "${d.volume}" both as a block device and as a mount; validation fails with ` +
        `'volumeDevices[].name: Invalid value: "${d.volume}": must not already exist in volumeMounts', and ${d.when}.`,
      pathIsMount: (d: { kind: string; workload: string; container: string; devicePath: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} maps a device at "${d.devicePath}", which is also a mountPath of the container; ` +
        `validation fails with "must not already exist as a path in volumeMounts", and ${d.when}.`,
      duplicateName: (d: { kind: string; workload: string; container: string; volume: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} maps volume "${d.volume}" as a block device twice; validation fails with "must be unique", and ${d.when}.`,
      duplicatePath: (d: { kind: string; workload: string; container: string; devicePath: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} maps two devices at "${d.devicePath}"; validation fails with "must be unique", and ${d.when}.`,
      backsteps: (d: { kind: string; workload: string; container: string; devicePath: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} maps a device at "${d.devicePath}", which contains '..'; validation fails with ` +
        `"can not contain backsteps ('..')", and ${d.when}.`,
      notClaim: (d: { kind: string; workload: string; container: string; volume: string; source: string; when: string }) =>
        `${d.kind} "${d.workload}": ${d.container} maps volume "${d.volume}" (${d.source}) as a block device; only PersistentVolumeClaim ` +
        `and ephemeral volumes can be block devices ("can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"), and ${d.when}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: Pod
metadata: {name: loader, namespace: db}
spec:
  containers:
    - name: loader
      image: busybox:1.36
      volumeDevices:
        - name: raw
          devicePath: /dev/xvda
      volumeMounts:
        - name: raw
          mountPath: /data
  volumes:
    - name: raw
      persistentVolumeClaim: {claimName: raw-disk}
`,
      ],
      valid: [
        `apiVersion: v1
kind: Pod
metadata: {name: loader, namespace: db}
spec:
  containers:
    - name: loader
      image: busybox:1.36
      volumeDevices:
        - name: raw
          devicePath: /dev/xvda
  volumes:
    - name: raw
      persistentVolumeClaim: {claimName: raw-disk}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const when = podSpecRejection(template.kind);
      const base = { kind: template.kind, workload: template.workload.name, when };
      const templateNames = new Set(template.claimTemplates.map((t) => t.name));
      // Group uses by container (the container's path prefix).
      const byContainer = new Map<string, ContainerUse[]>();
      for (const use of template.uses) {
        const key = use.path.slice(0, -2).join('/');
        const list = byContainer.get(key);
        if (list) list.push(use);
        else byContainer.set(key, [use]);
      }
      for (const uses of byContainer.values()) {
        const mounts = uses.filter((u) => u.type === 'mount');
        const devices = uses.filter((u) => u.type === 'device');
        const seenNames = new Map<string, ContainerUse>();
        const seenPaths = new Map<string, ContainerUse>();
        for (const device of devices) {
          const container = containerLabel(device);
          const mount = mounts.find((m) => m.volumeName === device.volumeName);
          if (mount) {
            report({
              resource: template.workload, path: [...device.path, 'name'], messageId: 'alsoMounted',
              data: { ...base, container, volume: device.volumeName },
              related: [{ resource: template.workload, path: [...mount.path, 'name'], message: `mount of volume "${device.volumeName}"` }],
            });
          }
          const previousName = seenNames.get(device.volumeName);
          if (previousName) {
            report({
              resource: template.workload, path: [...device.path, 'name'], messageId: 'duplicateName',
              data: { ...base, container, volume: device.volumeName },
              related: [{ resource: template.workload, path: [...previousName.path, 'name'], message: 'first device of this volume' }],
            });
          } else {
            seenNames.set(device.volumeName, device);
          }
          if (device.target !== undefined && device.target !== '') {
            const pathMount = mounts.find((m) => m.target === device.target);
            if (pathMount) {
              report({
                resource: template.workload, path: [...device.path, 'devicePath'], messageId: 'pathIsMount',
                data: { ...base, container, devicePath: device.target },
                related: [{ resource: template.workload, path: [...pathMount.path, 'mountPath'], message: `mount at "${device.target}"` }],
              });
            }
            if (device.target.split('/').includes('..')) {
              report({ resource: template.workload, path: [...device.path, 'devicePath'], messageId: 'backsteps', data: { ...base, container, devicePath: device.target } });
            } else {
              const previousPath = seenPaths.get(device.target);
              if (previousPath) {
                report({
                  resource: template.workload, path: [...device.path, 'devicePath'], messageId: 'duplicatePath',
                  data: { ...base, container, devicePath: device.target },
                  related: [{ resource: template.workload, path: [...previousPath.path, 'devicePath'], message: `first device at "${device.target}"` }],
                });
              } else {
                seenPaths.set(device.target, device);
              }
            }
          }
          if (templateNames.has(device.volumeName)) continue;
          const volume = template.volumes.find((v) => v.name === device.volumeName);
          if (volume && volume.source !== 'persistentVolumeClaim' && volume.source !== 'ephemeral') {
            report({
              resource: template.workload, path: [...device.path, 'name'], messageId: 'notClaim',
              data: { ...base, container, volume: device.volumeName, source: volume.source },
              related: [{ resource: template.workload, path: [...volume.path, 'name'], message: `volume "${volume.name}" (${volume.source})` }],
            });
          }
        }
      }
    }
  },
});
