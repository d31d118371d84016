// The terminal report, after ESLint's "stylish": findings grouped under their file, aligned columns, the fix
// right under each finding, one summary line. Colour comes from kleur, switched per call (see formatText).
import { notInterpretedNote, notInterpretedSection } from './not-interpreted-text.js';
import kleur from 'kleur';
import type { LintResult } from './lint-result.js';
import type { Finding, Severity } from '../types.js';
import { countSeverities, sortFindings } from './order.js';
import { appendAll, maxOf } from '../engine/append.js';
import { notACommand, terminalText } from './escape.js';

export interface TextOptions {
  color: boolean;
  /** Show errors only (warnings and notes are counted in the summary, not listed). */
  quiet?: boolean;
  /** List suppressed findings with their reason (they are always counted in the summary). */
  showSuppressed?: boolean;
}

const SEVERITY_COLOR: Record<Severity, (text: string) => string> = {
  error: (t) => kleur.red(t),
  warning: (t) => kleur.yellow(t),
  note: (t) => kleur.cyan(t),
};

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Loose manifests form one environment per argument; naming it on every finding would be noise. */
function showsEnvironments(finding: Finding, manifestScopes: ReadonlySet<string>): boolean {
  if (finding.environments.length > 1) return true;
  return finding.environments.length === 1 && finding.environments[0] !== '' && !manifestScopes.has(finding.environments[0]);
}

/** Wraps prose at word boundaries so long messages stay readable in a terminal. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    lines.push(line);
  }
  return lines;
}

const WRAP_WIDTH = 100;

function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const group = groups.get(finding.location.file);
    if (group) group.push(finding);
    else groups.set(finding.location.file, [finding]);
  }
  return groups;
}

function formatGroup(file: string, findings: readonly Finding[], manifestScopes: ReadonlySet<string>): string[] {
  // Columns are measured on the plain text, then coloured, so escapes never break the alignment.
  const lineWidth = maxOf(findings.map((f) => String(f.location.region.startLine).length));
  const columnWidth = maxOf(findings.map((f) => String(f.location.region.startColumn).length));
  const severityWidth = maxOf(findings.map((f) => f.severity.length));
  const indent = ' '.repeat(2 + lineWidth + 1 + columnWidth + 2);

  const out = [kleur.underline(terminalText(file, true))];
  for (const finding of findings) {
    const { startLine, startColumn } = finding.location.region;
    const position = `${String(startLine).padStart(lineWidth)}:${String(startColumn).padEnd(columnWidth)}`;
    out.push(`  ${kleur.dim(position)}  ${SEVERITY_COLOR[finding.severity](finding.severity.padEnd(severityWidth))}  ${kleur.bold(terminalText(finding.ruleId, true))}`);
    for (const line of wrap(terminalText(finding.message), WRAP_WIDTH)) out.push(`${indent}${line}`);
    if (finding.fix) out.push(`${indent}${kleur.dim('fix:')} ${terminalText(finding.fix, true)}`);
    for (const related of finding.related) {
      out.push(`${indent}${kleur.dim('related:')} ${terminalText(related.location.file, true)}:${related.location.region.startLine}  ${terminalText(related.message, true)}`);
    }
    if (finding.note) out.push(`${indent}${kleur.dim('note:')} ${terminalText(finding.note, true)}`);
    if (showsEnvironments(finding, manifestScopes)) out.push(`${indent}${kleur.dim('environments:')} ${terminalText(finding.environments.join(', '), true)}`);
  }
  return out;
}

function hiddenNote(hidden: readonly Finding[]): string {
  if (hidden.length === 0) return '';
  const counts = countSeverities(hidden);
  const parts = [counts.warnings > 0 ? plural(counts.warnings, 'warning') : '', counts.notes > 0 ? plural(counts.notes, 'note') : ''];
  return `; ${parts.filter(Boolean).join(' and ')} not shown (--quiet)`;
}

/** With `--base --new-only`: how many findings the base had too and were left out. */
function reviewNote(result: LintResult): string {
  const review = result.review;
  if (!review?.newOnly || review.preExisting === 0) return '';
  return `; ${plural(review.preExisting, 'pre-existing finding')} at ${review.base} not shown (--new-only)`;
}

