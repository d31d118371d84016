// R04: a PersistentVolume manifest exported from a cluster keeps claimRef.uid; on apply the PV is Released at once.
import { defineRule } from '../src/define-rule.js';
import type { JsonPath } from '../src/types.js';

const EXPORT_ANNOTATIONS = ['pv.kubernetes.io/bound-by-controller', 'pv.kubernetes.io/provisioned-by', 'pv.kubernetes.io/bind-completed'];

export default defineRule({
  id: 'pv-claimref-stale-uid',
  meta: {
    catalogueId: 'R04',
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolume'],
    summary: 'A PersistentVolume\'s claimRef carries a uid, as in a manifest exported from a live cluster: the PV is Released on apply and its reclaim policy runs.',
    why:
      'UIDs are assigned by the API server, so a claim created from the repo never has the uid written in `claimRef.uid`. ' +
      'The PV controller (syncVolume) treats a claimRef with a uid as a binding to that exact claim object; finding no ' +
      'claim with that uid it marks the PV Released and executes its reclaim policy: with Delete the PV — and for ' +
      'provisioner-managed volumes the disk with its data — is deleted; with Recycle the volume is scrubbed; with Retain ' +
      '(the default for a PV written by hand) the PV stays Released forever and no claim can bind it.',
    trigger:
      'A PersistentVolume with a non-empty `spec.claimRef.uid`. Error when `persistentVolumeReclaimPolicy` is Delete or ' +
      'Recycle, warning when it is Retain or unset (the API default for PVs is Retain). The message also names the ' +
      'other signs of an export it sees: `claimRef.resourceVersion`, bind/provisioner annotations, a `status` block.',
    exceptions:
      'A claimRef with only name and namespace (a reservation) is fine; `claimRef.resourceVersion` without uid does not ' +
      'trigger the release (the controller only looks at the uid) and is not reported on its own.',
    fix:
      'Remove `claimRef.uid` and `claimRef.resourceVersion` (keep name and namespace to reserve the PV), drop the ' +
      '`status` block and the controller annotations, and keep `persistentVolumeReclaimPolicy: Retain` while migrating data.',
    reportsAt: 'The PV\'s `spec.claimRef.uid`; related: `persistentVolumeReclaimPolicy` when it is Delete or Recycle.',
    references: [
      { title: 'kubernetes pv_controller.go (syncVolume: claimRef with uid, claim not found → Released, reclaimVolume)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/pv_controller.go' },
      { title: 'kubernetes pv_helpers.go (IsVolumeBoundToClaim compares the uid when set)', url: 'https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/storage/volume/pv_helpers.go' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reclaiming"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reclaiming' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reserving a PersistentVolume"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reserving-a-persistentvolume' },
    ],
    messages: {
      staleUid: (d: { pv: string; uid: string; claim: string; policy: string; consequence: string; signs: string }) =>
        `PersistentVolume "${d.pv}" has claimRef.uid "${d.uid}" for claim ${d.claim}${d.signs ? ` (${d.signs}: an export from a live cluster)` : ''}; ` +
        `no claim created from this repo can have that uid, so the PV controller marks the PV Released on apply and runs its reclaim policy ${d.policy}: ${d.consequence}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata:
  name: pvc-3f1c2a9e
  annotations: {pv.kubernetes.io/provisioned-by: ebs.csi.aws.com}
spec:
  capacity: {storage: 20Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Delete
  storageClassName: ebs-gp3
  claimRef:
    name: data
    namespace: shop
    uid: 8f0e7c2a-1b2c-4d5e-9f00-112233445566
    resourceVersion: "123456"
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0abc123def4567890}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: pvc-3f1c2a9e}
spec:
  capacity: {storage: 20Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  storageClassName: ebs-gp3
  claimRef: {name: data, namespace: shop}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0abc123def4567890}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const pv of model.ofKind('PersistentVolume')) {
      const ref = pv.object?.spec?.claimRef;
      if (!ref || typeof ref !== 'object') continue;
      const uid = ref.uid == null ? '' : String(ref.uid);
      if (uid === '') continue;
      const policy = pv.object?.spec?.persistentVolumeReclaimPolicy == null ? undefined : String(pv.object.spec.persistentVolumeReclaimPolicy);
      const annotations = pv.object?.metadata?.annotations ?? {};
      const signs = [
        ...(ref.resourceVersion != null ? ['claimRef.resourceVersion'] : []),
        ...EXPORT_ANNOTATIONS.filter((a) => annotations[a] != null).map((a) => `annotation ${a}`),
        ...(pv.object?.status != null ? ['a status block'] : []),
      ];
      const destructive = policy === 'Delete' || policy === 'Recycle';
      const consequence = policy === 'Delete'
        ? 'the PV is deleted, and a provisioner-managed volume is deleted with its data'
        : policy === 'Recycle'
          ? 'the volume\'s contents are scrubbed (rm -rf) and the PV made Available'
          : 'the PV stays Released and no claim can bind it until claimRef is removed';
      const claim = `"${String(ref.name ?? '')}"${ref.namespace != null ? ` in namespace "${String(ref.namespace)}"` : ''}`;
      report({
        resource: pv,
        path: ['spec', 'claimRef', 'uid'],
        messageId: 'staleUid',
        severity: destructive ? 'error' : 'warning',
        data: { pv: pv.name, uid, claim, policy: policy ?? 'Retain (the default)', consequence, signs: signs.join(', ') },
        related: destructive ? [{ resource: pv, path: ['spec', 'persistentVolumeReclaimPolicy'] as JsonPath, message: `persistentVolumeReclaimPolicy: ${policy}` }] : [],
      });
    }
  },
});
