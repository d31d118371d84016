// One finding per (rule, source location): a base shared by several environments is reported once,
// listing every environment that produced it. Output order is deterministic.
import type { Finding } from '../types.js';

function locationKey(finding: Finding): string {
  const r = finding.location.region;
  // Two rules that crash at one place are two bugs, not one.
  const crashed = finding.ruleId === 'pvlint/rule-crash' ? `\u0000${String(finding.data?.rule ?? finding.message)}` : '';
  return `${finding.ruleId}\u0000${finding.location.file}\u0000${r.startLine}:${r.startColumn}\u0000${finding.messageId}${crashed}`;
}

/**
 * Which of the findings at one place speaks for them all: the first by message, object and related places, so that
 * the choice does not depend on the order environments or renderers produced them (helm orders a chart's objects
 * differently from run to run).
 */
function representativeOrder(a: Finding, b: Finding): number {
  return (
    a.message.localeCompare(b.message) ||
    objectName(a).localeCompare(objectName(b)) ||
    JSON.stringify(a.related).localeCompare(JSON.stringify(b.related)) ||
    (a.note ?? '').localeCompare(b.note ?? '') ||
    JSON.stringify(a.path ?? []).localeCompare(JSON.stringify(b.path ?? []))
  );
}

function objectName(finding: Finding): string {
  const r = finding.resource;
  return r ? `${r.kind}/${r.namespace ?? ''}/${r.name}` : '';
}

export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const merged = new Map<string, Finding>();
  for (const finding of findings) {
    const key = locationKey(finding);
    const existing = merged.get(key);
    if (!existing) {
      merged.set(key, { ...finding, environments: [...finding.environments] });
      continue;
    }
    for (const env of finding.environments) if (!existing.environments.includes(env)) existing.environments.push(env);
    if (representativeOrder(finding, existing) < 0) merged.set(key, { ...finding, environments: existing.environments });
  }
  const result = [...merged.values()];
  for (const finding of result) finding.environments.sort();
  return result.sort(compareFindings);
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    a.location.file.localeCompare(b.location.file) ||
    a.location.region.startLine - b.location.region.startLine ||
    a.location.region.startColumn - b.location.region.startColumn ||
    a.ruleId.localeCompare(b.ruleId) ||
    a.message.localeCompare(b.message)
  );
}
