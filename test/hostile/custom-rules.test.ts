// Custom rules that do not finish the way pvlint expects are refused clearly: an async check() (its reports would be
// lost, a rejection would go unhandled) is a pvlint/rule-crash saying so, and a module whose top-level await never
// settles is a configuration error after a deadline instead of an exit 0 with no output.
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

test.run();
