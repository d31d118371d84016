// Every built-in rule, imported statically and keyed by id (the id is the file name in rules/).
import type { RuleSetting } from './engine/run-rules.js';
import type { RuleModule } from './engine/rule-module.js';
import type { ChangeRuleModule, RuleDescription } from './review/change-rule.js';
import immutableStorageFieldChange from '../rules/immutable-storage-field-change.js';
import pvcResizeRejected from '../rules/pvc-resize-rejected.js';
import statefulsetRenamed from '../rules/statefulset-renamed.js';
import storageRemovedInUse from '../rules/storage-removed-in-use.js';
import storageclassFieldChange from '../rules/storageclass-field-change.js';
import claimSpecInvalid from '../rules/claim-spec-invalid.js';
import csiDuplicateVolumeHandle from '../rules/csi-duplicate-volume-handle.js';
import duplicateMountPath from '../rules/duplicate-mount-path.js';
import ephemeralVolumeMissingSpec from '../rules/ephemeral-volume-missing-spec.js';
import mountUnknownVolume from '../rules/mount-unknown-volume.js';
import subpathInvalid from '../rules/subpath-invalid.js';
import unusedClaimVolume from '../rules/unused-claim-volume.js';
import volumeDeviceInvalid from '../rules/volume-device-invalid.js';
import podMissingPvc from '../rules/pod-missing-pvc.js';
import pvPvcStaticMismatch from '../rules/pv-pvc-static-mismatch.js';
import rwoClaimMultiNode from '../rules/rwo-claim-multi-node.js';
import rwoUpdateOverlap from '../rules/rwo-update-overlap.js';
import cronjobRwoConcurrency from '../rules/cronjob-rwo-concurrency.js';
import statefulsetSharedClaim from '../rules/statefulset-shared-claim.js';
import wffcPodNodename from '../rules/wffc-pod-nodename.js';
import volumeModeMountMismatch from '../rules/volume-mode-mount-mismatch.js';
import emptydirMemoryUnbounded from '../rules/emptydir-memory-unbounded.js';
import hostpathInReplicatedWorkload from '../rules/hostpath-in-replicated-workload.js';
import databaseEphemeralData from '../rules/database-ephemeral-data.js';
import postgresPgdataLayout from '../rules/postgres-pgdata-layout.js';
import databaseOnNetworkFs from '../rules/database-on-network-fs.js';
import subpathPitfalls from '../rules/subpath-pitfalls.js';
import fsgroupRecursiveChown from '../rules/fsgroup-recursive-chown.js';
import readonlyModeMismatch from '../rules/readonly-mode-mismatch.js';
import statefulShortGracePeriod from '../rules/stateful-short-grace-period.js';
import snapshotCloneMisconfig from '../rules/snapshot-clone-misconfig.js';
import nodeVolumeAttachLimit from '../rules/node-volume-attach-limit.js';
import csiInlineEphemeralUnsupported from '../rules/csi-inline-ephemeral-unsupported.js';
import csidriverObjectConsistency from '../rules/csidriver-object-consistency.js';
import jobRwoLongDeadline from '../rules/job-rwo-long-deadline.js';
import pvcVolumenameUnsatisfiable from '../rules/pvc-volumename-unsatisfiable.js';
import pvClaimrefInvalid from '../rules/pv-claimref-invalid.js';
import pvClaimrefStaleUid from '../rules/pv-claimref-stale-uid.js';
import pvcSelectorDynamicProvisioning from '../rules/pvc-selector-dynamic-provisioning.js';
import pvNodeAffinityConflict from '../rules/pv-node-affinity-conflict.js';
import localPvMissingNodeAffinity from '../rules/local-pv-missing-node-affinity.js';
import pvcClassAnnotationConflict from '../rules/pvc-class-annotation-conflict.js';
import storageclassMultipleDefaults from '../rules/storageclass-multiple-defaults.js';
import pvcClasslessWithoutDefault from '../rules/pvc-classless-without-default.js';
import storageclassImmediateTopology from '../rules/storageclass-immediate-topology.js';
import storageclassLegacyProvisioner from '../rules/storageclass-legacy-provisioner.js';
import pvcUnknownStorageclass from '../rules/pvc-unknown-storageclass.js';
import pvcAccessModeUnsupported from '../rules/pvc-access-mode-unsupported.js';
import pvcVolumeModeUnsupported from '../rules/pvc-volume-mode-unsupported.js';
import storageclassParameterInvalid from '../rules/storageclass-parameter-invalid.js';
import reclaimDeleteStatefulData from '../rules/reclaim-delete-stateful-data.js';
import pvRecycleDeprecated from '../rules/pv-recycle-deprecated.js';
import stsRetentionDelete from '../rules/sts-retention-delete.js';
import pvcAsHook from '../rules/pvc-as-hook.js';
import gitopsPvcPruneUnprotected from '../rules/gitops-pvc-prune-unprotected.js';
import syncwavePvcAfterConsumer from '../rules/syncwave-pvc-after-consumer.js';
import argocdVctTrackingMetadata from '../rules/argocd-vct-tracking-metadata.js';
import meshInContainerNfsUnexcluded from '../rules/mesh-in-container-nfs-unexcluded.js';
import meshInitContainerNetwork from '../rules/mesh-init-container-network.js';
import meshNfsServerInMesh from '../rules/mesh-nfs-server-in-mesh.js';
import efsVolumeHandleInvalid from '../rules/efs-volume-handle-invalid.js';
import efsStorageclassInvalid from '../rules/efs-storageclass-invalid.js';
import pvcDefaultClassSkipsStaticPv from '../rules/pvc-default-class-skips-static-pv.js';
import databaseReplicasShareRwoClaim from '../rules/database-replicas-share-rwo-claim.js';
import provisionerNameTypo from '../rules/provisioner-name-typo.js';
import storageFeatureVersion from '../rules/storage-feature-version.js';
import storageclassTopologyConflict from '../rules/storageclass-topology-conflict.js';
import linuxOnlyDriverOnWindows from '../rules/linux-only-driver-on-windows.js';
import jobDeletesMountedClaim from '../rules/job-deletes-mounted-claim.js';
import efsDnsPinnedHostAlias from '../rules/efs-dns-pinned-host-alias.js';
import hostpathNodeCritical from '../rules/hostpath-node-critical.js';

