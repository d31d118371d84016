// The default-StorageClass trap: a claim without storageClassName beside a class-less static PV it would otherwise bind.
// Admission gives the claim the cluster's default class, so it binds only PVs of that class and is provisioned a new,
// empty volume; the PV (an NFS export, a restored EBS volume) is never used.
import { defineRule } from '../src/define-rule.js';
import { NO_PROVISIONER } from '../src/model/provisioners.js';
import { asClaimResource, claimPath, claimTemplateNames, type ClaimObject } from '../src/model/claim-objects.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { Resource } from '../src/types.js';


/** What the PV holds, in the terms its author used: `EBS volume vol-0abc`, `NFS export nfs.example.com:/exports/a`. */
export function describeVolumeSource(pv: Resource): string {
  const spec = pv.object?.spec ?? {};
  const csi = spec.csi;
  if (csi && typeof csi === 'object' && typeof csi.volumeHandle === 'string') {
    const driver = String(csi.driver ?? '');
    const label = driver === 'ebs.csi.aws.com' ? 'EBS volume' : driver === 'efs.csi.aws.com' ? 'EFS file system' : `${driver} volume`;
    return `${label} ${csi.volumeHandle}`;
  }
  if (spec.awsElasticBlockStore?.volumeID) return `EBS volume ${String(spec.awsElasticBlockStore.volumeID)}`;
  if (spec.gcePersistentDisk?.pdName) return `GCE disk ${String(spec.gcePersistentDisk.pdName)}`;
  if (spec.azureDisk?.diskName) return `Azure disk ${String(spec.azureDisk.diskName)}`;
  if (spec.nfs?.server) return `NFS export ${String(spec.nfs.server)}:${String(spec.nfs.path ?? '/')}`;
  if (spec.hostPath?.path) return `host path ${String(spec.hostPath.path)}`;
  if (spec.local?.path) return `local path ${String(spec.local.path)}`;
  return 'its volume';
}

/** A class-less PV that a claim of class "" would bind: every binding check passes except the class. */
function wouldMatchWithoutClass(model: StorageModel, claim: Resource, pv: Resource): boolean {
  if (model.classOfVolume(pv.object) !== '') return false;
  const verdict = model.matchVolumeToClaim(claim, pv);
  if (verdict.preBound) return false;
  return verdict.mismatches.every((m) => m.reason === 'class');
}

/** Another claim in the scope that asks for the PV (by volumeName, or with class "" and nothing reserved for it): the PV is meant for it. */
function claimedByAnother(model: StorageModel, pv: Resource, self: ClaimObject): boolean {
  return model.claimObjects().some((other) => {
    if (other === self) return false;
    const spec = other.object?.spec;
    if (typeof spec?.volumeName === 'string' && spec.volumeName !== '') return spec.volumeName === pv.name;
    // A claim that a PV reserves through claimRef binds that PV first.
    if (model.volumesClaiming(other.namespace, other.claimName).length > 0) return false;
    const own = model.classOfClaim(other.object);
    return own.set && own.name === '' && model.matchVolumeToClaim(asClaimResource(other), pv).mismatches.length === 0;
  });
}

function sourceFileOf(resource: Resource): string {
  return resource.origin?.file?.path ?? resource.file.path;
}

const NAME_SUFFIXES = /-(?:pvc|pv|claim|volume|vol|data|restored|static|disk)$/;

function stem(name: string): string {
  let current = name.toLowerCase();
  for (let previous = ''; previous !== current; ) {
    previous = current;
    current = current.replace(NAME_SUFFIXES, '');
  }
  return current;
}

/**
 * Whether the PV was written for this claim: in the same source file, or named after it (`ledger` ↔ `ledger-restored`,
 * `postgres-pvc` ↔ `postgres-pv`). A scope of unrelated samples has class-less claims and static PVs that only happen
 * to fit each other; those are left alone.
 */
function writtenFor(pv: Resource, claim: ClaimObject, claimNames: readonly string[]): boolean {
  if (sourceFileOf(pv) === sourceFileOf(claim.resource)) return true;
  const volume = stem(pv.name);
  const own = claim.origin === 'claim-template' && claim.claimTemplate ? [claim.claimTemplate.name, ...claimNames] : claimNames;
  return own.some((name) => {
    const s = stem(name);
    return s.length >= 3 && volume.length >= 3 && (volume.includes(s) || s.includes(volume));
  });
}

