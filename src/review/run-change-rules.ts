// Runs every change rule once over an environment's (base, head) models and turns reports into raw findings, like
// the engine does for per-environment rules (the run's locate stage places them): a rule that throws becomes a
// pvlint/rule-crash diagnostic.
import { crashFinding, findingFromReport } from '../engine/make-finding.js';
import type { StorageModel } from '../model/storage-model.js';
import type { RawFinding, Resource, Severity } from '../types.js';
import type { ChangeReportDescriptor, ChangeRuleModule } from './change-rule.js';
import { pairEnvironment } from './pair.js';

export interface ChangeRuleSetting {
  rule: ChangeRuleModule;
  severity: Severity;
  severityOverridden: boolean;
}

export interface ChangeRunOptions {
  /** The ref as the user gave it, for messages. */
  baseRef: string;
  /** Whether a repo-relative path exists in the working tree (a base object's file may have been deleted). */
  existsInHead: (repoPath: string) => boolean;
}

export function defaultChangeRuleSettings(rules: readonly ChangeRuleModule[]): ChangeRuleSetting[] {
  return rules.map((rule) => ({ rule, severity: rule.meta.severity, severityOverridden: false }));
}

export function runChangeRules(
  base: StorageModel,
  head: StorageModel,
  settings: readonly ChangeRuleSetting[],
  options: ChangeRunOptions,
): { findings: RawFinding[]; crashes: RawFinding[] } {
  const findings: RawFinding[] = [];
  const crashes: RawFinding[] = [];
  const changes = pairEnvironment(base, head);
  const baseResources = new Set(base.resources);
  for (const setting of settings) {
    const { rule } = setting;
    const kinds = rule.meta.kinds;
    if (kinds.length > 0 && !kinds.some((kind) => base.hasKind(kind) || head.hasKind(kind))) continue;
    let current: Resource | undefined;
    const report = (descriptor: ChangeReportDescriptor) => {
      current = descriptor.resource;
      // A base object is named as such, and so is its file when the working tree no longer has it.
      findings.push(findingFromReport(rule, setting, descriptor, head.scope, (other) => {
        if (!baseResources.has(other.resource)) return undefined;
        return (location) => `${other.message} (${options.baseRef}${options.existsInHead(location.file) ? '' : `; ${location.file} is not in the working tree`})`;
      }));
    };
    try {
      rule.check({ base, head, changes, baseRef: options.baseRef, report: report as any });
    } catch (error) {
      crashes.push(crashFinding(rule.id, error, current, head.resources[0], head.scope));
    }
  }
  return { findings, crashes };
}
