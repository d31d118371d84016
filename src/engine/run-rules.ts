// Runs every enabled rule once over a scope's model and turns reports into located findings.
// A rule that throws becomes a diagnostic naming the rule; the other rules still run.
import { locate } from '../locate/locate.js';
import { withDriverOverrides } from '../model/provisioners.js';
import type { StorageModel } from '../model/storage-model.js';
import { isShapeRejected } from './shape-check.js';
import type { Finding, ReportDescriptor, Resource, RuleModule, Severity } from '../types.js';

export interface RuleSetting {
  rule: RuleModule;
  severity: Severity;
  /** True when the user set the severity; it then overrides per-finding severities. */
  severityOverridden: boolean;
  options: unknown;
}

export interface RuleRunResult {
  findings: Finding[];
  crashes: Finding[];
}

function resourceRef(resource: Resource) {
  return { apiVersion: resource.apiVersion, kind: resource.kind, namespace: resource.namespace, name: resource.name };
}

export function runRules(model: StorageModel, settings: readonly RuleSetting[]): RuleRunResult {
  // Configuration's driver capabilities apply to every driverCapabilities() call the rules make.
  return withDriverOverrides(model.driverOverrides, () => runAll(model, settings));
}

function runAll(model: StorageModel, settings: readonly RuleSetting[]): RuleRunResult {
  const findings: Finding[] = [];
  const crashes: Finding[] = [];
  for (const setting of settings) {
    const { rule } = setting;
    if (rule.meta.kinds.length > 0 && !rule.meta.kinds.some((kind) => model.hasKind(kind))) continue;
    let current: Resource | undefined;
    const report = (descriptor: ReportDescriptor) => {
      current = descriptor.resource;
      // The API server would reject this object (a pvlint/shape error says why): nothing else is reported about it.
      if (isShapeRejected(descriptor.resource)) return;
      const render = rule.meta.messages[descriptor.messageId as string];
      if (!render) throw new Error(`unknown messageId ${String(descriptor.messageId)}`);
      const located = locate(descriptor.resource, descriptor.path);
      const related = [...(located.related ?? [])];
      for (const other of descriptor.related ?? []) {
        related.push({ message: other.message, location: locate(other.resource, other.path).location });
      }
      findings.push({
        ruleId: rule.id,
        severity: setting.severityOverridden ? setting.severity : descriptor.severity ?? setting.severity,
        messageId: String(descriptor.messageId),
        message: render(descriptor.data),
        data: (descriptor.data ?? {}) as Record<string, unknown>,
        fix: rule.meta.fix,
        location: located.location,
        related,
        resource: resourceRef(descriptor.resource),
        path: descriptor.path,
        environments: [model.scope],
        ...(located.note ? { note: located.note } : {}),
      });
    };
    try {
      rule.check({ model, options: setting.options as any, report: report as any });
    } catch (error) {
      const where = current ? ` on ${current.kind} ${current.name}` : '';
      const anchor = current ?? model.resources[0];
      const location = anchor ? locate(anchor, []).location : { file: '<unknown>', region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
      crashes.push({
        ruleId: 'pvlint/rule-crash',
        severity: 'error',
        messageId: 'crash',
        message: `rule ${rule.id} crashed${where}: ${(error as Error)?.message ?? String(error)}`,
        data: { rule: rule.id },
        fix: 'This is a bug in the rule; please report it with the manifest that triggers it.',
        location,
        related: [],
        environments: [model.scope],
      });
    }
  }
  return { findings, crashes };
}
