// R15: a claim (or PersistentVolume) asks for a raw block volume from a driver that only provides file systems.
import { defineRule } from '../src/define-rule.js';
import { claimPath, claimTemplateNames, type ClaimObject } from '../src/model/claim-objects.js';
import { volumeModeOf } from '../src/model/claims.js';
import { blockModeSupport, staticHandleException } from '../src/model/mode-support.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

function hasVolumeInRepo(model: StorageModel, claim: ClaimObject): boolean {
  if (claim.origin === 'pvc') return model.boundVolumeOf(claim.resource) !== undefined;
  if (claim.origin === 'claim-template') return claimTemplateNames(claim).some((name) => model.volumesClaiming(claim.namespace, name).length > 0);
  return false;
}

export default defineRule({
  id: 'pvc-volume-mode-unsupported',
  meta: {
    catalogueId: 'R15',
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim or PersistentVolume asks for volumeMode: Block from a driver that only provides file systems (EFS, NFS, CephFS, …).',
    why:
      'File-based drivers cannot hand out a raw block device: EFS refuses it at mount ("only filesystem volumes are ' +
      'supported"), the NFS CSI driver at provisioning ("block volume capability not supported"), CephFS, Filestore, ' +
      'Azure Files, FSx and local-path likewise. The claim stays Pending or its pods stay ContainerCreating.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral claim template with ' +
      '`volumeMode: Block` whose effective StorageClass (its own, or the repo\'s default class) is in the repo with a ' +
      'provisioner pvlint\'s table marks Block = no (error) or only conditional (warning: OpenEBS local supports it for ' +
      'devices, not hostpath); and a PersistentVolume in the repo with `volumeMode: Block` whose `spec.csi.driver` or ' +
      'in-tree source (nfs, hostPath) cannot be a block device.',
    exceptions:
      'Unknown provisioners are skipped. A claim whose PersistentVolume is in the repo is checked through that PV, not ' +
      'its class; claims with `volumeName` or a selector and classes that are not in the repo are not checked.',
    fix: 'Use `volumeMode: Filesystem` (omit the field), or a block-capable class (EBS, GCE PD, Azure Disk, Ceph RBD, Longhorn, …).',
    reportsAt: 'The claim\'s (or PV\'s) `spec.volumeMode`; related: the StorageClass\'s provisioner.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Raw Block Volume Support"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#raw-block-volume-support' },
      { title: 'aws-efs-csi-driver pkg/driver/node.go ("only filesystem volumes are supported")', url: 'https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/pkg/driver/node.go' },
      { title: 'csi-driver-nfs pkg/nfs/controllerserver.go ("block volume capability not supported")', url: 'https://github.com/kubernetes-csi/csi-driver-nfs/blob/master/pkg/nfs/controllerserver.go' },
    ],
    messages: {
      claim: (d: { claim: string; driver: string; reason: string; error: boolean }) =>
        `${d.claim} asks for volumeMode: Block from ${d.driver}: ${d.reason}; ` +
        (d.error ? 'the driver refuses it, so the claim is never provisioned or its pods cannot use the volume.' : 'whether it works depends on how the class is configured.'),
      volume: (d: { pv: string; driver: string; reason: string; error: boolean }) =>
        `PersistentVolume "${d.pv}" has volumeMode: Block on ${d.driver}: ${d.reason}; ` +
        (d.error ? 'pods using it cannot map it as a block device.' : 'whether it works depends on how the volume was set up.'),
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
parameters: {provisioningMode: efs-ap, fileSystemId: fs-0123456789abcdef0, directoryPerms: "700"}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: raw, namespace: db}
spec:
  storageClassName: efs
  volumeMode: Block
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: raw, namespace: db}
spec:
  storageClassName: gp3
  volumeMode: Block
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const claim of model.claimObjects()) {
      const spec = claim.object?.spec;
      if (!spec || typeof spec !== 'object' || volumeModeOf(claim.object) !== 'Block') continue;
      if (typeof spec.volumeName === 'string' && spec.volumeName !== '') continue;
      if (spec.selector != null) continue;
      if (hasVolumeInRepo(model, claim)) continue;
      const driver = model.driverOfClaimClass(claim.object, claim.resource);
      if (!driver.info || driver.source.via !== 'class') continue;
      const verdict = blockModeSupport(driver.info);
      if (verdict.level === 'ok') continue;
      const storageClass: Resource = driver.source.storageClass;
      const migrated = driver.info.driver !== driver.info.requested ? `, migrated to ${driver.info.driver}` : '';
      report({
        resource: claim.resource,
        path: claimPath(claim, 'spec', 'volumeMode'),
        messageId: 'claim',
        severity: verdict.level === 'error' ? 'error' : 'warning',
        data: {
          claim: claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : ''),
          driver: `StorageClass "${storageClass.name}"${driver.source.defaulted ? ' (the default class)' : ''} (provisioner ${driver.name}${migrated})`,
          reason: verdict.reason, error: verdict.level === 'error',
        },
        related: [{ resource: storageClass, path: ['provisioner'] as JsonPath, message: `StorageClass "${storageClass.name}"` }],
      });
    }
    for (const pv of model.ofKind('PersistentVolume')) {
      if (volumeModeOf(pv.object) !== 'Block') continue;
      const driver = model.driverOfVolume(pv);
      if (!driver?.info || staticHandleException(driver.info, pv)) continue;
      const verdict = blockModeSupport(driver.info);
      if (verdict.level === 'ok') continue;
      report({
        resource: pv,
        path: ['spec', 'volumeMode'],
        messageId: 'volume',
        severity: verdict.level === 'error' ? 'error' : 'warning',
        data: {
          pv: pv.name,
          driver: driver.source.via === 'pv-in-tree' ? `the in-tree ${driver.source.source} volume source` : `CSI driver ${driver.name}`,
          reason: verdict.reason, error: verdict.level === 'error',
        },
      });
    }
  },
});
