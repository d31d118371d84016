// R33: VolumeSnapshotClasses, VolumeSnapshots and clone / restore claims that cannot work as written.
import { defineRule } from '../src/define-rule.js';
import { claimPath, isPlaceholder, type ClaimObject } from '../src/model/claim-objects.js';
import { volumeModeOf } from '../src/model/claims.js';
import { editDistance } from '../src/model/edit-distance.js';
import { likelyMeant } from '../src/model/name-suggestions.js';
import { normaliseProvisioner } from '../src/model/provisioners.js';
import { compareQuantities, parseQuantity } from '../src/model/quantity.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

const DEFAULT_ANNOTATION = 'snapshot.storage.kubernetes.io/is-default-class';

/**
 * Drivers that implement neither snapshots nor clones: the EFS driver's controller advertises only CREATE_DELETE_VOLUME
 * and answers CreateSnapshot with Unimplemented (aws-efs-csi-driver pkg/driver/controller.go).
 */
const NO_SNAPSHOT_OR_CLONE: Readonly<Record<string, string>> = {
  'efs.csi.aws.com': 'the EFS CSI driver implements neither snapshots nor clones (its controller only creates and deletes access points)',
};

function isDefaultSnapshotClass(vsc: Resource): boolean {
  return vsc.object?.metadata?.annotations?.[DEFAULT_ANNOTATION] === 'true';
}