export const BUILTIN_RULES: readonly RuleModule[] = [
  pvPvcStaticMismatch,
  rwoClaimMultiNode,
  rwoUpdateOverlap,
  cronjobRwoConcurrency,
  statefulsetSharedClaim,
  wffcPodNodename,
  volumeModeMountMismatch,
  emptydirMemoryUnbounded,
  hostpathInReplicatedWorkload,
  databaseEphemeralData,
  postgresPgdataLayout,
  databaseOnNetworkFs,
  subpathPitfalls,
  fsgroupRecursiveChown,
  readonlyModeMismatch,
  statefulShortGracePeriod,
  snapshotCloneMisconfig,
  nodeVolumeAttachLimit,
  csiInlineEphemeralUnsupported,
  csidriverObjectConsistency,
  jobRwoLongDeadline,
  podMissingPvc,
  csiDuplicateVolumeHandle,
  claimSpecInvalid,
  duplicateMountPath,
  ephemeralVolumeMissingSpec,
  mountUnknownVolume,
  subpathInvalid,
  unusedClaimVolume,
  volumeDeviceInvalid,
  pvcVolumenameUnsatisfiable,
  pvClaimrefInvalid,
  pvClaimrefStaleUid,
  pvcSelectorDynamicProvisioning,
  pvNodeAffinityConflict,
  localPvMissingNodeAffinity,
  pvcClassAnnotationConflict,
  storageclassMultipleDefaults,
  pvcClasslessWithoutDefault,
  storageclassImmediateTopology,
  storageclassLegacyProvisioner,
  pvcUnknownStorageclass,
  pvcAccessModeUnsupported,
  pvcVolumeModeUnsupported,
  storageclassParameterInvalid,
  reclaimDeleteStatefulData,
  pvRecycleDeprecated,
  stsRetentionDelete,
  pvcAsHook,
  gitopsPvcPruneUnprotected,
  syncwavePvcAfterConsumer,
  argocdVctTrackingMetadata,
  meshInContainerNfsUnexcluded,
  meshInitContainerNetwork,
  meshNfsServerInMesh,
  efsVolumeHandleInvalid,
  efsStorageclassInvalid,
  pvcDefaultClassSkipsStaticPv,
  databaseReplicasShareRwoClaim,
  provisionerNameTypo,
  storageFeatureVersion,
  storageclassTopologyConflict,
  linuxOnlyDriverOnWindows,
  jobDeletesMountedClaim,
  efsDnsPinnedHostAlias,
  hostpathNodeCritical,
].sort((a, b) => a.id.localeCompare(b.id));

/** Change rules: they compare each environment with itself at a base ref (`--base`), so they run only then. */
export const CHANGE_RULES: readonly ChangeRuleModule[] = [
  immutableStorageFieldChange,
  pvcResizeRejected,
  statefulsetRenamed,
  storageRemovedInUse,
  storageclassFieldChange,
].sort((a, b) => a.id.localeCompare(b.id));

/** Every rule, per-environment and change rules: what `pvlint rules`, `pvlint explain`, SARIF and the docs describe. */
export const ALL_RULES: readonly RuleDescription[] = [...BUILTIN_RULES, ...CHANGE_RULES].sort((a, b) => a.id.localeCompare(b.id));

/** A rule's description by id, whatever its type. */
export function describeRule(id: string): RuleDescription | undefined {
  return ALL_RULES.find((rule) => rule.id === id);
}

export function findRule(id: string): RuleModule | undefined {
  return BUILTIN_RULES.find((rule) => rule.id === id);
}

/** Every built-in rule at its default severity and options. */
export function defaultRuleSettings(): RuleSetting[] {
  return BUILTIN_RULES.map((rule) => ({
    rule,
    severity: rule.meta.severity,
    severityOverridden: false,
    options: rule.meta.options?.defaults ?? {},
  }));
}
