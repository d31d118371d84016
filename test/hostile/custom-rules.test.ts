// Custom rules that do not finish the way pvlint expects are refused clearly: an async check() (its reports would be
// lost, a rejection would go unhandled) is a pvlint/rule-crash saying so, and a module whose top-level await never
// settles is a configuration error after a deadline instead of an exit 0 with no output.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint } from '../helpers/spawn.js';
import { PVC, repo } from '../config/helpers.js';
import { eraseTypes } from '../../src/config/erase-types.js';

const test = suite('hostile custom rules');

const rule = (check: string, top = '') => `${top}
export default {
  id: 'acme/odd',
  meta: { severity: 'error', kinds: ['PersistentVolumeClaim'], messages: { bad: () => 'bad' } },
  ${check}
};
`;

test('async check() and a check() whose promise rejects: pvlint/rule-crash saying async is not supported', () => {
  for (const check of [
    "async check({ model, report }) { await null; for (const pvc of model.ofKind('PersistentVolumeClaim')) report({ resource: pvc, messageId: 'bad' }); },",
    "check() { return Promise.reject(new Error('later')); },",
  ]) {
    const dir = repo({ '.pvlint.yaml': 'ruleFiles: [rules/odd.mjs]\n', 'rules/odd.mjs': rule(check), 'pvc.yaml': PVC('data', 'shop') });
    const run = runPvlint(['--format', 'json', '.'], { cwd: dir });
    assert.is(run.code, 2, `${check}: exit ${run.code} ${run.stderr}`);
    const crash = JSON.parse(run.stdout).findings.find((f: any) => f.ruleId === 'pvlint/rule-crash');
    assert.match(crash?.message ?? '', /async check\(\) is not supported/);
    assert.not.match(run.stderr, /unhandled|Unhandled/);
  }
});

test('a top-level await that never settles: a configuration error after the load deadline, not a silent exit 0', () => {
  const dir = repo({ '.pvlint.yaml': 'ruleFiles: [rules/odd.mjs]\n', 'rules/odd.mjs': rule('check() {},', 'await new Promise(() => {});'), 'pvc.yaml': PVC('data', 'shop') });
  const run = runPvlint(['.'], { cwd: dir });
  assert.is(run.code, 2, `exit ${run.code}: ${run.stdout}${run.stderr}`);
  assert.match(run.stderr, /did not finish loading within 10 s/);
});

test('a load that runs out of time always ends in the configuration error: never a silent exit 0 with no output', () => {
  // The wait for a loading module holds no handle of its own: the process could end mid-wait, with exit code 0 and
  // nothing printed, when the deadline came (seen on a loaded CI machine). Three runs, each must say why.
  const dir = repo({ '.pvlint.yaml': 'customRuleTimeout: 0.5\nruleFiles: [rules/odd.mjs]\n', 'rules/odd.mjs': rule('check() {},', 'await new Promise(() => {});'), 'pvc.yaml': PVC('data', 'shop') });
  for (let attempt = 1; attempt <= 3; attempt++) {
    const run = runPvlint(['--format', 'json', '.'], { cwd: dir });
    assert.is(run.code, 2, `attempt ${attempt}: exit ${run.code}, stdout ${JSON.stringify(run.stdout.slice(0, 200))}, stderr ${JSON.stringify(run.stderr)}`);
    assert.match(run.stderr, /did not finish loading within 0\.5 s/);
  }
});