/** The claim named by a dataSource / dataSourceRef of kind PersistentVolumeClaim or VolumeSnapshot. */
function dataSourceOf(pvc: Resource): { kind: 'PersistentVolumeClaim' | 'VolumeSnapshot'; name: string; path: JsonPath } | undefined {
  for (const field of ['dataSourceRef', 'dataSource'] as const) {
    const ref = pvc.object?.spec?.[field];
    if (!ref || typeof ref !== 'object' || ref.name == null) continue;
    if (ref.namespace != null && ref.namespace !== (pvc.namespace ?? ref.namespace)) return undefined; // cross-namespace: not modelled
    const group = ref.apiGroup ?? '';
    if (ref.kind === 'PersistentVolumeClaim' && group === '') return { kind: 'PersistentVolumeClaim', name: String(ref.name), path: ['spec', field] };
    if (ref.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io') return { kind: 'VolumeSnapshot', name: String(ref.name), path: ['spec', field] };
    return undefined;
  }
  return undefined;
}

/**
 * Data-source kinds pvlint can look for in the repo, with the API group a `dataSourceRef` names them by. A kind
 * outside this list (another populator's CRD) is not parsed, so a reference to it is not judged.
 */
const SOURCE_KINDS: readonly { kind: string; group: string; populator?: string }[] = [
  { kind: 'PersistentVolumeClaim', group: '' },
  { kind: 'VolumeSnapshot', group: 'snapshot.storage.k8s.io' },
  { kind: 'ReplicationDestination', group: 'volsync.backube', populator: 'VolSync' },
  { kind: 'Restore', group: 'kopiur.home-operations.com', populator: 'kopiur' },
  { kind: 'VolumeImportSource', group: 'cdi.kubevirt.io', populator: 'CDI' },
  { kind: 'VolumeUploadSource', group: 'cdi.kubevirt.io', populator: 'CDI' },
  { kind: 'VolumeCloneSource', group: 'cdi.kubevirt.io', populator: 'CDI' },
];

interface SourceReference {
  field: 'dataSourceRef' | 'dataSource';
  kind: string;
  group: string;
  name: string;
  /** The namespace the source must be in: `dataSourceRef.namespace`, else the claim's. */
  namespace: string;
  populator?: string;
}

/** The object a claim (or claim template) is populated from, when it is of a kind pvlint can look for. */
function sourceReferenceOf(claim: ClaimObject): SourceReference | undefined {
  for (const field of ['dataSourceRef', 'dataSource'] as const) {
    const ref = claim.object?.spec?.[field] as Record<string, unknown> | undefined;
    if (!ref || typeof ref !== 'object' || typeof ref.name !== 'string' || typeof ref.kind !== 'string') continue;
    const group = typeof ref.apiGroup === 'string' ? ref.apiGroup : '';
    const known = SOURCE_KINDS.find((k) => k.kind === ref.kind && k.group === group);
    if (!known) return undefined;
    // dataSource is always local; only dataSourceRef may name another namespace.
    const namespace = field === 'dataSourceRef' && typeof ref.namespace === 'string' ? ref.namespace : claim.namespace;
    return { field, kind: known.kind, group, name: ref.name, namespace, populator: known.populator };
  }
  return undefined;
}

function groupOf(resource: Resource): string {
  const apiVersion = resource.apiVersion ?? '';
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

function classProvisioner(model: StorageModel, pvc: Resource): { name: string; storageClass: Resource } | undefined {
  const driver = model.driverOfClaim(pvc);
  if (driver.source.via !== 'class' || driver.name === undefined) return undefined;
  return { name: driver.name, storageClass: driver.source.storageClass };
}

export default defineRule({
  id: 'snapshot-clone-misconfig',
  meta: {
    catalogueId: 'R33',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['VolumeSnapshotClass', 'VolumeSnapshot', 'PersistentVolumeClaim', 'ReplicationDestination', 'Restore', 'VolumeImportSource', 'VolumeUploadSource', 'VolumeCloneSource'],
    summary: 'A VolumeSnapshotClass, VolumeSnapshot or clone/restore/populated claim that cannot work as written: no deletionPolicy, driver mismatches, a clone smaller than its source or of another volumeMode, a data source that is not there.',
    why:
      'A VolumeSnapshotClass must say what happens to the storage snapshot when its VolumeSnapshotContent is deleted: ' +
      '`deletionPolicy` is required (`Retain` or `Delete`), and `Delete` removes the snapshot in the storage system too. A snapshot ' +
      'is taken by the CSI driver its class names, so a class of another driver than the source claim\'s cannot snapshot it. A ' +
      'clone (`dataSource` of kind PersistentVolumeClaim) is made by the external-provisioner only within one CSI driver ("claim ' +
      'in dataSource not bound or invalid" otherwise), only with the same volumeMode ("the source PVC and destination PVCs must ' +
      'have the same volume mode for cloning") and only at least as large as the source ("new PVC request must be greater than ' +
      'or equal in size to the specified PVC data source"); a restore needs a class of the snapshot\'s driver. The claim then ' +
      'stays Pending with ProvisioningFailed events. A claim\'s `dataSourceRef` (or `dataSource`, which the API server keeps ' +
      'equal to it) names the object to fill the new volume from: a claim, a VolumeSnapshot, or a custom resource a volume ' +
      'populator watches (a VolSync ReplicationDestination, a kopiur Restore, a CDI VolumeImportSource). Binding succeeds only ' +
      'once that object exists and the populator or provisioner has filled the volume; a misspelt or renamed name leaves ' +
      'the claim Pending for good (the VolSync populator waits for its ReplicationDestination to have a latest image).',
    trigger:
      'A snapshot.storage.k8s.io/v1 VolumeSnapshotClass without `deletionPolicy`, or one with a value other than Retain/Delete (error); two or more ' +
      'VolumeSnapshotClasses of one driver annotated `snapshot.storage.kubernetes.io/is-default-class: "true"` (warning); ' +
      '`deletionPolicy: Delete` on a default class or a class named like a backup class (note). A VolumeSnapshot whose ' +
      'VolumeSnapshotClass (in the repo) has another driver than its source claim (error). A claim whose `dataSource` / ' +
      '`dataSourceRef` is a PersistentVolumeClaim in the repo with a larger request, another volumeMode or another driver, or a ' +
      'VolumeSnapshot whose class driver differs from the claim\'s StorageClass provisioner (error). A VolumeSnapshotClass, a ' +
      'VolumeSnapshot of a claim, or a clone / restore claim of a driver that implements neither snapshots nor clones ' +
      '(efs.csi.aws.com) (error). A claim, claim template or ephemeral volume template whose `dataSourceRef` / `dataSource` ' +
      'names a PersistentVolumeClaim, VolumeSnapshot, VolSync ReplicationDestination, kopiur Restore or CDI ' +
      'VolumeImportSource/VolumeUploadSource/VolumeCloneSource that the repo does not define in that namespace (the claim\'s, ' +
      'or `dataSourceRef.namespace`): a warning when the repo defines populator objects of that kind there, or a claim or ' +
      'snapshot with a name one slip away (the message says which: "did you mean"); a note otherwise, since the object may ' +
      'be created outside the repo.',
    exceptions:
      'The size, mode and driver checks need the source claim, the snapshot and the classes in the repo and are skipped without ' +
      'them (the absent source itself is reported as above); cross-namespace data ' +
      'sources (`dataSourceRef.namespace`) are only checked for existence, and populators of other kinds are not checked. Names that are ' +
      'still placeholders (`${APP}`), and sources of a kind of which the repo holds an object whose name is a placeholder, ' +
      'are not judged. The snapshot restore size is only known in the cluster and is not checked.',
    fix:
      'Set `deletionPolicy: Retain` (keep the storage snapshot when the API objects go) or `Delete` deliberately; keep one default ' +
      'class per driver; snapshot and clone within one CSI driver, with the same volumeMode, and request at least the source\'s size.',
    reportsAt: 'The class\'s `deletionPolicy` (or the class, where it is missing), the VolumeSnapshot\'s `volumeSnapshotClassName`, the clone\'s mismatching field, or the `name` of a data source that is not there.',
    references: [
      { title: 'aws-efs-csi-driver pkg/driver/controller.go (controllerCaps: CREATE_DELETE_VOLUME only; CreateSnapshot Unimplemented)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/59aa7ff8806dcd644acf92a6510eec92189fbe21/pkg/driver/controller.go' },
      { title: 'Kubernetes docs: Volume Snapshot Classes (deletionPolicy, default class)', url: 'https://kubernetes.io/docs/concepts/storage/volume-snapshot-classes/' },
      { title: 'Kubernetes docs: CSI Volume Cloning', url: 'https://kubernetes.io/docs/concepts/storage/volume-pvc-datasource/' },
      { title: 'kubernetes-csi/external-provisioner pkg/controller/controller.go (getPVCSource, getSnapshotSource)', url: 'https://github.com/kubernetes-csi/external-provisioner/blob/master/pkg/controller/controller.go' },
      { title: 'Kubernetes docs: Volume Populators and Data Sources (dataSourceRef, AnyVolumeDataSource)', url: 'https://kubernetes.io/docs/concepts/storage/volume-populators-and-data-sources/' },
      { title: 'Kubernetes API: PersistentVolumeClaimSpec dataSource / dataSourceRef (namespace needs a ReferenceGrant)', url: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/persistent-volume-claim-v1/' },
      { title: 'VolSync docs: ReplicationDestination Volume Populator', url: 'https://github.com/backube/volsync/blob/main/docs/usage/volume-populator/index.rst' },
    ],
    messages: {
      noDeletionPolicy: (d: { name: string }) =>
        `VolumeSnapshotClass "${d.name}" has no deletionPolicy; snapshot.storage.k8s.io/v1 requires it (Retain or Delete), so the API server rejects the class.`,
      badDeletionPolicy: (d: { name: string; value: string }) =>
        `VolumeSnapshotClass "${d.name}" has deletionPolicy "${d.value}"; only Retain and Delete are accepted.`,
      deleteOnDefault: (d: { name: string; why: string }) =>
        `VolumeSnapshotClass "${d.name}" (${d.why}) has deletionPolicy: Delete: deleting a VolumeSnapshot — a pruned namespace, an ` +
        'expired backup — also deletes the snapshot in the storage system. Use Retain if these snapshots are backups.',
      multipleDefaults: (d: { name: string; driver: string; others: string }) =>
        `VolumeSnapshotClass "${d.name}" is a default class for driver ${d.driver}, and so is ${d.others}: a VolumeSnapshot without ` +
        'volumeSnapshotClassName cannot pick one and fails.',
      snapshotDriver: (d: { snapshot: string; snapshotClass: string; classDriver: string; claim: string; claimDriver: string }) =>
        `VolumeSnapshot "${d.snapshot}" uses VolumeSnapshotClass "${d.snapshotClass}" of driver ${d.classDriver}, but its source ` +
        `PersistentVolumeClaim "${d.claim}" is a ${d.claimDriver} volume: the snapshot is never taken.`,
      cloneSize: (d: { claim: string; size: string; source: string; sourceSize: string }) =>
        `PersistentVolumeClaim "${d.claim}" clones "${d.source}" but requests ${d.size}, less than the source's ${d.sourceSize}: ` +
        'provisioning fails ("new PVC request must be greater than or equal in size to the specified PVC data source").',
      cloneVolumeMode: (d: { claim: string; mode: string; source: string; sourceMode: string }) =>
        `PersistentVolumeClaim "${d.claim}" (volumeMode ${d.mode}) clones "${d.source}" (volumeMode ${d.sourceMode}): provisioning ` +
        'fails ("the source PVC and destination PVCs must have the same volume mode for cloning").',
      cloneDriver: (d: { claim: string; provisioner: string; storageClass: string; source: string; sourceDriver: string }) =>
        `PersistentVolumeClaim "${d.claim}" clones "${d.source}", a ${d.sourceDriver} volume, with StorageClass "${d.storageClass}" of ` +
        `${d.provisioner}: a clone must stay within one CSI driver, so provisioning fails ("claim in dataSource not bound or invalid").`,
      unsupported: (d: { what: string; driver: string; reason: string; outcome: string }) =>
        `${d.what} through ${d.driver}, but ${d.reason}: ${d.outcome}`,
      sourceMissing: (d: { claim: string; kind: string; name: string; namespace: string; populator: string; others: string; suggestion: string; outcome: string; likelyMistake: boolean }) =>
        `${d.claim} is populated from ${d.kind} "${d.name}"${d.populator}, but the repo has no ${d.kind} of that name in namespace ` +
        `"${d.namespace}"${d.others}${d.suggestion ? ` (did you mean "${d.suggestion}"?)` : ''}; ` +
        `${d.likelyMistake ? '' : 'unless it is created outside the repo, '}${d.outcome}, so the claim stays Pending and so does every pod that mounts it.`,
      restoreDriver: (d: { claim: string; provisioner: string; storageClass: string; snapshot: string; snapshotDriver: string }) =>
        `PersistentVolumeClaim "${d.claim}" restores VolumeSnapshot "${d.snapshot}" (driver ${d.snapshotDriver}) with StorageClass ` +
        `"${d.storageClass}" of ${d.provisioner}: the snapshot can only be restored by its own driver, so provisioning fails.`,
    },
    examples: {
      invalid: [
        `apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshotClass
metadata: {name: ebs-snapshots}
driver: ebs.csi.aws.com
`,
      ],
      valid: [
        `apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshotClass
metadata: {name: ebs-snapshots}
driver: ebs.csi.aws.com
deletionPolicy: Retain
`,
      ],
    },
  },
  check({ model, report }) {
    const classes = model.ofKind('VolumeSnapshotClass');
    const classByName = new Map<string, Resource>();
    for (const vsc of classes) if (!classByName.has(vsc.name)) classByName.set(vsc.name, vsc);

    // Classes: deletionPolicy, defaults.
    for (const vsc of classByName.values()) {
      const policy = vsc.object?.deletionPolicy;
      if (policy == null) {
        // v1 requires the field; older API versions (v1alpha1/v1beta1) are not judged.
        if (vsc.apiVersion !== 'snapshot.storage.k8s.io/v1') continue;
        report({ resource: vsc, path: ['deletionPolicy'], messageId: 'noDeletionPolicy', data: { name: vsc.name } });
      } else if (policy !== 'Retain' && policy !== 'Delete') {
        report({ resource: vsc, path: ['deletionPolicy'], messageId: 'badDeletionPolicy', data: { name: vsc.name, value: String(policy) } });
      } else if (policy === 'Delete' && (isDefaultSnapshotClass(vsc) || /backup/i.test(vsc.name))) {
        report({
          resource: vsc, path: ['deletionPolicy'], messageId: 'deleteOnDefault', severity: 'note',
          data: { name: vsc.name, why: isDefaultSnapshotClass(vsc) ? 'the default class' : 'named like a backup class' },
        });
      }
    }
    for (const vsc of classByName.values()) {
      const driver = typeof vsc.object?.driver === 'string' ? normaliseProvisioner(vsc.object.driver) : undefined;
      if (!driver || !NO_SNAPSHOT_OR_CLONE[driver]) continue;
      report({
        resource: vsc, path: ['driver'], messageId: 'unsupported',
        data: { what: `VolumeSnapshotClass "${vsc.name}" takes snapshots`, driver, reason: NO_SNAPSHOT_OR_CLONE[driver], outcome: 'every VolumeSnapshot of this class fails and never becomes ready to use.' },
      });
    }
    const defaultsByDriver = new Map<string, Resource[]>();
    for (const vsc of classByName.values()) {
      if (!isDefaultSnapshotClass(vsc) || typeof vsc.object?.driver !== 'string') continue;
      const driver = normaliseProvisioner(vsc.object.driver);
      defaultsByDriver.set(driver, [...(defaultsByDriver.get(driver) ?? []), vsc]);
    }
    for (const [driver, list] of defaultsByDriver) {
      if (list.length < 2) continue;
      for (const vsc of list.slice(1)) {
        report({
          resource: vsc, path: ['metadata', 'annotations', DEFAULT_ANNOTATION], messageId: 'multipleDefaults', severity: 'warning',
          data: { name: vsc.name, driver, others: list.filter((o) => o !== vsc).map((o) => `"${o.name}"`).join(', ') },
          related: [{ resource: list[0], path: ['metadata', 'annotations', DEFAULT_ANNOTATION], message: `VolumeSnapshotClass "${list[0].name}"` }],
        });
      }
    }

    const claimNear = (namespace: string, name: string, from: Resource): Resource | undefined => model.closestClaimDefinition(namespace, name, from);
    const driverName = (pvc: Resource) => {
      const name = model.driverOfClaim(pvc).name;
      return name === undefined ? undefined : normaliseProvisioner(name);
    };

    // VolumeSnapshots: class driver vs source claim driver.
    const snapshots = new Map<string, Resource>();
    for (const snapshot of model.ofKind('VolumeSnapshot')) {
      const namespace = model.namespaceOf(snapshot) ?? model.defaultNamespace;
      snapshots.set(`${namespace}/${snapshot.name}`, snapshot);
      const className = snapshot.object?.spec?.volumeSnapshotClassName;
      const source = snapshot.object?.spec?.source?.persistentVolumeClaimName;
      if (typeof source === 'string') {
        const sourceClaim = claimNear(namespace, source, snapshot);
        const sourceDriver = sourceClaim ? driverName(sourceClaim) : undefined;
        const vscOwn = typeof className === 'string' ? classByName.get(className) : undefined;
        const classDriverOwn = typeof vscOwn?.object?.driver === 'string' ? normaliseProvisioner(vscOwn.object.driver) : undefined;
        // A class of such a driver is reported on the class itself.
        if (sourceClaim && sourceDriver && NO_SNAPSHOT_OR_CLONE[sourceDriver] && classDriverOwn !== sourceDriver) {
          report({
            resource: snapshot, path: ['spec', 'source', 'persistentVolumeClaimName'], messageId: 'unsupported',
            data: {
              what: `VolumeSnapshot "${snapshot.name}" snapshots PersistentVolumeClaim "${sourceClaim.name}"`, driver: sourceDriver, reason: NO_SNAPSHOT_OR_CLONE[sourceDriver],
              outcome: 'the snapshot is never taken; back the data up with a file-level tool or the storage system\'s own backups (AWS Backup for EFS).',
            },
            related: [{ resource: sourceClaim, path: ['spec'], message: `PersistentVolumeClaim "${sourceClaim.name}"` }],
          });
          continue;
        }
      }
      if (typeof className !== 'string' || typeof source !== 'string') continue;
      const vsc = classByName.get(className);
      const pvc = claimNear(namespace, source, snapshot);
      if (!vsc || !pvc || typeof vsc.object?.driver !== 'string') continue;
      const classDriver = normaliseProvisioner(vsc.object.driver);
      const claimDriver = driverName(pvc);
      if (!claimDriver || claimDriver === classDriver) continue;
      report({
        resource: snapshot, path: ['spec', 'volumeSnapshotClassName'], messageId: 'snapshotDriver',
        data: { snapshot: snapshot.name, snapshotClass: vsc.name, classDriver, claim: pvc.name, claimDriver },
        related: [{ resource: vsc, path: ['driver'], message: `VolumeSnapshotClass "${vsc.name}"` }, { resource: pvc, path: ['spec'], message: `PersistentVolumeClaim "${pvc.name}"` }],
      });
    }

    // Clones and restores.
    for (const pvc of model.claimsOf()) {
      const source = dataSourceOf(pvc);
      if (!source) continue;
      const namespace = model.namespaceOf(pvc) ?? model.defaultNamespace;
      const target = classProvisioner(model, pvc);
      const targetDriver = target ? normaliseProvisioner(target.name) : undefined;
      if (targetDriver && NO_SNAPSHOT_OR_CLONE[targetDriver]) {
        report({
          resource: pvc, path: source.path, messageId: 'unsupported',
          data: {
            what: `PersistentVolumeClaim "${pvc.name}" is ${source.kind === 'VolumeSnapshot' ? `restored from VolumeSnapshot "${source.name}"` : `a clone of PersistentVolumeClaim "${source.name}"`} provisioned`,
            driver: targetDriver, reason: NO_SNAPSHOT_OR_CLONE[targetDriver],
            outcome: 'provisioning fails and the claim stays Pending; copy the data into a new volume with a Job instead.',
          },
          related: [{ resource: target!.storageClass, path: ['provisioner'], message: `StorageClass "${target!.storageClass.name}"` }],
        });
        continue;
      }
      if (source.kind === 'VolumeSnapshot') {
        const snapshot = snapshots.get(`${namespace}/${source.name}`);
        const className = snapshot?.object?.spec?.volumeSnapshotClassName;
        const vsc = typeof className === 'string' ? classByName.get(className) : undefined;
        if (!snapshot || !vsc || !target || typeof vsc.object?.driver !== 'string') continue;
        const snapshotDriver = normaliseProvisioner(vsc.object.driver);
        if (normaliseProvisioner(target.name) === snapshotDriver) continue;
        report({
          resource: pvc, path: ['spec', 'storageClassName'], messageId: 'restoreDriver',
          data: { claim: pvc.name, provisioner: target.name, storageClass: target.storageClass.name, snapshot: snapshot.name, snapshotDriver },
          related: [{ resource: vsc, path: ['driver'], message: `VolumeSnapshotClass "${vsc.name}"` }],
        });
        continue;
      }
      const origin = claimNear(namespace, source.name, pvc);
      if (!origin || origin === pvc) continue;
      const related = [{ resource: origin, path: ['spec'] as JsonPath, message: `source PersistentVolumeClaim "${origin.name}"` }];
      const size = parseQuantity(pvc.object?.spec?.resources?.requests?.storage);
      const sourceSize = parseQuantity(origin.object?.spec?.resources?.requests?.storage);
      if (size && sourceSize && compareQuantities(size, sourceSize) < 0) {
        report({
          resource: pvc, path: ['spec', 'resources', 'requests', 'storage'], messageId: 'cloneSize',
          data: { claim: pvc.name, size: size.text, source: origin.name, sourceSize: sourceSize.text }, related,
        });
      }
      const mode = volumeModeOf(pvc.object);
      const sourceMode = volumeModeOf(origin.object);
      if (mode !== sourceMode) {
        report({
          resource: pvc, path: ['spec', 'volumeMode'], messageId: 'cloneVolumeMode',
          data: { claim: pvc.name, mode, source: origin.name, sourceMode }, related,
        });
      }
      const sourceDriver = driverName(origin);
      if (target && sourceDriver && normaliseProvisioner(target.name) !== sourceDriver) {
        report({
          resource: pvc, path: ['spec', 'storageClassName'], messageId: 'cloneDriver',
          data: { claim: pvc.name, provisioner: target.name, storageClass: target.storageClass.name, source: origin.name, sourceDriver }, related,
        });
      }
    }

    // Sources that are not there: the claim waits for a snapshot, a claim or a populator object that nobody creates.
    const sourcesByScope = new Map<string, readonly Resource[]>();
    const sourcesIn = (ref: SourceReference): readonly Resource[] => {
      const scope = `${ref.kind}|${ref.group}|${ref.namespace}`;
      let found = sourcesByScope.get(scope);
      if (!found) {
        const ofKind = ref.kind === 'PersistentVolumeClaim' ? model.claimsOf() : model.ofKind(ref.kind).filter((r) => groupOf(r) === ref.group);
        found = ofKind.filter((r) => (model.namespaceOf(r) ?? model.defaultNamespace) === ref.namespace);
        sourcesByScope.set(scope, found);
      }
      return found;
    };
    for (const claim of model.claimObjects()) {
      const ref = sourceReferenceOf(claim);
      if (!ref || isPlaceholder(ref.name) || isPlaceholder(ref.namespace)) continue;
      const others = sourcesIn(ref).filter((r) => !(claim.origin === 'pvc' && r === claim.resource));
      const exists = ref.kind === 'PersistentVolumeClaim'
        ? model.lookupClaim(ref.namespace, ref.name).status === 'found'
        : others.some((r) => r.name === ref.name);
      // An object whose name is still a placeholder may well be the one referenced.
      if (exists || others.some((r) => isPlaceholder(r.name))) continue;
      const suggestion = likelyMeant(ref.name, others.map((r) => r.name));
      const near = suggestion === undefined ? undefined : others.find((r) => r.name === suggestion);
      // Populator objects are written next to their claims; snapshots and claims are also made by operators and by hand.
      const likelyMistake = others.length > 0 && (ref.populator !== undefined || near !== undefined);
      // The names most like the one written come first.
      const names = [...new Set(others.map((r) => r.name))].sort((a, b) => editDistance(ref.name, a) - editDistance(ref.name, b) || a.localeCompare(b));
      const listed = names.slice(0, 3).map((n) => `"${n}"`).join(', ') + (names.length > 3 ? ', …' : '');
      report({
        resource: claim.resource, path: claimPath(claim, 'spec', ref.field, 'name'), messageId: 'sourceMissing',
        severity: likelyMistake ? 'warning' : 'note',
        data: {
          claim: claim.label, kind: ref.kind, name: ref.name, namespace: ref.namespace,
          populator: ref.populator ? ` (a ${ref.populator} volume populator source)` : '',
          others: others.length > 0 && suggestion === undefined ? ` (it has ${listed})` : '',
          suggestion: suggestion ?? '',
          outcome: ref.populator ? 'the populator has nothing to fill the volume from' : ref.kind === 'VolumeSnapshot' ? 'provisioning fails with "snapshot not found"' : 'provisioning fails: the source claim is not found',
          likelyMistake,
        },
        fix: suggestion !== undefined
          ? `Set ${ref.field}.name to "${suggestion}" (or rename the ${ref.kind} to "${ref.name}").`
          : `Point ${ref.field}.name at the ${ref.kind} that fills this claim, in namespace "${ref.namespace}", or add that ${ref.kind} to the repo next to the claim.`,
        ...(near ? { related: [{ resource: near, path: ['metadata', 'name'] as JsonPath, message: `${ref.kind} "${near.name}"` }] } : {}),
      });
    }
  },
});
