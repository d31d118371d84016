// Turns a rule's report (a resource and a JSON path) into a located finding, and a rule's exception into a
// pvlint/rule-crash diagnostic: one construction for per-environment rules and change rules alike.
import { locate } from '../locate/locate.js';
import type { Finding, JsonPath, MessageMap, RelatedLocation, Resource, Severity, SourceLocation } from '../types.js';

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

function resourceRef(resource: Resource) {
  return { apiVersion: resource.apiVersion, kind: resource.kind, namespace: resource.namespace, name: resource.name };
}

export function findingFromReport(
  rule: ReportingRule,
  setting: SeveritySetting,
  descriptor: ReportedFinding,
  scope: string,
  relatedMessage: (other: { resource: Resource; message: string }, location: SourceLocation) => string = (other) => other.message,
): Finding {
  const render = rule.meta.messages[descriptor.messageId as string];
  if (!render) throw new Error(`unknown messageId ${String(descriptor.messageId)}`);
  const located = locate(descriptor.resource, descriptor.path);
  const related: RelatedLocation[] = [...(located.related ?? [])];
  for (const other of descriptor.related ?? []) {
    const location = locate(other.resource, other.path).location;
    related.push({ message: relatedMessage(other, location), location });
  }
  return {
    ruleId: rule.id,
    severity: setting.severityOverridden ? setting.severity : descriptor.severity ?? setting.severity,
    messageId: String(descriptor.messageId),
    message: render(descriptor.data),
    data: (descriptor.data ?? {}) as Record<string, unknown>,
    fix: descriptor.fix ?? rule.meta.fix,
    location: located.location,
    related,
    resource: resourceRef(descriptor.resource),
    path: descriptor.path,
    environments: [scope],
    ...(located.note ? { note: located.note } : {}),
  };
}

/** The diagnostic for a rule that threw, at the resource it was reporting on (else the scope's first resource). */
export function crashFinding(ruleId: string, error: unknown, current: Resource | undefined, fallback: Resource | undefined, scope: string): Finding {
  const where = current ? ` on ${current.kind} ${current.name}` : '';
  const anchor = current ?? fallback;
  const location = anchor ? locate(anchor, []).location : { file: '<unknown>', region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
  return {
    ruleId: 'pvlint/rule-crash',
    severity: 'error',
    messageId: 'crash',
    message: `rule ${ruleId} crashed${where}: ${(error as Error)?.message ?? String(error)}`,
    data: { rule: ruleId },
    fix: 'This is a bug in the rule; please report it with the manifest that triggers it.',
    location,
    related: [],
    environments: [scope],
  };
}
