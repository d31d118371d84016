// GitHub-flavoured Markdown: a summary line, the findings as a table, then each environment's storage picture as a
// Mermaid block (GitHub draws it), for `pvlint --format markdown >> "$GITHUB_STEP_SUMMARY"` or a PR comment.
import type { EnvironmentGraph } from '../graph/model.js';
import { toMermaid, tooLargeForGithub } from '../graph/mermaid.js';
import type { LintResult } from './lint-result.js';
import type { Finding, Severity } from '../types.js';
import { countSeverities, sortFindings } from './order.js';
import { appendAll } from '../engine/append.js';

export interface MarkdownOptions {
  /** Each environment's picture (the CLI collects them while linting); without them the report has no pictures. */
  graphs?: readonly EnvironmentGraph[];
}

/** A job summary is limited to 1 MiB: past this many rows the table says how many it left out. */
const MAX_ROWS = 300;

const ICON: Record<Severity, string> = { error: '🔴', warning: '🟡', note: '🔵' };

function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Escapes text for a Markdown table cell: no markup, no HTML, no cell breaks, one line. */
export function markdownCell(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\*_[\]|~])/g, '\\$1')
    .replace(/\r?\n/g, '<br>');
}

/** An inline code span that holds any text (backticks inside get a longer fence). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')}${pad}${fence}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function countsText(findings: readonly { severity: Severity }[]): string {
  const c = countSeverities(findings as readonly Finding[]);
  return `${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.notes, 'note')}`;
}

function findingRow(finding: Finding): string {
  const where = `${finding.location.file}:${finding.location.region.startLine}`;
  const environments = finding.environments.filter((e) => e !== '');
  const message = markdownCell(finding.message) + (environments.length > 1 ? `<br><sub>${markdownCell(`environments: ${environments.join(', ')}`)}</sub>` : '');
  return `| ${ICON[finding.severity]} ${finding.severity} | ${code(finding.ruleId)} | ${code(where)} | ${message} |`;
}

function graphSection(graph: EnvironmentGraph): string[] {
  // A <summary> line is HTML: Markdown inside it is not rendered.
  const summary = `<code>${html(graph.environment)}</code>: ${plural(graph.nodes.length, 'object')}, ${graph.findings.length === 0 ? 'no findings' : countsText(graph.findings)}`;
  const lines = [`<details${graph.findings.length > 0 ? ' open' : ''}><summary>${summary}</summary>`, ''];
  const mermaid = toMermaid(graph);
  if (tooLargeForGithub(mermaid, graph)) {
    lines.push(
      `_${plural(graph.nodes.length, 'object')} and ${plural(graph.edges.length, 'edge')} are more than GitHub's Mermaid draws: ` +
        `run \`pvlint graph --focus kind/namespace/name\` or \`pvlint graph --format html\` for this environment._`,
    );
  } else {
    lines.push('```mermaid', mermaid.trimEnd(), '```');
  }
  lines.push('', '</details>', '');
  return lines;
}

export function formatMarkdown(result: LintResult, options: MarkdownOptions = {}): string {
  const findings = sortFindings(result.findings);
  const suppressed = result.suppressed?.length ?? 0;
  const out = ['## pvlint', ''];
  const scope = `${plural(result.stats.files, 'file')}, ${plural(result.stats.resources, 'resource')}, ${plural(result.scopes.length, 'environment')}`;
  const suppressedText = suppressed > 0 ? ` (${suppressed} suppressed)` : '';
  if (findings.length === 0) {
    out.push(`✅ **No problems** in ${scope}${suppressedText}.`, '');
  } else {
    const files = new Set(findings.map((f) => f.location.file)).size;
    out.push(`❌ **${plural(findings.length, 'problem')}** (${countsText(findings)}) in ${plural(files, 'file')}; ${scope}${suppressedText}.`, '');
    out.push('| severity | rule | where | message |', '|---|---|---|---|');
    for (const finding of findings.slice(0, MAX_ROWS)) out.push(findingRow(finding));
    if (findings.length > MAX_ROWS) out.push('', `_${findings.length - MAX_ROWS} more findings not listed; run pvlint locally for all of them._`);
    out.push('', "Run `pvlint explain <rule-id>` for a rule's full page.", '');
  }
  const graphs = options.graphs ?? [];
  if (graphs.length > 0) {
    out.push('### Storage by environment', '');
    out.push('Workloads → volumes → claims → PersistentVolumes → StorageClasses; dashed: not in the repo; thick edges: what a finding is about, labelled with its rule.', '');
    for (const graph of graphs) appendAll(out, graphSection(graph));
  }
  return `${out.join('\n').trimEnd()}\n`;
}
