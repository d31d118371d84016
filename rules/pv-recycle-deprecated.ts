// R38: the deprecated Recycle reclaim policy, and Recycle where it cannot work.
import { isPlaceholder } from '../src/model/placeholder.js';
import { defineRule } from '../src/define-rule.js';
import { inTreeSourceProvisioner } from '../src/model/provisioners.js';

/** The volume source key of a PV spec (`nfs`, `hostPath`, `csi`, …). */
function sourceOf(spec: any): string | undefined {
  if (spec?.csi && typeof spec.csi === 'object') return 'csi';
  const inTree = inTreeSourceProvisioner(spec);
  if (inTree) return inTree.source;
  const known = ['iscsi', 'fc', 'rbd', 'cephfs', 'glusterfs', 'flexVolume', 'flocker', 'quobyte', 'scaleIO', 'storageos', 'photonPersistentDisk'];
  return known.find((key) => spec?.[key] && typeof spec[key] === 'object');
}

export default defineRule({
  id: 'pv-recycle-deprecated',
  meta: {
    catalogueId: 'R38',
    severity: 'warning',
    severities: ['error'],
    kinds: ['PersistentVolume', 'StorageClass'],
    summary: 'A PersistentVolume uses the deprecated Recycle reclaim policy, or uses it where no recycler exists.',
    why:
      'Recycle is deprecated ("Instead, the recommended approach is to use dynamic provisioning"): it scrubs the volume with a basic ' +
      '`rm -rf` and offers it to the next claim, and only the NFS and hostPath plugins implement it. On any other source the PV ' +
      'controller finds no recycler when the claim is released and the PersistentVolume goes Failed. The API server rejects Recycle ' +
      'for a hostPath of "/" and on StorageClasses, whose reclaimPolicy accepts only Delete and Retain.',
    trigger:
      'A PersistentVolume with `spec.persistentVolumeReclaimPolicy: Recycle`: warning — on `nfs` and `hostPath` volumes for the ' +
      'deprecation, on any other source (CSI, cloud disks, `local`, iSCSI, …) because it has no recycler (the volume mounts and ' +
      'keeps its data; the PV goes Failed instead of being reused when its claim is released); error on a hostPath of "/", ' +
      'which the API server rejects. A StorageClass with `reclaimPolicy: Recycle` ' +
      '(or any value other than Delete and Retain): error.',
    exceptions: 'PersistentVolumes with Retain or Delete, or without the field (Retain by default for PersistentVolumes), are not reported.',
    fix:
      'Use `Retain` and clean up released volumes yourself, or provision volumes dynamically from a StorageClass with `reclaimPolicy: ' +
      'Delete`; for NFS, a dynamic NFS provisioner (csi-driver-nfs, nfs-subdir-external-provisioner) replaces recycling.',
    reportsAt: 'The `persistentVolumeReclaimPolicy` of the PersistentVolume, or the `reclaimPolicy` of the StorageClass.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Recycle"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#recycle' },
      { title: 'Kubernetes docs: Storage Classes, "Reclaim policy"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#reclaim-policy' },
      { title: 'kubernetes pkg/apis/core/validation/validation.go (may not be \'recycle\' for a hostPath mount of \'/\')', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
      { title: 'kubernetes pkg/apis/storage/validation/validation.go (validateReclaimPolicy: Delete, Retain)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/storage/validation/validation.go' },
    ],
    messages: {
      deprecated: (d: { pv: string; source: string }) =>
        `PersistentVolume "${d.pv}" (${d.source}) uses the deprecated Recycle reclaim policy: when its claim is released, Kubernetes runs ` +
        '`rm -rf` on the volume and hands it to the next claim. Use Retain, or dynamic provisioning.',
      noRecycler: (d: { pv: string; source: string }) =>
        `PersistentVolume "${d.pv}" uses Recycle on a ${d.source} volume, but only nfs and hostPath volumes can be recycled: when its claim is ` +
        'released the PV controller finds no recycler and the PersistentVolume goes Failed. Use Retain or Delete.',
      hostRoot: (d: { pv: string }) =>
        `PersistentVolume "${d.pv}" uses Recycle on hostPath "/": the API server rejects it ("may not be 'recycle' for a hostPath mount of '/'").`,
      storageClass: (d: { sc: string; value: string }) =>
        `StorageClass "${d.sc}" has reclaimPolicy ${d.value}, but a StorageClass accepts only Delete and Retain: the API server rejects it.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: scratch}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Recycle
  nfs: {server: nfs.example.internal, path: /exports/scratch}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: scratch}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteMany]
  persistentVolumeReclaimPolicy: Retain
  nfs: {server: nfs.example.internal, path: /exports/scratch}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const pv of model.ofKind('PersistentVolume')) {
      const spec = pv.object?.spec;
      if (spec?.persistentVolumeReclaimPolicy !== 'Recycle') continue;
      const path = ['spec', 'persistentVolumeReclaimPolicy'];
      const source = sourceOf(spec);
      if (source === 'hostPath' && typeof spec.hostPath?.path === 'string' && /^\/+\.?\/*$/.test(spec.hostPath.path.trim())) {
        report({ resource: pv, path, messageId: 'hostRoot', severity: 'error', data: { pv: pv.name } });
      } else if (source === 'nfs' || source === 'hostPath') {
        report({ resource: pv, path, messageId: 'deprecated', data: { pv: pv.name, source } });
      } else if (source !== undefined) {
        // The volume mounts and keeps its data; only the reuse after release fails (Failed, handled by hand like Retain).
        report({ resource: pv, path, messageId: 'noRecycler', severity: 'warning', data: { pv: pv.name, source: source === 'csi' ? `CSI (${spec.csi?.driver ?? 'unknown driver'})` : source } });
      }
    }
    for (const sc of model.ofKind('StorageClass')) {
      const value = sc.object?.reclaimPolicy;
      if (value == null || value === '' || value === 'Delete' || value === 'Retain' || isPlaceholder(value)) continue;
      report({ resource: sc, path: ['reclaimPolicy'], messageId: 'storageClass', severity: 'error', data: { sc: sc.name, value: String(value) } });
    }
  },
});
