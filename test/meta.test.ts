// Keeps the rule set honest: every rule file is registered under its file name, documented, tested,
// and its documented examples behave as documented; the README and docs/rules pages match the metadata.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import { parse as parseYaml } from 'yaml';
import * as assert from 'uvu/assert';
import { rulePageMarkdown } from '../src/docs/rule-page.js';
import { rulesMarkdownTable } from '../src/docs/rules-table.js';
import { ALL_RULES, BUILTIN_RULES, CHANGE_RULES } from '../src/registry.js';
import { isChangeRule, type RuleDescription } from '../src/review/change-rule.js';
import { lintText } from './helpers/rule-tester.js';
import { lintChange } from './review/helpers.js';
import { PROJECT_ROOT } from './helpers/paths.js';

const meta = suite('meta');
const ruleFiles = readdirSync(path.join(PROJECT_ROOT, 'rules')).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();

meta('every rule file is registered under its file name, and nothing else is', () => {
  assert.equal(ALL_RULES.map((r) => r.id).sort(), ruleFiles);
});

meta('rule ids are unique, and so are catalogue ids', () => {
  assert.is(new Set(ALL_RULES.map((r) => r.id)).size, BUILTIN_RULES.length + CHANGE_RULES.length);
  const catalogue = ALL_RULES.map((r) => r.meta.catalogueId).filter(Boolean);
  assert.is(new Set(catalogue).size, catalogue.length);
});

/** Per-environment rules are tested in test/rules, change rules (`--base`) in test/review/rules. */
const testFile = (rule: RuleDescription) => (isChangeRule(rule) ? path.join('test', 'review', 'rules', `${rule.id}.test.ts`) : path.join('test', 'rules', `${rule.id}.test.ts`));

for (const rule of ALL_RULES) {
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
    assert.ok(existsSync(path.join(PROJECT_ROOT, testFile(rule))), `${testFile(rule)} is missing`);
  });

  meta(`${rule.id}: documented examples behave as documented`, () => {
    const run = (example: (typeof rule.meta.examples.invalid)[number]) => {
      if (isChangeRule(rule)) {
        assert.type(example, 'object', `${rule.id} is a change rule: its examples are { base, head } pairs`);
        const pair = example as { base: string; head: string };
        return lintChange(rule, pair.base, pair.head);
      }
      assert.type(example, 'string', `${rule.id}: its examples are manifests`);
      // An example about cluster facts states them in a first-line comment: `# .pvlint.yaml: cluster: {kubernetesVersion: "1.21"}`.
      const facts = /^# \.pvlint\.yaml: cluster: (\{.*\})$/m.exec(example as string);
      return lintText(BUILTIN_RULES.find((r) => r.id === rule.id)!, example as string, undefined, facts ? { cluster: parseYaml(facts[1]) } : undefined);
    };
    rule.meta.examples.invalid.forEach((example, i) => {
      const findings = run(example);
      assert.ok(findings.length > 0, `invalid example ${i + 1} of ${rule.id} does not fire`);
    });
    rule.meta.examples.valid.forEach((example, i) => {
      const findings = run(example);
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
  assert.fixture(match![1], rulesMarkdownTable(ALL_RULES));
});

meta.run();
