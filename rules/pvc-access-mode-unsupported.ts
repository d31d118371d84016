// R14: a claim (or a PersistentVolume) asks for an access mode its driver cannot provide.
import { defineRule } from '../src/define-rule.js';
import { claimPath, claimTemplateNames, type ClaimObject } from '../src/model/claim-objects.js';
import { accessModesOf, volumeModeOf, type ClaimDriver } from '../src/model/claims.js';
import { volumeSourceKey } from '../src/model/legacy-volumes.js';
import { accessModeSupport, classParameters, staticHandleException, type SupportVerdict } from '../src/model/mode-support.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';

const RWOP = 'ReadWriteOncePod';

const CONSEQUENCE: Record<Exclude<SupportVerdict['level'], 'ok'>, string> = {
  error: 'the driver rejects it, so provisioning fails (ProvisioningFailed) or pods cannot mount the volume',
  warning: 'whether it works depends on something the repo does not show',
  note: 'it works, with that caveat',
};

/** The claim has a PersistentVolume in the repo (by volumeName or a claimRef): that PV's modes are checked instead. */
function hasVolumeInRepo(model: StorageModel, claim: ClaimObject): boolean {
  if (claim.origin === 'pvc') return model.boundVolumeOf(claim.resource) !== undefined;
  if (claim.origin === 'claim-template') return claimTemplateNames(claim).some((name) => model.volumesClaiming(claim.namespace, name).length > 0);
  return false;
}

function driverText(driver: ClaimDriver): string {
  const info = driver.info!;
  const migrated = info.driver !== info.requested ? `, migrated to ${info.driver}` : '';
  switch (driver.source.via) {
    case 'class':
      return `StorageClass "${driver.source.storageClass.name}"${driver.source.defaulted ? ' (the default class)' : ''} (provisioner ${driver.name}${migrated})`;
    case 'pv-csi':
      return `CSI driver ${driver.name}`;
    case 'pv-in-tree':
      return `the in-tree ${driver.source.source} volume source${migrated}`;
    default:
      return String(driver.name);
  }
}

