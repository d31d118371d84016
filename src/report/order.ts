// One finding order for every report format, independent of the input order and of the locale
// (localeCompare differs between ICU builds, and reports must be byte-identical across machines).
import type { Finding } from '../types.js';

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Sorted by file (or the key `fileKey` gives, e.g. the SARIF URI), line, column, rule, then the rest of the
 * region and the message so that no two distinct findings tie.
 */
export function sortFindings(findings: readonly Finding[], fileKey: (finding: Finding) => string = (f) => f.location.file): Finding[] {
  const keyed = findings.map((finding) => ({ finding, file: fileKey(finding) }));
  keyed.sort((x, y) => {
    const a = x.finding;
    const b = y.finding;
    const ra = a.location.region;
    const rb = b.location.region;
    return (
      compareStrings(x.file, y.file) ||
      ra.startLine - rb.startLine ||
      ra.startColumn - rb.startColumn ||
      compareStrings(a.ruleId, b.ruleId) ||
      ra.endLine - rb.endLine ||
      ra.endColumn - rb.endColumn ||
      compareStrings(a.message, b.message)
    );
  });
  return keyed.map((k) => k.finding);
}

export interface SeverityCounts {
  errors: number;
  warnings: number;
  notes: number;
}

export function countSeverities(findings: readonly Finding[]): SeverityCounts {
  const counts: SeverityCounts = { errors: 0, warnings: 0, notes: 0 };
  for (const finding of findings) {
    if (finding.severity === 'error') counts.errors++;
    else if (finding.severity === 'warning') counts.warnings++;
    else counts.notes++;
  }
  return counts;
}
