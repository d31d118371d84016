// The rule list for `pvlint rules` and the README (generated from metadata, never written by hand).
import type { RuleModule } from '../types.js';

export function rulesMarkdownTable(rules: readonly RuleModule[]): string {
  const rows = rules.map(
    (r) => `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${r.meta.catalogueId ?? ''} | ${r.meta.severity} | ${r.meta.summary.replace(/\|/g, '\\|')} |`,
  );
  return ['| rule | catalogue | severity | finds |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

export function rulesTextTable(rules: readonly RuleModule[]): string {
  const idWidth = Math.max(4, ...rules.map((r) => r.id.length));
  const lines = [`${'rule'.padEnd(idWidth)}  cat  severity  finds`];
  for (const r of rules) {
    lines.push(`${r.id.padEnd(idWidth)}  ${(r.meta.catalogueId ?? '').padEnd(3)}  ${r.meta.severity.padEnd(8)}  ${r.meta.summary}`);
  }
  return lines.join('\n') + '\n';
}

export function rulesJson(rules: readonly RuleModule[]): string {
  const list = rules.map((r) => {
    const { messages: _messages, ...meta } = r.meta;
    return { id: r.id, ...meta };
  });
  return JSON.stringify(list, null, 2) + '\n';
}