export default defineRule({
  id: 'pvc-access-mode-unsupported',
  meta: {
    catalogueId: 'R14',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim or PersistentVolume asks for an access mode its storage driver cannot provide (ReadWriteMany on EBS, GCE PD, Azure Disk, Hetzner, …).',
    why:
      'Access modes are passed to the driver as CSI volume capabilities, and drivers refuse the ones they cannot serve: ' +
      'block-storage drivers accept ReadWriteMany only for raw block devices (volumeMode: Block) and some not at all ' +
      '(in-tree GCE PD: "invalid AccessModes [ReadWriteMany]: only AccessModes [ReadWriteOnce ReadOnlyMany] are ' +
      'supported"), EFS refuses ReadOnlyMany at mount ("invalid access mode"). The claim stays Pending with ' +
      'ProvisioningFailed, or the pod never mounts the volume. ReadWriteOncePod is only supported for CSI volumes.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral claim template whose effective ' +
      'StorageClass (its own, or the repo\'s default class) is in the repo with a provisioner in pvlint\'s provisioner ' +
      'table, and a requested access mode the table marks unsupported (error), supported only with volumeMode: Block ' +
      'while the claim is Filesystem (error), supported only with a StorageClass parameter the class lacks (error: EBS ' +
      'multi-attach needs `type: io2`, Azure Disk sharing needs `maxShares` ≥ 2, Portworx `sharedv4`/`shared`), or ' +
      'supported depending on something the repo does not show (warning: Cinder multiattach volume types, local-path ' +
      '`sharedFileSystemPath`, vSphere file volumes). A PersistentVolume in the repo is checked the same way against ' +
      'its `spec.csi.driver` or in-tree source. ReadWriteOncePod on a non-CSI volume (nfs, hostPath, local, iscsi, an ' +
      'in-tree source, a no-provisioner class) is a warning. ReadWriteMany on a shared raw block device is a note: the ' +
      'application must fence writes itself.',
    exceptions:
      'Unknown provisioners and modes the table says nothing about are skipped. A claim whose PersistentVolume is in the ' +
      'repo is checked through that PV, not its class; claims with `volumeName` or a selector (static binding) and ' +
      'classes that are not in the repo are not checked. ReadWriteOncePod combined with other modes and unknown mode ' +
      'names are claim-spec-invalid\'s.',
    fix:
      'Use a class whose driver provides the mode — a file-based class (EFS, Filestore, Azure Files, CephFS, NFS) for ' +
      'ReadWriteMany — or request ReadWriteOnce with a single writer; for raw block sharing set volumeMode: Block and ' +
      'the class parameter the driver needs.',
    reportsAt: 'The offending entry of `spec.accessModes`; related: the StorageClass\'s provisioner.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'Kubernetes 1.29: ReadWriteOncePod goes GA (CSI volumes only)', url: 'https://kubernetes.io/blog/2023/12/18/read-write-once-pod-access-mode-ga/' },
      { title: 'aws-ebs-csi-driver docs/multi-attach.md (io2, Block only)', url: 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/blob/master/docs/multi-attach.md' },
      { title: 'aws-ebs-csi-driver pkg/driver/controller.go (isValidCapability)', url: 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/blob/master/pkg/driver/controller.go' },
      { title: 'aws-efs-csi-driver pkg/driver/node.go (volumeCapAccessModes)', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/pkg/driver/node.go' },
      { title: 'gcp-compute-persistent-disk-csi-driver pkg/gce-pd-csi-driver/utils.go', url: 'https://github.com/kubernetes-sigs/gcp-compute-persistent-disk-csi-driver/blob/master/pkg/gce-pd-csi-driver/utils.go' },
      { title: 'azuredisk-csi-driver pkg/azureutils/azure_disk_utils.go (maxShares)', url: 'https://github.com/kubernetes-sigs/azuredisk-csi-driver/blob/master/pkg/azureutils/azure_disk_utils.go' },
      { title: 'rancher/local-path-provisioner README (NodePath access modes)', url: 'https://github.com/rancher/local-path-provisioner/blob/master/README.md' },
      { title: 'fabric8io/fabric8 issue #7066 (in-tree GCE PD ReadWriteMany error)', url: 'https://github.com/fabric8io/fabric8/issues/7066' },
    ],
    messages: {
      claim: (d: { claim: string; mode: string; block: boolean; driver: string; reason: string; consequence: string }) =>
        `${d.claim} requests ${d.mode}${d.block ? ' with volumeMode: Block' : ''} from ${d.driver}: ${d.reason}; ${d.consequence}.`,
      volume: (d: { pv: string; mode: string; block: boolean; driver: string; reason: string; consequence: string }) =>
        `PersistentVolume "${d.pv}" offers ${d.mode}${d.block ? ' with volumeMode: Block' : ''} through ${d.driver}: ${d.reason}; ${d.consequence}.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: web}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
parameters: {provisioningMode: efs-ap, fileSystemId: fs-0123456789abcdef0, directoryPerms: "700"}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: web}
spec:
  storageClassName: efs
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const severity = (verdict: SupportVerdict): Severity => (verdict.level === 'ok' ? 'note' : verdict.level);

    for (const claim of model.claimObjects()) {
      const spec = claim.object?.spec;
      if (!spec || typeof spec !== 'object') continue;
      if (typeof spec.volumeName === 'string' && spec.volumeName !== '') continue;
      if (spec.selector != null) continue;
      if (hasVolumeInRepo(model, claim)) continue;
      const modes = accessModesOf(claim.object);
      if (!modes || modes.length === 0) continue;
      const driver = model.driverOfClaimClass(claim.object, claim.resource);
      if (!driver.info || driver.source.via !== 'class') continue;
      const parameters = classParameters(driver.source.storageClass);
      const volumeMode = volumeModeOf(claim.object);
      const seen = new Set<string>();
      modes.forEach((mode, index) => {
        if (seen.has(mode)) return;
        seen.add(mode);
        const verdict = accessModeSupport(driver.info!, mode, volumeMode, parameters);
        if (verdict.level === 'ok') return;
        const storageClass = (driver.source as { storageClass: Resource }).storageClass;
        report({
          resource: claim.resource,
          path: claimPath(claim, 'spec', 'accessModes', index),
          messageId: 'claim',
          severity: severity(verdict),
          data: {
            claim: claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : ''),
            mode, block: volumeMode === 'Block', driver: driverText(driver), reason: verdict.reason, consequence: CONSEQUENCE[verdict.level],
          },
          related: [{ resource: storageClass, path: ['provisioner'] as JsonPath, message: `StorageClass "${storageClass.name}"` }],
        });
      });
    }

    for (const pv of model.ofKind('PersistentVolume')) {
      const modes = accessModesOf(pv.object);
      if (!modes || modes.length === 0) continue;
      const volumeMode = volumeModeOf(pv.object);
      const driver = model.driverOfVolume(pv);
      if (driver?.info && staticHandleException(driver.info, pv)) continue;
      const seen = new Set<string>();
      modes.forEach((mode, index) => {
        if (seen.has(mode)) return;
        seen.add(mode);
        let verdict: SupportVerdict;
        let text: string;
        if (driver?.info) {
          verdict = accessModeSupport(driver.info, mode, volumeMode, undefined);
          text = driverText(driver);
        } else {
          // A source pvlint has no row for: only the CSI-only rule of ReadWriteOncePod applies.
          const source = volumeSourceKey(pv.object?.spec);
          if (mode !== RWOP || source === undefined || source === 'csi') return;
          verdict = { level: 'warning', reason: `${source} volumes are not CSI volumes, and ReadWriteOncePod is only supported for CSI volumes` };
          text = `the in-tree ${source} volume source`;
        }
        if (verdict.level === 'ok') return;
        report({
          resource: pv,
          path: ['spec', 'accessModes', index],
          messageId: 'volume',
          severity: severity(verdict),
          data: { pv: pv.name, mode, block: volumeMode === 'Block', driver: text, reason: verdict.reason, consequence: CONSEQUENCE[verdict.level] },
        });
      });
    }
  },
});
