// Turns a rule's report (a resource and a JSON path) into a raw finding, and a rule's exception into a
// pvlint/rule-crash diagnostic: one construction for per-environment rules and change rules alike. Where either is
// written in the repository is the locate stage's business.
import type { JsonPath, MessageMap, RawFinding, RawRelated, Resource, Severity, SourceLocation } from '../types.js';

interface ReportingRule {
  id: string;
  meta: { messages: MessageMap; fix: string };
}

interface ReportedFinding {
  resource: Resource;
  path: JsonPath;
  messageId: PropertyKey;
  data: unknown;
  severity?: Severity;
  fix?: string;
  related?: readonly { resource: Resource; path: JsonPath; message: string }[];
}

export interface SeveritySetting {
  severity: Severity;
  /** True when the user set the severity; it then overrides per-finding severities. */
  severityOverridden: boolean;
}

/** How a related object's message reads once its place is known (change rules name the base tree). */
export type RelatedMessage = (other: { resource: Resource; message: string }) => ((location: SourceLocation) => string) | undefined;

export function findingFromReport(rule: ReportingRule, setting: SeveritySetting, descriptor: ReportedFinding, scope: string, relatedMessage?: RelatedMessage): RawFinding {
  const render = rule.meta.messages[descriptor.messageId as string];
  if (!render) throw new Error(`unknown messageId ${String(descriptor.messageId)}`);
  const related = (descriptor.related ?? []).map((other): RawRelated => {
    const describe = relatedMessage?.(other);
    return { resource: other.resource, path: other.path, message: other.message, ...(describe ? { describe } : {}) };
  });
  return {
    ruleId: rule.id,
    severity: setting.severityOverridden ? setting.severity : descriptor.severity ?? setting.severity,
    messageId: String(descriptor.messageId),
    message: render(descriptor.data),
    data: (descriptor.data ?? {}) as Record<string, unknown>,
    fix: descriptor.fix ?? rule.meta.fix,
    resource: descriptor.resource,
    path: descriptor.path,
    related,
    environments: [scope],
  };
}

/** The diagnostic for a rule that threw, at the resource it was reporting on (else the scope's first resource). */
export function crashFinding(ruleId: string, error: unknown, current: Resource | undefined, fallback: Resource | undefined, scope: string): RawFinding {
  const where = current ? ` on ${current.kind} ${current.name}` : '';
  const anchor = current ?? fallback;
  return {
    ruleId: 'pvlint/rule-crash',
    severity: 'error',
    messageId: 'crash',
    message: `rule ${ruleId} crashed${where}: ${(error as Error)?.message ?? String(error)}`,
    data: { rule: ruleId },
    fix: 'This is a bug in the rule; please report it with the manifest that triggers it.',
    related: [],
    environments: [scope],
    ...(anchor ? { anchor: { resource: anchor, path: [] } } : {}),
  };
}
