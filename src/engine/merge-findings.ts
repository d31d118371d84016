// One finding per (rule, source location): a base shared by several environments is reported once,
// listing every environment that produced it. Output order is deterministic.
import type { Finding } from '../types.js';

function locationKey(finding: Finding): string {
  const r = finding.location.region;
  return `${finding.ruleId}\u0000${finding.location.file}\u0000${r.startLine}:${r.startColumn}\u0000${finding.messageId}`;
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
