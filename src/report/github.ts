// GitHub Actions workflow-command annotations, for runs without code scanning: one line per finding,
//   ::error file=<path>,line=<n>,col=<n>,endLine=<n>,endColumn=<n>,title=<rule-id>::<message>
// Escaping follows actions/toolkit packages/core/src/command.ts: the message escapes `%`, `\r`, `\n`; property
// values additionally escape `:` and `,` (the separators of the property list). The runner
// (actions/runner ActionCommandManager.cs, ValidateLinesAndColumns) drops `col`/`endColumn` when `line` and
// `endLine` differ, so multi-line regions are sent as a line range only.
import type { LintResult } from './lint-result.js';
import type { Finding, Severity } from '../types.js';
import { ANNOTATIONS_PER_KIND, planAnnotations } from './github-limits.js';
import { countSeverities } from './order.js';
import { terminalText } from './escape.js';

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  note: 'notice',
};

/**
 * Escapes a command's data (the message after `::`). Other control characters are shown as escapes first
 * (`terminalText`): the log viewer renders ANSI sequences.
 */
export function escapeData(text: string): string {
  return terminalText(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** Escapes a property value (`key=value` before `::`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `<stdin>` and other pseudo paths name no file in the checkout: such an annotation carries no location. */
function hasFile(file: string): boolean {
  return file !== '' && !file.startsWith('<');
}

function properties(finding: Finding): string {
  const props: [string, string | number][] = [];
  const { file, region } = finding.location;
  if (hasFile(file)) {
    const startLine = Math.max(1, region.startLine);
    const endLine = Math.max(startLine, region.endLine);
    props.push(['file', file], ['line', startLine]);
    if (endLine === startLine) {
      const col = Math.max(1, region.startColumn);
      props.push(['col', col], ['endLine', endLine], ['endColumn', Math.max(col, region.endColumn)]);
    } else {
      props.push(['endLine', endLine]);
    }
  }
  props.push(['title', finding.ruleId]);
  return props.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(',');
}

/** The message, then what the text report shows under it: fix, related locations, note, environments. */
function message(finding: Finding): string {
  const lines = [finding.message.trim() === '' ? finding.ruleId : finding.message.trim()];
  if (finding.fix) lines.push(`Fix: ${finding.fix}`);
  for (const related of finding.related) {
    lines.push(`Related: ${related.location.file}:${related.location.region.startLine} ${related.message}`.trimEnd());
  }
  if (finding.note) lines.push(`Note: ${finding.note}`);
  const environments = finding.environments.filter((e) => e !== '');
  if (environments.length > 0) lines.push(`Environments: ${environments.join(', ')}`);
  return lines.join('\n');
}

export function formatGithubAnnotation(finding: Finding): string {
  return `::${COMMAND[finding.severity]} ${properties(finding)}::${escapeData(message(finding))}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * Annotations errors first, within GitHub's per-step limits (github-limits.ts); the findings past them as plain
 * log lines, and one notice that counts them and says where the whole report is; then the summary line, which
 * counts files as the text format does (files with findings; all files linted when there are none).
 */
export function formatGithub(result: LintResult): string {
  const { annotated, overflow } = planAnnotations(result.findings);
  const lines = annotated.map(formatGithubAnnotation);
  if (overflow.length > 0) {
    for (const finding of overflow) {
      const { file, region } = finding.location;
      // "- " first: a plain log line can never be read as a workflow command (those start with "::").
      lines.push(`- ${file}:${region.startLine}:${region.startColumn} ${finding.severity} ${finding.ruleId}: ${message(finding).split('\n')[0]}`);
    }
    lines.push(
      `::notice title=pvlint::${escapeData(
        `${plural(overflow.length, 'more finding')} not annotated: GitHub shows ${ANNOTATIONS_PER_KIND} annotations of each kind per step. ` +
          "This step's log lists every finding; the pvlint Action also writes them all to the job summary and to code scanning (SARIF).",
      )}`,
    );
  }
  const counts = countSeverities(result.findings);
  const files = new Set(result.findings.map((f) => f.location.file)).size;
  lines.push(
    result.findings.length === 0
      ? `pvlint: no problems in ${plural(result.stats.files, 'file')}`
      : `pvlint: ${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}, ${plural(counts.notes, 'note')} in ${plural(files, 'file')}`,
  );
  return `${lines.join('\n')}\n`;
}
