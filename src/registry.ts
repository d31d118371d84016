// Every built-in rule, imported statically and keyed by id (the id is the file name in rules/).
import type { RuleSetting } from './engine/run-rules.js';
import type { RuleModule } from './types.js';
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

export const BUILTIN_RULES: readonly RuleModule[] = [
  pvPvcStaticMismatch,
  rwoClaimMultiNode,
  rwoUpdateOverlap,
  podMissingPvc,
  csiDuplicateVolumeHandle,
  claimSpecInvalid,
  duplicateMountPath,
  ephemeralVolumeMissingSpec,
  mountUnknownVolume,
  subpathInvalid,
  unusedClaimVolume,
  volumeDeviceInvalid,
].sort((a, b) => a.id.localeCompare(b.id));

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
