// The public API: lint() for scripts, defineRule for custom rules, and the types they use.
export { lint, type LintOptions, type LintResult, type ScopeSummary } from './lint.js';
export { defineRule } from './define-rule.js';
export { readLintConfig, type LintConfig } from './config/lint-config.js';
export { ConfigError } from './config/problems.js';
export { DEFAULT_LIMITS, type Limits } from './load/limits.js';
export { BUILTIN_RULES, CHANGE_RULES } from './registry.js';
export { lintWithBase, ReviewError, type ReviewOptions } from './review/review.js';
export type { ReviewSummary } from './lint.js';
export {
  defineChangeRule,
  type ChangeRuleModule,
  type ChangeRuleContext,
  type ChangeExample,
  type EnvironmentChanges,
  type ResourcePair,
  type RuleDescription,
} from './review/change-rule.js';
export { StorageModel, type Lookup, type ClaimUse, type ClaimTarget, type MountedClaim } from './model/storage-model.js';
export type { PodTemplate, PodVolume, ContainerUse, Replicas } from './model/pod-templates.js';
export type { PodCount, Autoscaler } from './model/pod-count.js';
export type { ClaimObject } from './model/claim-objects.js';
export type { ResolvedClaim, TemplateClaim } from './model/volume-claims.js';
export type { ClaimStorage, ClaimDriver, BoundVolume, Enforcement } from './model/claims.js';
export type { DriverInfo, DriverCapabilities } from './model/provisioners.js';
export type {
  ResourceOf, ClaimResource, VolumeResource, StorageClassResource, CsiDriverResource, AutoscalerResource, ClaimShape,
} from './model/views.js';
export { parseQuantity, compareQuantities, type Quantity } from './model/quantity.js';
export { matchSelector, type LabelSelector } from './model/selector.js';
export type * from './types.js';
export type { RuleContext, RuleModule } from './engine/rule-module.js';