export default defineRule({
  id: 'pvc-default-class-skips-static-pv',
  meta: {
    severity: 'warning',
    severities: ['error'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim without storageClassName gets the default class and so never binds the class-less static PV beside it.',
    why:
      'A claim that omits `storageClassName` is not a claim for "no class": when the cluster has a default StorageClass, ' +
      'the DefaultStorageClass admission plugin writes that class into the claim when it is created, and "PVCs that have no ' +
      'storageClassName can be bound only to PVs of that default". A pre-created PersistentVolume without a class (an NFS ' +
      'export, an EBS volume restored from a snapshot) is therefore never bound: the claim is provisioned a new, empty volume ' +
      'of the default class, the application starts on empty storage, and the PV stays Available. Only `storageClassName: ""` ' +
      'asks for a class-less PV, and admission never rewrites it. Most clusters have a default class (cloud installers and local ' +
      'distributions create one), so the repository rarely shows whether this happens.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet claim template or generic ephemeral claim without `storageClassName` (and without ' +
      'the beta class annotation), `volumeName` or selector, when a PersistentVolume in the scope without a class would bind ' +
      'it if it asked for class "" (access modes, capacity, volume mode, claimRef all fit) and was written for it: in the same ' +
      'source file, or named after the claim (`ledger` and `ledger-restored`, `db-pvc` and `db-pv`). An error when the repo (or ' +
      '`cluster.storageClasses` in .pvlint.yaml) shows a default StorageClass; a warning when the default is not visible.',
    exceptions:
      'Silent when the scope is declared complete (`cluster.bundleComplete` / --bundle-complete) and shows no default class: ' +
      'then the claim keeps no class and binds the PV. Silent when a PV of the default class binds the claim, when the PV\'s ' +
      'claimRef reserves it for this claim (a pre-bound PV is bound whatever the class), when another claim asks for the PV ' +
      '(by volumeName or with class ""), and when the default class has provisioner kubernetes.io/no-provisioner ' +
      '(pv-pvc-static-mismatch reports that one). A class-less claim and an unrelated PV elsewhere in the scope that only ' +
      'happen to fit each other are left alone: the claim may well be meant for the default class. Claims with a selector or a claimRef reservation are pv-pvc-static-mismatch\'s.',
    fix:
      'Set `storageClassName: ""` on the claim (the PV\'s class, if it has one), and bind it explicitly with `volumeName: <pv>` ' +
      'on the claim or `claimRef` on the PV.',
    reportsAt: 'The claim\'s `spec` (where storageClassName belongs); the PV is the related location.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Class" (PVCs without storageClassName bind only PVs of the default class)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#class-1' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reserving a PersistentVolume"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reserving-a-persistentvolume' },
      { title: 'Kubernetes docs: Admission controllers, "DefaultStorageClass"', url: 'https://kubernetes.io/docs/reference/access-authn-authz/admission-controllers/#defaultstorageclass' },
      { title: 'kubernetes DefaultStorageClass admission plugin (setdefault/admission.go)', url: 'https://github.com/kubernetes/kubernetes/blob/master/plugin/pkg/admission/storage/storageclass/setdefault/admission.go' },
    ],
    messages: {
      trap: (d: { claim: string; defaultClass: string | undefined; pv: string; source: string }) =>
        `${d.claim} sets no storageClassName, so admission gives it ` +
        (d.defaultClass ? `the default class "${d.defaultClass}"` : 'the cluster\'s default class (if it has one, as most clusters do)') +
        ` and it binds only PersistentVolumes of that class: it never binds PersistentVolume "${d.pv}" (no class, ${d.source}) ` +
        'and is provisioned a new, empty volume instead. Set storageClassName: "" (and volumeName) to use the PV.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: orders-restored}
spec:
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0a1b2c3d4e5f67890, fsType: ext4}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: orders, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 100Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: orders-restored}
spec:
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteOnce]
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0a1b2c3d4e5f67890, fsType: ext4}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: orders, namespace: shop}
spec:
  storageClassName: ""
  volumeName: orders-restored
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 100Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const volumes = model.ofKind('PersistentVolume').filter((pv) => model.classOfVolume(pv.object) === '');
    if (volumes.length === 0) return;
    const defaultClass = model.newestDefaultClass();
    if (!defaultClass && model.bundleComplete) return;
    if (defaultClass?.object?.provisioner === NO_PROVISIONER) return;
    for (const claim of model.claimObjects()) {
      const spec = claim.object?.spec;
      if (!spec || typeof spec !== 'object') continue;
      if (model.classOfClaim(claim.object).set) continue;
      if (typeof spec.volumeName === 'string' && spec.volumeName !== '') continue;
      if (spec.selector != null) continue;
      const names = claim.origin === 'claim-template' ? claimTemplateNames(claim) : [claim.claimName];
      const resources = names.map((name) => asClaimResource(claim, name));
      if (resources.some((r) => model.volumesClaiming(claim.namespace, r.name).length > 0)) continue;
      // With a visible default class, a PV of that class may bind it: then nothing is lost.
      if (defaultClass && model.ofKind('PersistentVolume').some((pv) => resources.some((r) => model.matchVolumeToClaim(r, pv).mismatches.length === 0))) continue;
      const target = volumes.find((pv) =>
        writtenFor(pv, claim, names) && resources.some((r) => wouldMatchWithoutClass(model, r, pv)) && !claimedByAnother(model, pv, claim));
      if (!target) continue;
      const label = claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : '');
      report({
        resource: claim.resource, path: claimPath(claim, 'spec'), messageId: 'trap',
        severity: defaultClass ? 'error' : 'warning',
        data: { claim: label, defaultClass: defaultClass?.name, pv: target.name, source: describeVolumeSource(target) },
        related: [{ resource: target, path: ['metadata', 'name'], message: `PersistentVolume "${target.name}" (no class)` }],
      });
    }
  },
});
