// A custom rule module's top-level code runs where it can be stopped: a module that never finishes loading is a
// configuration error after customRuleTimeout (or --custom-rule-timeout), not a hang; Ctrl-C during a check that
// never returns ends the run at once; and the flag wins over the configuration key.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/paths.js';
import { plainEnv, runPvlint } from '../helpers/spawn.js';
import { PVC, repo } from '../config/helpers.js';

const test = suite('custom rule deadlines');

const rule = (check: string, top = '') => `${top}
export default {
  id: 'acme/odd',
  meta: { severity: 'error', kinds: ['PersistentVolumeClaim'], messages: { bad: (d) => 'bad ' + d.name } },
  ${check}
};
`;
const REPORTS = "check({ model, report }) { for (const pvc of model.ofKind('PersistentVolumeClaim')) report({ resource: pvc, path: ['spec'], messageId: 'bad', data: { name: pvc.name } }); },";

function timed<T>(run: () => T): { result: T; seconds: number } {
  const started = Date.now();
  const result = run();
  return { result, seconds: (Date.now() - started) / 1000 };
}

test('a module whose top level loops forever: a configuration error naming the file after customRuleTimeout, exit 2', () => {
  const dir = repo({ '.pvlint.yaml': 'customRuleTimeout: 1\nruleFiles: [rules/loop.mjs]\n', 'rules/loop.mjs': rule(REPORTS, 'while (true) {}'), 'pvc.yaml': PVC('data', 'shop') });
  const { result: run, seconds } = timed(() => runPvlint(['.'], { cwd: dir }));
  assert.is(run.code, 2, `exit ${run.code}: ${run.stdout}${run.stderr}`);
  assert.match(run.stderr, /^rules\/loop\.mjs:1:1: cannot load the rule module: the rule module did not finish loading within 1 s \(customRuleTimeout;/m);
  assert.match(run.stderr, /\(ruleFiles entry at .*\.pvlint\.yaml:2:\d+\)/);
  assert.ok(seconds < 20, `the run took ${seconds} s`);
});

test('a TypeScript module with a long synchronous computation: --custom-rule-timeout wins over the configuration key', () => {
  const dir = repo({
    '.pvlint.yaml': 'customRuleTimeout: 3600\nruleFiles: [rules]\n',
    'rules/slow.ts': rule(REPORTS, 'let n: number = 0;\nfor (let i = 0; i < 1e15; i++) n += i % 7;').replace("'acme/odd'", "'acme/slow'"),
    'rules/fine.mjs': rule(REPORTS),
    'pvc.yaml': PVC('data', 'shop'),
  });
  const { result: run, seconds } = timed(() => runPvlint(['--custom-rule-timeout', '1.5', '.'], { cwd: dir }));
  assert.is(run.code, 2, `exit ${run.code}: ${run.stdout}${run.stderr}`);
  assert.match(run.stderr, /rules\/slow\.ts:1:1: cannot load the rule module: the rule module did not finish loading within 1\.5 s/);
  assert.not.match(run.stderr, /fine\.mjs/, 'the rule that loads is not a problem');
  assert.ok(seconds < 20, `the run took ${seconds} s`);
});

test('the main thread never runs a rule module: one that loops only there loads and reports', () => {
  const dir = repo({
    '.pvlint.yaml': 'customRuleTimeout: 5\nruleFiles: [rules/main-only.mjs]\n',
    'rules/main-only.mjs': rule(REPORTS, "import { isMainThread } from 'node:worker_threads';\nif (isMainThread) for (;;) {}"),
    'pvc.yaml': PVC('data', 'shop'),
  });
  const run = runPvlint(['--format', 'json', '.'], { cwd: dir });
  assert.is(run.code, 1, `exit ${run.code}: ${run.stderr}`);
  const findings = JSON.parse(run.stdout).findings.filter((f: any) => f.ruleId === 'acme/odd');
  assert.equal(findings.map((f: any) => `${f.message} ${f.location.file}:${f.location.startLine}`), ['bad data pvc.yaml:7']);
});

test('--custom-rule-timeout is checked like customRuleTimeout: seconds above 0, at most 3600', () => {
  const dir = repo({ 'pvc.yaml': PVC('data', 'shop') });
  for (const value of ['0', '-1', 'abc', '', '3601', 'Infinity']) {
    const run = runPvlint([`--custom-rule-timeout=${value}`, '.'], { cwd: dir });
    assert.is(run.code, 2, `${value}: exit ${run.code}`);
    assert.match(run.stderr, /--custom-rule-timeout takes a number of seconds greater than 0, at most 3600/, value);
  }
  assert.is(runPvlint(['--custom-rule-timeout', '0.5', '.'], { cwd: dir }).code, 0, 'a fraction of a second is a timeout');
  assert.match(runPvlint(['--help'], { cwd: dir }).stdout, /--custom-rule-timeout <seconds>/);
});

test('--custom-rule-timeout sets the check deadline too, over the configuration key', () => {
  const dir = repo({ '.pvlint.yaml': 'customRuleTimeout: 3600\nruleFiles: [rules/loop.mjs]\n', 'rules/loop.mjs': rule('check() { for (;;) {} },'), 'pvc.yaml': PVC('data', 'shop') });
  const { result: run, seconds } = timed(() => runPvlint(['--format', 'json', '--custom-rule-timeout', '1', '.'], { cwd: dir }));
  assert.is(run.code, 2, `exit ${run.code}: ${run.stderr}`);
  const crash = JSON.parse(run.stdout).findings.find((f: any) => f.ruleId === 'pvlint/rule-crash');
  assert.match(crash?.message ?? '', /custom rule acme\/odd did not finish within 1 s/);
  assert.ok(seconds < 20, `the run took ${seconds} s`);
});

test('SIGINT while a check loops: the run ends at once (killed by SIGINT, 130 in a shell), not at the rule deadline', async () => {
  if (process.platform === 'win32') return;
  const dir = repo({
    '.pvlint.yaml': 'customRuleTimeout: 120\nruleFiles: [rules/loop.mjs]\n',
    'rules/loop.mjs': rule("check() { writeFileSync('checking', ''); for (;;) {} },", "import { writeFileSync } from 'node:fs';"),
    'pvc.yaml': PVC('data', 'shop'),
  });
  const child = spawn(process.execPath, [BIN, '.'], { cwd: dir, env: plainEnv(), stdio: 'ignore' });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const until = Date.now() + 30_000;
  while (!existsSync(path.join(dir, 'checking')) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(existsSync(path.join(dir, 'checking')), 'the check started');
  // The rule writes its file before it loops: give it a moment to be in the loop, with the main thread waiting.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const sent = Date.now();
  child.kill('SIGINT');
  const timeout = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const { code, signal } = await exited;
  clearTimeout(timeout);
  const seconds = (Date.now() - sent) / 1000;
  assert.ok(code === 130 || signal === 'SIGINT', `exit ${code} ${signal}`);
  assert.ok(seconds < 5, `pvlint ended ${seconds} s after SIGINT`);
});

test.run();
