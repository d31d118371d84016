// A rule's page, rendered from its metadata: `pvlint explain <id>`, SARIF help and the README table share it.
import { isChangeRule, type RuleDescription, type RuleExample } from '../review/change-rule.js';

/** A manifest, or for a change rule the manifests at the base and after the change. */
function exampleBlock(example: RuleExample): string[] {
  if (typeof example === 'string') return ['```yaml', example.trimEnd(), '```'];
  return ['At the base:', '', '```yaml', example.base.trimEnd(), '```', '', 'After the change:', '', '```yaml', example.head.trimEnd(), '```'];
}

export function rulePageMarkdown(rule: RuleDescription): string {
  const m = rule.meta;
  const lines = [
    `# ${rule.id}${m.catalogueId ? ` (${m.catalogueId})` : ''}`,
    '',
    m.summary,
    '',
    `Default severity: **${m.severity}**${(m as { severities?: readonly string[] }).severities?.length ? ` (in some cases, as the trigger says: ${(m as { severities?: readonly string[] }).severities!.join(', ')})` : ''}. Reads: ${m.kinds.join(', ') || 'any kind'}.` +
      (isChangeRule(rule) ? ' Runs with `--base <git-ref>`: it compares each environment with itself at that ref.' : ''),
    '',
    '## What breaks, and why',
    m.why,
    '',
    '## When it fires',
    m.trigger,
    '',
    '## When it stays silent',
    m.exceptions,
    '',
    '## How to fix it',
    m.fix,
    '',
    '## Where it reports',
    m.reportsAt,
  ];
  if (m.options) {
    lines.push('', '## Options', '```json', JSON.stringify(m.options.defaults, null, 2), '```');
  }
  if (m.examples.invalid.length > 0) lines.push('', '## Example that fires', ...exampleBlock(m.examples.invalid[0]));
  if (m.examples.valid.length > 0) lines.push('', '## Fixed', ...exampleBlock(m.examples.valid[0]));
  if (m.references.length > 0) {
    lines.push('', '## References');
    for (const ref of m.references) lines.push(`- [${ref.title}](${ref.url})`);
  }
  return lines.join('\n') + '\n';
}

/** The page for a terminal: markdown markers stripped, headings kept as plain lines. */
export function rulePageText(rule: RuleDescription): string {
  return rulePageMarkdown(rule)
    .replace(/^#+ /gm, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/\[(.+?)\]\((.+?)\)/g, '$1 <$2>');
}
