// R48: two PersistentVolumes name the same CSI volume (driver + volumeHandle).
import { isPlaceholder } from '../src/model/placeholder.js';
import { defineRule } from '../src/define-rule.js';
import { splitClaimKey } from '../src/model/claims.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

const EFS = 'efs.csi.aws.com';
const HANDLE_PATH: JsonPath = ['spec', 'csi', 'volumeHandle'];

interface Mount {
  template: PodTemplate;
  claim: string;
  /** Where the template refers to the claim (its volume's claimName, or the StatefulSet's claim template). */
  path: JsonPath;
}

/** Claim keys (`namespace/name`) that use a PV: its claimRef, and every PVC in the repo whose volumeName names it. */
function claimsUsing(byVolumeName: Map<string, string[]>, pv: Resource): string[] {
  const keys = new Set<string>(byVolumeName.get(pv.name) ?? []);
  const ref = pv.object?.spec?.claimRef;
  if (ref && typeof ref === 'object' && ref.name != null) keys.add(`${String(ref.namespace ?? '')}/${String(ref.name)}`);
  return [...keys];
}

/** Pod templates that mount the PV through one of its claims (PVCs by name, or StatefulSet claim-template claims). */
function mountsOf(model: StorageModel, byVolumeName: Map<string, string[]>, pv: Resource): Mount[] {
  const mounts: Mount[] = [];
  for (const key of claimsUsing(byVolumeName, pv)) {
    const { namespace, name } = splitClaimKey(key);
    for (const use of model.usesOfClaim(namespace, name)) {
      mounts.push({ template: use.template, claim: name, path: [...use.volume.path, 'persistentVolumeClaim', 'claimName'] });
    }
    const lookup = model.lookupClaim(namespace, name);
    if (lookup.status === 'found' && lookup.value.kind === 'claim-template') {
      const target = lookup.value;
      const template = model.templates.find((t) => t.workload === target.statefulSet);
      const vct = template?.claimTemplates.find((c) => c.name === target.template);
      if (template && vct) mounts.push({ template, claim: name, path: [...vct.path, 'metadata', 'name'] });
    }
  }
  return mounts;
}

function handleOf(pv: Resource): { driver: string; handle: string } | undefined {
  const csi = pv.object?.spec?.csi;
  if (!csi || typeof csi !== 'object' || csi.driver == null || csi.volumeHandle == null) return undefined;
  return { driver: String(csi.driver), handle: String(csi.volumeHandle) };
}

/** Later PVs with a name seen before are the same object written twice (e.g. in two overlays), not a second PV. */
function distinctByName(volumes: readonly Resource[]): Resource[] {
  const seen = new Set<string>();
  return volumes.filter((pv) => (seen.has(pv.name) ? false : (seen.add(pv.name), true)));
}

/** The fix for a group of one driver: EFS can encode a directory or access point in the handle; other drivers cannot. */
function fixFor(driver: string): string {
  if (driver === 'efs.csi.aws.com') {
    return 'Use one PV per volume handle. For several directories or access points of one EFS file system, encode them in the handle ' +
      '(`fs-id:/dir`, `fs-id::fsap-id`) so every PV has a distinct handle, or mount one PV and use `subPath`s.';
  }
  return `Use one PV per ${driver} volume: delete the extra PVs and let the workloads share one claim of the remaining PV (a ` +
    'ReadWriteMany claim when several nodes mount it), or mount that one PV and separate the data with `subPath`s.';
}

