// The rule list for `pvlint rules` and the README (generated from metadata, never written by hand).
import { isChangeRule, type RuleDescription } from '../review/change-rule.js';

/** Change rules run only with `--base`: the lists say so. */
const summaryOf = (rule: RuleDescription) => (isChangeRule(rule) ? `${rule.meta.summary} (with --base)` : rule.meta.summary);

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** `error`, or `error (some cases: warning, note)` when the rule reports other severities in cases its trigger names. */
function severityCell(rule: RuleDescription): string {
  const others = ((rule.meta as { severities?: readonly string[] }).severities ?? []).filter((s) => s !== rule.meta.severity);
  return others.length === 0 ? rule.meta.severity : `${rule.meta.severity} (some cases: ${others.join(', ')})`;
}

export function rulesMarkdownTable(rules: readonly RuleDescription[]): string {
  const rows = rules.map(
    (r) => `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${r.meta.catalogueId ?? ''} | ${severityCell(r)} | ${cell(summaryOf(r))} | ${cell(r.meta.trigger)} |`,
  );
  return ['| rule | catalogue | severity | finds | exact trigger |', '|---|---|---|---|---|', ...rows].join('\n') + '\n';
}

export function rulesTextTable(rules: readonly RuleDescription[]): string {
  const idWidth = Math.max(4, ...rules.map((r) => r.id.length));
  const lines = [`${'rule'.padEnd(idWidth)}  cat  severity  finds`];
  for (const r of rules) {
    lines.push(`${r.id.padEnd(idWidth)}  ${(r.meta.catalogueId ?? '').padEnd(3)}  ${r.meta.severity.padEnd(8)}  ${summaryOf(r)}`);
  }
  return lines.join('\n') + '\n';
}

export function rulesJson(rules: readonly RuleDescription[]): string {
  const list = rules.map((r) => {
    const { messages: _messages, ...meta } = r.meta;
    return { id: r.id, ...(isChangeRule(r) ? { type: 'change' } : {}), ...meta };
  });
  return JSON.stringify(list, null, 2) + '\n';
}