function suppressedNote(result: LintResult, listed: boolean): string {
  const count = result.suppressed?.length ?? 0;
  if (count === 0) return '';
  return `; ${count} suppressed${listed ? '' : ' (--show-suppressed lists them)'}`;
}

/** Suppressed findings, one line each, with what suppressed them and why. */
function suppressedSection(result: LintResult): string[] {
  const suppressed = sortFindings(result.suppressed ?? []);
  if (suppressed.length === 0) return [];
  const out = [kleur.underline(`suppressed (${suppressed.length})`)];
  for (const finding of suppressed) {
    const { startLine, startColumn } = finding.location.region;
    const s = finding.suppression;
    const by = s?.kind === 'annotation' ? 'pvlint.dev/ignore' : 'suppress entry';
    const where = s?.location ? ` at ${s.location.file}:${s.location.region.startLine}` : '';
    out.push(`  ${kleur.dim(`${terminalText(finding.location.file, true)}:${startLine}:${startColumn}`)}  ${finding.severity}  ${kleur.bold(terminalText(finding.ruleId, true))}  ${terminalText(finding.message.split('\n')[0], true)}`);
    out.push(`    ${kleur.dim('suppressed by')} ${by}${terminalText(where, true)}: ${s?.reason ? terminalText(s.reason, true) : '(no reason given)'}`);
  }
  return out;
}

/** Template files (Go template or placeholder markers outside a chart) are counted, not linted. */
function templateNote(result: LintResult): string {
  const count = result.stats.templates ?? 0;
  return count === 0 ? '' : `; ${plural(count, 'template')}, not linted`;
}

function summaryLine(result: LintResult, shown: readonly Finding[], hidden: readonly Finding[], quiet: boolean, listed: boolean): string {
  const hiddenText = hiddenNote(hidden) + suppressedNote(result, listed) + reviewNote(result) + templateNote(result) + notInterpretedNote(result.notInterpreted);
  if (shown.length === 0) {
    const what = quiet ? 'errors' : 'problems';
    return kleur.green().bold(`✔ no ${what} in ${plural(result.stats.files, 'file')} (${plural(result.stats.resources, 'resource')})${hiddenText}`);
  }
  const counts = countSeverities(shown);
  const files = new Set(shown.map((f) => f.location.file)).size;
  const text =
    `✖ ${plural(shown.length, 'problem')} (${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}, ` +
    `${plural(counts.notes, 'note')}) in ${plural(files, 'file')}${hiddenText}`;
  const paint = counts.errors > 0 ? kleur.red().bold : counts.warnings > 0 ? kleur.yellow().bold : kleur.cyan().bold;
  return paint(text);
}

function render(result: LintResult, quiet: boolean, showSuppressed: boolean): string {
  const all = sortFindings(result.findings);
  const shown = quiet ? all.filter((f) => f.severity === 'error') : all;
  const hidden = quiet ? all.filter((f) => f.severity !== 'error') : [];
  const lines: string[] = [];
  const manifestScopes = new Set(result.scopes.filter((scope) => scope.kind === 'manifests').map((scope) => scope.name));
  for (const [file, findings] of groupByFile(shown)) appendAll(lines, formatGroup(file, findings, manifestScopes)).push('');
  const listed = showSuppressed && (result.suppressed?.length ?? 0) > 0;
  if (listed) appendAll(lines, suppressedSection(result)).push('');
  const skipped = notInterpretedSection(result.notInterpreted ?? []);
  if (skipped.length > 0) appendAll(lines, skipped).push('');
  lines.push(summaryLine(result, shown, hidden, quiet, listed));
  // `pvlint explain` documents rule modules and pvlint's own diagnostics alike.
  if (shown.length > 0) lines.push(kleur.dim("Run 'pvlint explain <rule-id>' for a rule's full page."));
  return `${lines.map(notACommand).join('\n')}\n`;
}

export function formatText(result: LintResult, options: TextOptions): string {
  // kleur's switch is module-global and initialised from the environment (NO_COLOR, TTY). Setting it for the
  // duration of this synchronous call, and restoring it after, makes the output depend on `options.color` only.
  const previous = kleur.enabled;
  kleur.enabled = options.color;
  try {
    return render(result, options.quiet ?? false, options.showSuppressed ?? false);
  } finally {
    kleur.enabled = previous;
  }
}