export default defineRule({
  id: 'csi-duplicate-volume-handle',
  meta: {
    catalogueId: 'R48',
    severity: 'warning',
    severities: ['error'],
    kinds: ['PersistentVolume'],
    summary: 'Two PersistentVolumes name the same CSI volume (driver and volumeHandle).',
    why:
      'Kubelet identifies a CSI volume as `<driver>^<volumeHandle>`. When one pod uses two PVs with the same driver and ' +
      'handle, kubelet mounts only one of them and waits for the other forever: the pod stays ContainerCreating with ' +
      '"Unable to attach or mount volumes … timed out waiting for the condition" (kubernetes#91556, several EFS driver ' +
      'issues). Even in different pods, two PVs for one volume defeat attach accounting and ReadWriteOnce, since each ' +
      'can be bound by another claim.',
    trigger:
      'PersistentVolumes in the repo grouped by `spec.csi.driver` and the exact `spec.csi.volumeHandle` string: every PV ' +
      'after the first of a group is reported (warning); error when one pod template mounts it together with another PV ' +
      'of the group, through their claims (PV claimRef or PVC volumeName, including StatefulSet claim-template claims). ' +
      'For efs.csi.aws.com, handles that differ only by the optional `efs:` prefix name the same target and are reported ' +
      'as a warning (kubelet sees two different strings).',
    exceptions:
      'PVs with the same name are the same object written twice (overlays, environments) and are not compared. PVs ' +
      'without `spec.csi` and different drivers with equal handles are not grouped; EFS handles with different sub-paths ' +
      'or access points (`fs-id:/dir`, `fs-id::fsap-id`) are different volumes and fine.',
    fix:
      'Use one PV per volume handle. For several directories or access points of one EFS file system, encode them in the ' +
      'handle (`fs-id:/dir`, `fs-id::fsap-id`) so every PV has a distinct handle, or mount one PV and use `subPath`s.',
    reportsAt: '`spec.csi.volumeHandle` of every PV after the first in a group; the first PV is the related location.',
    references: [
      { title: 'kubernetes pkg/volume/csi/csi_plugin.go (GetVolumeName = driver^volumeHandle)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/csi/csi_plugin.go' },
      { title: 'kubernetes issue #91556: kubelet mounts only one of a pod\'s CSI volumes with the same volumeHandle', url: 'https://github.com/kubernetes/kubernetes/issues/91556' },
      { title: 'aws-efs-csi-driver issue #167 (same volumeHandle in several PVs)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/issues/167' },
      { title: 'aws-efs-csi-driver pkg/driver/node.go (volumeHandle grammar, optional efs: prefix)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/a4fc676/pkg/driver/node.go' },
    ],
    messages: {
      duplicate: (d: { pv: string; other: string; driver: string; handle: string }) =>
        `PersistentVolume "${d.pv}" names the same CSI volume as ${d.other} (driver ${d.driver}, volumeHandle "${d.handle}"); ` +
        'kubelet identifies CSI volumes by driver^volumeHandle, so a pod that uses both never starts, and each PV can be bound by ' +
        'another claim although they are one volume.',
      sharedInPod: (d: { pv: string; other: string; driver: string; handle: string; kind: string; workload: string; claim: string; otherClaim: string }) =>
        `PersistentVolumes "${d.pv}" and "${d.other}" have the same driver ${d.driver} and volumeHandle "${d.handle}", and ${d.kind} "${d.workload}" ` +
        `mounts both (claims "${d.claim}" and "${d.otherClaim}"): kubelet mounts only one volume per driver^volumeHandle, so the pod stays ` +
        'ContainerCreating ("Unable to attach or mount volumes … timed out waiting for the condition").',
      efsAlias: (d: { pv: string; handle: string; other: string; otherHandle: string }) =>
        `PersistentVolume "${d.pv}" (volumeHandle "${d.handle}") and PersistentVolume "${d.other}" (volumeHandle "${d.otherHandle}") name the same ` +
        'EFS target, since the "efs:" prefix is optional; kubelet sees two different volumes, so two PVs and their claims share one directory.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared-a}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  claimRef: {name: data-a, namespace: default}
  csi: {driver: efs.csi.aws.com, volumeHandle: fs-0123456789abcdef0}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: shared-b}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  claimRef: {name: data-b, namespace: default}
  csi: {driver: efs.csi.aws.com, volumeHandle: fs-0123456789abcdef0}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: shared-a}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  csi: {driver: efs.csi.aws.com, volumeHandle: "fs-0123456789abcdef0:/a"}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: shared-b}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteMany]
  storageClassName: ""
  csi: {driver: efs.csi.aws.com, volumeHandle: "fs-0123456789abcdef0:/b"}
