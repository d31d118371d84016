// Custom rules from `ruleFiles`: TypeScript without a build step, `import ... from 'pvlint'` in a repo that does not
// install pvlint, crashes that name the rule and do not stop the others.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint } from '../helpers/spawn.js';
import { PVC, repo, TS_RULE } from './helpers.js';

const test = suite('custom rules');

function json(dir: string, args: string[] = ['.']) {
  const run = runPvlint(['--format', 'json', ...args], { cwd: dir });
  return { ...run, report: run.stdout ? JSON.parse(run.stdout) : undefined };
}

const at = (f: any) => `${f.ruleId}@${f.location.file}:${f.location.startLine}`;

test('a .ts rule fires: types erased on load, pvlint resolved to the running package, a .ts helper imported as .js', () => {
  const rule = TS_RULE('acme/every-claim', "report({ resource: pvc, path: ['metadata', 'name'], messageId: 'seen', data: { name: label(pvc.name) } });")
    .replace("import { defineRule, type Resource } from 'pvlint';", "import { defineRule, type Resource } from 'pvlint';\nimport { label } from './lib/label.js';");
  const dir = repo({
    '.pvlint.yaml': 'ruleFiles: [rules]\n',
    'rules/every-claim.ts': rule,
    'rules/lib/label.ts': 'export function label(name: string): string {\n  return `<${name as string}>`;\n}\n',
    'pvc.yaml': PVC('data', 'shop', '""'),
  });
  const { code, report } = json(dir);
  assert.is(code, 0, 'a warning does not fail the run');
  const mine = report.findings.filter((f: any) => f.ruleId === 'acme/every-claim');
  assert.equal(mine.map(at), ['acme/every-claim@pvc.yaml:5']);
  assert.is(mine[0].message, 'claim <data> seen');
  assert.is(mine[0].severity, 'warning');
  // The rule is a rule like the others: listed, explained, described in SARIF.
  assert.match(runPvlint(['rules'], { cwd: dir }).stdout, /acme\/every-claim/);
  assert.match(runPvlint(['explain', 'acme/every-claim'], { cwd: dir }).stdout, /Reports every claim\./);
  const sarif = JSON.parse(runPvlint(['--format', 'sarif', '.'], { cwd: dir }).stdout);
  assert.ok(sarif.runs[0].tool.driver.rules.some((r: any) => r.id === 'acme/every-claim'));
});

test('a .mjs rule imports defineRule from pvlint; severity and off work as for built-in rules', () => {
  const mjs = `import { defineRule } from 'pvlint';
export default defineRule({
  id: 'acme/no-default-namespace',
  meta: { severity: 'note', kinds: ['PersistentVolumeClaim'], messages: { bad: (d) => \`\${d.name} has no namespace\` } },
  check({ model, report }) {
    for (const pvc of model.ofKind('PersistentVolumeClaim')) if (!pvc.namespace) report({ resource: pvc, path: ['metadata'], messageId: 'bad', data: { name: pvc.name } });
  },
});
`;
  const files = { 'rules/ns.mjs': mjs, 'pvc.yaml': PVC('data', 'shop').replace('  namespace: shop\n', '') };
  const on = json(repo({ ...files, '.pvlint.yaml': 'ruleFiles: [rules/ns.mjs]\nrules:\n  acme/no-default-namespace: error\n' }));
  assert.is(on.code, 1);
  assert.equal(on.report.findings.filter((f: any) => f.ruleId.startsWith('acme/')).map((f: any) => `${at(f)} ${f.severity}`), ['acme/no-default-namespace@pvc.yaml:4 error']);
  const off = json(repo({ ...files, '.pvlint.yaml': 'ruleFiles: [rules/ns.mjs]\nrules:\n  acme/no-default-namespace: off\n' }));
  assert.equal(off.report.findings.filter((f: any) => f.ruleId.startsWith('acme/')), []);
});

test('a custom rule that throws is a pvlint/rule-crash naming it (file and line); the other rules still run', () => {
  const throwing = TS_RULE('acme/crashes', "const parts: string[] = [];\n      parts[0]!.toUpperCase();");
  const dir = repo({
    '.pvlint.yaml': 'ruleFiles: [rules]\n',
    'rules/a-crashes.ts': throwing,
    'rules/b-works.ts': TS_RULE('acme/works'),
    'pvc.yaml': PVC('data', 'shop', 'fast'),
  });
  const { code, report, stderr } = json(dir);
  assert.is(code, 2, stderr);
  const crash = report.findings.find((f: any) => f.ruleId === 'pvlint/rule-crash');
  assert.ok(crash, JSON.stringify(report.findings));
  assert.match(crash.message, /^rule acme\/crashes crashed: .*toUpperCase.* \(custom rule in rules\/a-crashes\.ts:17:17\)$/);
  const ids = report.findings.map((f: any) => f.ruleId);
  assert.ok(ids.includes('acme/works'), 'the next custom rule ran');
  assert.ok(ids.includes('pvc-unknown-storageclass'), 'the built-in rules ran');
  assert.is(report.summary.fatal, true);
});

test('a .ts rule with an enum: exit 2, the rule file and line, nothing linted', () => {
  const dir = repo({
    '.pvlint.yaml': 'ruleFiles:\n  - rules/tiers.ts\n',
    'rules/tiers.ts': "import { defineRule } from 'pvlint';\n\nenum Tier {\n  Gold,\n}\n\nexport default defineRule({ id: 'acme/tiers' } as never);\n",
    'pvc.yaml': PVC('data', 'shop'),
  });
  const run = runPvlint(['.'], { cwd: dir });
  assert.is(run.code, 2);
  assert.is(run.stdout, '');
  assert.match(run.stderr, /^rules\/tiers\.ts:3:1: enum Tier: enums have runtime meaning in TypeScript and cannot be erased; .*\(ruleFiles entry at \.pvlint\.yaml:2:5\)\n$/);
});

test.run();
