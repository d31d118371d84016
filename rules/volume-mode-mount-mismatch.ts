// R23: a Block claim used through volumeMounts, or a Filesystem claim through volumeDevices.
import { defineRule } from '../src/define-rule.js';
import { volumeModeOf } from '../src/model/claims.js';
import { volumeNamed } from '../src/model/mounts.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { type ResolvedClaim } from '../src/model/volume-claims.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath } from '../src/types.js';

const ORIGIN: Record<ResolvedClaim['origin'], string> = {
  pvc: 'PersistentVolumeClaim',
  'claim-template': 'claim template',
  ephemeral: 'generic ephemeral volume',
};

export default defineRule({
  id: 'volume-mode-mount-mismatch',
  meta: {
    catalogueId: 'R23',
    severity: 'error',
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim', 'PersistentVolume'],
    summary: 'A volumeMode: Block claim is used through volumeMounts, or a Filesystem claim through volumeDevices.',
    why:
      'A raw block volume has no file system to mount, and a file-system volume is no device. The kubelet checks each pod volume ' +
      'against the PersistentVolume\'s `volumeMode` before it starts the pod and refuses it — "volume X has volumeMode Block, but ' +
      'is specified in volumeMounts" or "… has volumeMode Filesystem, but is specified in volumeDevices" — so the pod stays in ' +
      'ContainerCreating with FailedMount events.',
    trigger:
      'A container (or init container) whose `volumeMounts[]` entry names a claim with effective `volumeMode: Block`, or whose ' +
      '`volumeDevices[]` entry names a claim whose effective volumeMode is Filesystem (the default when unset). The claim is a ' +
      'PersistentVolumeClaim in the repo (a PV binds only with the same volumeMode), a StatefulSet claim template, or ' +
      'a generic ephemeral volume\'s template.',
    exceptions:
      'Claims that are not in the repo are not reported (their mode is unknown). Devices taken from volumes that are not claims ' +
      'are the volume-device-invalid rule\'s finding; the same device path in several containers is allowed and not reported.',
    fix:
      'Use `volumeDevices` (with a `devicePath`) for a Block claim and `volumeMounts` for a Filesystem claim — or change the ' +
      'claim\'s `volumeMode` to match how the container uses it (a new claim: volumeMode is immutable).',
    reportsAt: 'The container\'s `volumeMounts[]` / `volumeDevices[]` entry; related: the claim\'s `volumeMode`.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Raw Block Volume Support"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#raw-block-volume-support' },
      { title: 'kubelet desired_state_of_world_populator.go (volumeMode vs volumeMounts/volumeDevices)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go' },
    ],
    messages: {
      blockMounted: (d: { kind: string; workload: string; container: string; volume: string; origin: string; claim: string }) =>
        `${d.kind} "${d.workload}": ${d.container} mounts volume "${d.volume}" as a file system, but ${d.origin} "${d.claim}" is ` +
        `volumeMode: Block; the kubelet refuses the pod ("volume ${d.volume} has volumeMode Block, but is specified in volumeMounts").`,
      filesystemDevice: (d: { kind: string; workload: string; container: string; volume: string; origin: string; claim: string; defaulted: boolean }) =>
        `${d.kind} "${d.workload}": ${d.container} maps volume "${d.volume}" as a raw device, but ${d.origin} "${d.claim}" is ` +
        `volumeMode: Filesystem${d.defaulted ? ' (the default)' : ''}; the kubelet refuses the pod ("volume ${d.volume} has volumeMode ` +
        'Filesystem, but is specified in volumeDevices").',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: raw}
spec:
  volumeMode: Block
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 20Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: bench}
spec:
  containers:
    - name: fio
      image: registry.example.com/fio:3
      volumeMounts: [{name: raw, mountPath: /data}]
  volumes: [{name: raw, persistentVolumeClaim: {claimName: raw}}]
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: raw}
spec:
  volumeMode: Block
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 20Gi}}
---
apiVersion: v1
kind: Pod
metadata: {name: bench}
spec:
  containers:
    - name: fio
      image: registry.example.com/fio:3
      volumeDevices: [{name: raw, devicePath: /dev/xvda}]
  volumes: [{name: raw, persistentVolumeClaim: {claimName: raw}}]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      for (const use of template.uses) {
        const ref = volumeNamed(template, use.volumeName);
        if (!ref) continue;
        const claim = model.claimOfVolume(template, ref);
        if (!claim || claim === 'external') continue;
        // Binding requires the PV's volumeMode to equal the claim's (CheckVolumeModeMismatches), so the claim's own mode is
        // the mode of any PV it is bound to; a PV that only reserves the claim with another mode never binds.
        const mode = volumeModeOf(claim.object);
        const source = { resource: claim.owner, path: [...claim.path, 'spec', 'volumeMode'] as JsonPath, message: `${ORIGIN[claim.origin]} "${claim.name}" (volumeMode ${mode})` };
        const data = {
          kind: template.kind, workload: template.workload.name, container: containerLabel(use), volume: use.volumeName,
          origin: ORIGIN[claim.origin], claim: claim.name,
        };
        if (use.type === 'mount' && mode === 'Block') {
          report({ resource: template.workload, path: use.path, messageId: 'blockMounted', data, related: [source] });
        } else if (use.type === 'device' && mode === 'Filesystem') {
          const defaulted = claim.object?.spec?.volumeMode == null;
          report({ resource: template.workload, path: use.path, messageId: 'filesystemDevice', data: { ...data, defaulted }, related: [source] });
        }
      }
    }
  },
});