`,
      ],
    },
  },
  check({ model, report }) {
    const byVolumeName = new Map<string, string[]>();
    for (const pvc of model.claimsOf()) {
      const volumeName = pvc.object?.spec?.volumeName;
      if (typeof volumeName !== 'string' || volumeName === '') continue;
      const key = `${model.namespaceOf(pvc) ?? model.defaultNamespace}/${pvc.name}`;
      const list = byVolumeName.get(volumeName);
      if (list) list.push(key);
      else byVolumeName.set(volumeName, [key]);
    }
    const mounts = new Map<Resource, Mount[]>();
    const mountsFor = (pv: Resource) => {
      let found = mounts.get(pv);
      if (!found) mounts.set(pv, (found = mountsOf(model, byVolumeName, pv)));
      return found;
    };

    for (const [, group] of model.volumeHandleGroups()) {
      const volumes = distinctByName(group);
      if (volumes.length < 2) continue;
      const [first] = volumes;
      const { driver, handle } = handleOf(first)!;
      // `${VOLUME_ID}` in several PVs is one placeholder, not one volume.
      if (isPlaceholder(handle)) continue;
      for (const pv of volumes.slice(1)) {
        let shared: { mine: Mount; theirs: Mount; other: Resource } | undefined;
        for (const other of volumes) {
          if (other === pv || shared) continue;
          for (const mine of mountsFor(pv)) {
            const theirs = mountsFor(other).find((m) => m.template === mine.template);
            if (theirs) {
              shared = { mine, theirs, other };
              break;
            }
          }
        }
        if (shared) {
          const { mine, theirs, other } = shared;
          report({
            resource: pv, path: HANDLE_PATH, messageId: 'sharedInPod', severity: 'error', fix: fixFor(driver),
            data: {
              pv: pv.name, other: other.name, driver, handle,
              kind: mine.template.kind, workload: mine.template.workload.name, claim: mine.claim, otherClaim: theirs.claim,
            },
            related: [
              { resource: other, path: HANDLE_PATH, message: `PersistentVolume "${other.name}" has the same volumeHandle` },
              { resource: mine.template.workload, path: mine.path, message: `${mine.template.kind} "${mine.template.workload.name}" mounts claim "${mine.claim}"` },
              { resource: theirs.template.workload, path: theirs.path, message: `… and claim "${theirs.claim}"` },
            ],
          });
        } else {
          // Every other PV of the group, so three PVs on one volume are named as three.
          const others = volumes.filter((o) => o !== pv);
          const names = others.map((o) => `"${o.name}"`);
          const other = names.length === 1 ? `PersistentVolume ${names[0]}` : `PersistentVolumes ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
          report({
            resource: pv, path: HANDLE_PATH, messageId: 'duplicate', severity: 'warning', fix: fixFor(driver),
            data: { pv: pv.name, other, driver, handle },
            related: others.map((o) => ({ resource: o, path: HANDLE_PATH, message: `PersistentVolume "${o.name}" has the same volumeHandle` })),
          });
        }
      }
    }

    // EFS: `efs:fs-…` and `fs-…` are the same target under different strings.
    const efsGroups = new Map<string, Resource[]>();
    for (const pv of distinctByName(model.ofKind('PersistentVolume'))) {
      const csi = handleOf(pv);
      if (!csi || csi.driver !== EFS) continue;
      const normalised = csi.handle.replace(/^efs:/, '');
      const list = efsGroups.get(normalised);
      if (list) list.push(pv);
      else efsGroups.set(normalised, [pv]);
    }
    for (const group of efsGroups.values()) {
      for (let i = 1; i < group.length; i++) {
        const pv = group[i];
        const handle = handleOf(pv)!.handle;
        const earlier = group.slice(0, i);
        // The same exact string is a plain duplicate, reported above.
        if (earlier.some((e) => handleOf(e)!.handle === handle)) continue;
        const other = earlier[0];
        report({
          resource: pv, path: HANDLE_PATH, messageId: 'efsAlias', severity: 'warning',
          data: { pv: pv.name, handle, other: other.name, otherHandle: handleOf(other)!.handle },
          related: [{ resource: other, path: HANDLE_PATH, message: `PersistentVolume "${other.name}" names the same EFS target` }],
        });
      }
    }
  },
});
