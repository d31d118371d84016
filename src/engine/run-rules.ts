// Runs every enabled rule once over a scope's model and turns reports into raw findings (the locate stage places them).
// A rule that throws becomes a diagnostic naming the rule; the other rules still run.
import type { StorageModel } from '../model/storage-model.js';
import { crashFinding, findingFromReport } from './make-finding.js';
import type { RawFinding, ReportDescriptor, Resource, Severity } from '../types.js';
import type { RuleModule } from './rule-module.js';

export interface RuleSetting {
  rule: RuleModule;
  severity: Severity;
  /** True when the user set the severity; it then overrides per-finding severities. */
  severityOverridden: boolean;
  options: unknown;
}

export interface RuleRunResult {
  findings: RawFinding[];
  crashes: RawFinding[];
}

/**
 * `rejected`: objects the API server would reject (the shape check's); a pvlint/shape error says why, so nothing else
 * is reported about them.
 */
export function runRules(model: StorageModel, settings: readonly RuleSetting[], rejected: ReadonlySet<Resource> = new Set()): RuleRunResult {
  const findings: RawFinding[] = [];
  const crashes: RawFinding[] = [];
  for (const setting of settings) {
    const { rule } = setting;
    if (rule.meta.kinds.length > 0 && !rule.meta.kinds.some((kind) => model.hasKind(kind))) continue;
    let current: Resource | undefined;
    const report = (descriptor: ReportDescriptor) => {
      current = descriptor.resource;
      // The API server would reject this object (a pvlint/shape error says why): nothing else is reported about it.
      if (rejected.has(descriptor.resource)) return;
      findings.push(findingFromReport(rule, setting, descriptor, model.scope));
    };
    try {
      rule.check({ model, options: setting.options as any, report: report as any });
    } catch (error) {
      crashes.push(crashFinding(rule.id, error, current, model.resources[0], model.scope));
    }
  }
  return { findings, crashes };
}
