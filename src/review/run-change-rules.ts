// Runs every change rule once over an environment's (base, head) models and turns reports into located findings,
// like the engine does for per-environment rules: a rule that throws becomes a pvlint/rule-crash diagnostic.
import { locate } from '../locate/locate.js';
import type { StorageModel } from '../model/storage-model.js';
import type { Finding, Resource, Severity } from '../types.js';
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

function resourceRef(resource: Resource) {
  return { apiVersion: resource.apiVersion, kind: resource.kind, namespace: resource.namespace, name: resource.name };
}

export function runChangeRules(
  base: StorageModel,
  head: StorageModel,
  settings: readonly ChangeRuleSetting[],
  options: ChangeRunOptions,
): { findings: Finding[]; crashes: Finding[] } {
  const findings: Finding[] = [];
  const crashes: Finding[] = [];
  const changes = pairEnvironment(base, head);
  const baseResources = new Set(base.resources);
  for (const setting of settings) {
    const { rule } = setting;
    const kinds = rule.meta.kinds;
    if (kinds.length > 0 && !kinds.some((kind) => base.hasKind(kind) || head.hasKind(kind))) continue;
    let current: Resource | undefined;
    const report = (descriptor: ChangeReportDescriptor) => {
      current = descriptor.resource;
      const render = rule.meta.messages[descriptor.messageId as string];
      if (!render) throw new Error(`unknown messageId ${String(descriptor.messageId)}`);
      const located = locate(descriptor.resource, descriptor.path);
      const related = [...(located.related ?? [])];
      for (const other of descriptor.related ?? []) {
        const location = locate(other.resource, other.path).location;
        let message = other.message;
        if (baseResources.has(other.resource)) {
          message += ` (${options.baseRef}${options.existsInHead(location.file) ? '' : `; ${location.file} is not in the working tree`})`;
        }
        related.push({ message, location });
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
        environments: [head.scope],
        ...(located.note ? { note: located.note } : {}),
      });
    };
    try {
      rule.check({ base, head, changes, baseRef: options.baseRef, report: report as any });
    } catch (error) {
      const where = current ? ` on ${current.kind} ${current.name}` : '';
      const anchor = current ?? head.resources[0];
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
        environments: [head.scope],
      });
    }
  }
  return { findings, crashes };
}