test('type stripping keeps statements apart: a type-only line before one that starts with ( or [', async () => {
  const cases: [string, unknown][] = [
    ['const x = { a: 1 }\ntype T = string\n;(x as any).a = 2\nreturn x.a\n', 2],
    ['let y = 1\ntype T = string\n;[1].forEach(() => y++)\nreturn y\n', 2],
    ['const f = () => 1\ninterface I { a: string }\n(f as any)()\nreturn typeof f\n', 'function'],
    ['const g = () => 3\nexport type { I }\n;(g as any)()\nreturn g()\n', 3],
    ['const h = 4\ndeclare const d: number\n;[h].map(String)\nreturn h\n', 4],
  ];
  for (const [source, expected] of cases) {
    const erased = await eraseTypes(source.replace('export type { I }', 'type I = string'));
    assert.ok('code' in erased, JSON.stringify(erased));
    const run = new Function((erased as { code: string }).code);
    assert.is(run(), expected, (erased as { code: string }).code);
  }
});

test('a check() that never returns is stopped after customRuleTimeout: pvlint/rule-crash, and every other rule still reports', () => {
  const dir = repo({
    '.pvlint.yaml': 'customRuleTimeout: 1\nruleFiles: [rules]\n',
    'rules/loop.mjs': rule('check() { for (;;) {} },').replace("'acme/odd'", "'acme/loop'"),
    // A TypeScript rule beside it, reading what the model rebuilt in the worker holds: a kind the pre-scan leaves
    // unparsed, a class only the configuration declares, and reports with related locations.
    'rules/claims.ts': `import { defineRule } from 'pvlint';
type Claim = { name: string };
export default defineRule({
  id: 'acme/claims',
  meta: { severity: 'warning', kinds: ['PersistentVolumeClaim', 'ConfigMap'], messages: { claim: (d: Claim) => 'claim ' + d.name }, summary: 's', why: 'w', trigger: 't', exceptions: 'e', fix: 'f', reportsAt: 'r', references: [], examples: { invalid: [], valid: [] } },
  check({ model, report }) {
    const configMaps = model.ofKind('ConfigMap').map((c) => c.name).join(',');
    const declared = model.lookupClass('declared-class');
    for (const pvc of model.ofKind('PersistentVolumeClaim')) {
      report({ resource: pvc, path: ['spec'], messageId: 'claim', data: { name: pvc.name + ' ' + configMaps + ' ' + declared.status },
        related: declared.status === 'found' ? [{ resource: declared.value, path: ['provisioner'], message: 'declared here' }] : [] });
    }
  },
});
`,
    'pvc.yaml': PVC('data', 'shop', 'missing-class') + PVC('logs', 'shop', 'missing-class'),
    'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {a: b}\n',
  });
  writeFileSync(path.join(dir, '.pvlint.yaml'), 'customRuleTimeout: 1\nruleFiles: [rules]\ncluster:\n  storageClasses:\n    - name: declared-class\n      provisioner: ebs.csi.aws.com\n');
  const started = Date.now();
  const run = runPvlint(['--format', 'json', '.'], { cwd: dir });
  const seconds = (Date.now() - started) / 1000;
  assert.is(run.code, 2, `exit ${run.code} ${run.stderr}`);
  const findings = JSON.parse(run.stdout).findings as any[];
  const crash = findings.filter((f) => f.ruleId === 'pvlint/rule-crash');
  assert.is(crash.length, 1, JSON.stringify(crash));
  assert.match(crash[0].message, /custom rule acme\/loop did not finish within 1 s/);
  assert.match(crash[0].message, /rules\/loop\.mjs/);
  const claims = findings.filter((f) => f.ruleId === 'acme/claims');
  assert.equal(claims.map((f) => f.message).sort(), ['claim data settings found', 'claim logs settings found']);
  // Located on the main thread, in the file a reviewer edits: `spec:` of each claim, related at the config entry.
  assert.equal(claims.map((f) => `${f.location.file}:${f.location.startLine}`).sort(), ['pvc.yaml:17', 'pvc.yaml:7']);
  assert.match(claims[0].related[0].location.file, /\.pvlint\.yaml$/);
  assert.is(findings.filter((f) => f.ruleId === 'pvc-unknown-storageclass').length, 2, 'built-in rules still report');
  assert.ok(seconds < 30, `the run took ${seconds} s`);
});

test.run();
