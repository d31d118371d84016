// Regenerates the README rule table and docs/rules/*.md from the rules' metadata, change rules included (run after npm run build).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { rulePageMarkdown } from '../dist/src/docs/rule-page.js';
import { rulesMarkdownTable } from '../dist/src/docs/rules-table.js';
import { ALL_RULES } from '../dist/src/registry.js';

const root = new URL('../', import.meta.url);
const readmeUrl = new URL('README.md', root);
const readme = readFileSync(readmeUrl, 'utf8');
const table = rulesMarkdownTable(ALL_RULES);
const updated = readme.replace(/(<!-- rules:start -->\n)[\s\S]*?(<!-- rules:end -->)/, `$1${table}$2`);
if (updated === readme && !readme.includes(table)) throw new Error('README.md lacks the rules:start/rules:end markers');
writeFileSync(readmeUrl, updated);

const docs = new URL('docs/rules/', root);
mkdirSync(docs, { recursive: true });
const ids = new Set(ALL_RULES.map((r) => r.id));
for (const file of readdirSync(docs)) if (file.endsWith('.md') && !ids.has(file.slice(0, -3))) rmSync(new URL(file, docs));
for (const rule of ALL_RULES) writeFileSync(new URL(`${rule.id}.md`, docs), rulePageMarkdown(rule));
console.log(`updated README.md and ${ALL_RULES.length} rule pages`);
