// Keeps the rule set honest: every rule file is registered under its file name, documented, tested,
// and its documented examples behave as documented; the README and docs/rules pages match the metadata.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rulePageMarkdown } from '../src/docs/rule-page.js';
import { rulesMarkdownTable } from '../src/docs/rules-table.js';
import { BUILTIN_RULES } from '../src/registry.js';
import { lintText } from './helpers/rule-tester.js';
import { PROJECT_ROOT } from './helpers/paths.js';

const meta = suite('meta');
const ruleFiles = readdirSync(path.join(PROJECT_ROOT, 'rules')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();

meta('every rule file is registered under its file name, and nothing else is', () => {
  assert.equal(BUILTIN_RULES.map((r) => r.id).sort(), ruleFiles);
});

meta('rule ids are unique, and so are catalogue ids', () => {
  const catalogue = BUILTIN_RULES.map((r) => r.meta.catalogueId).filter(Boolean);
  assert.is(new Set(catalogue).size, catalogue.length);
});

for (const rule of BUILTIN_RULES) {
  meta(`${rule.id}: documented`, () => {
    const m = rule.meta;
    for (const field of ['summary', 'why', 'trigger', 'exceptions', 'fix', 'reportsAt'] as const) {
      assert.ok(m[field].trim().length >= 20 && !/TODO/.test(m[field]), `${rule.id}: meta.${field} is missing or a stub`);
    }
    assert.ok(m.references.length > 0, `${rule.id}: no references`);
    for (const ref of m.references) assert.match(ref.url, /^https:\/\//);
    assert.ok(m.kinds.length > 0, `${rule.id}: meta.kinds is empty`);
    assert.ok(m.examples.invalid.length > 0 && m.examples.valid.length > 0, `${rule.id}: needs an example that fires and one that does not`);
  });

  meta(`${rule.id}: has a test file`, () => {
    assert.ok(existsSync(path.join(PROJECT_ROOT, 'test', 'rules', `${rule.id}.test.ts`)), `test/rules/${rule.id}.test.ts is missing`);
  });

  meta(`${rule.id}: documented examples behave as documented`, () => {
    rule.meta.examples.invalid.forEach((code, i) => {
      const findings = lintText(rule, code);
      assert.ok(findings.length > 0, `invalid example ${i + 1} of ${rule.id} does not fire`);
    });
    rule.meta.examples.valid.forEach((code, i) => {
      const findings = lintText(rule, code);
      assert.is(findings.length, 0, `valid example ${i + 1} of ${rule.id} fires: ${findings.map((f) => f.message).join('; ')}`);
    });
  });

  meta(`${rule.id}: docs/rules page is generated from the metadata (run npm run docs)`, () => {
    const page = path.join(PROJECT_ROOT, 'docs', 'rules', `${rule.id}.md`);
    assert.ok(existsSync(page), `docs/rules/${rule.id}.md is missing`);
    assert.fixture(readFileSync(page, 'utf8'), rulePageMarkdown(rule));
  });
}

meta('README rule table is generated from the metadata (run npm run docs)', () => {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const match = /<!-- rules:start -->\n([\s\S]*?)<!-- rules:end -->/.exec(readme);
  assert.ok(match, 'README.md lacks the <!-- rules:start --> / <!-- rules:end --> markers');
  assert.fixture(match![1], rulesMarkdownTable(BUILTIN_RULES));
});

meta.run();
