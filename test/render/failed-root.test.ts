// A root that fails to render (helmCharts without --enable-helm) hides nothing: the roots it includes are
// rendered and linted on their own, and the render error points at the helmCharts entry with its cause kept.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { cleanRendererMessage } from '../../src/render/rendered-scope.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, HAS_KUSTOMIZE, warnSkipped } from './helpers.js';

const test = suite('render: a failed root leaves its children linted');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('failed-root tests');

let dir: string;
let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  dir = copyFixture('kustomize/failed-root');
  result = await lint({ paths: ['overlay'], cwd: dir });
});

it('the render error points at the helmCharts entry and keeps the cause', () => {
  const render = result.findings.filter((f) => f.ruleId === 'pvlint/render');
  assert.is(render.length, 1);
  assert.is(at(render[0]), 'overlay/kustomization.yaml:7');
  assert.match(render[0].message, /must specify --enable-helm/);
  assert.ok(render[0].related.some((r) => r.message.includes('the roots it includes are linted on their own')));
});

it('the included roots are environments of their own, and their problems are found', () => {
  assert.equal(result.scopes.map((s) => s.name).sort(), ['apps/db', 'apps/web']);
  const multiAttach = result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node');
  assert.is(at(multiAttach), 'apps/web/deployment.yaml:6');
});

it('a class the claim\'s environment lacks but another defines is assumed, and the assumption is stated', () => {
  const assumption = result.notInterpreted?.find((e) => e.environment === 'apps/db' && e.name === 'gp3');
  assert.ok(assumption, JSON.stringify(result.notInterpreted));
  assert.is(`${assumption!.file}:${assumption!.line}`, 'apps/web/claim.yaml:16');
  assert.match(assumption!.reason, /^assumption: StorageClass "gp3" is defined in apps\/web\/claim\.yaml, which no environment containing this object includes/);
  assert.not.ok(result.findings.some((f) => f.ruleId === 'pvc-unknown-storageclass'));
});

it('CLI: exit 2 (a render failed) with the children\'s findings printed', () => {
  const run = runPvlint(['overlay', '--format', 'json'], { cwd: dir });
  assert.is(run.code, 2, run.stderr);
  const report: any = JSON.parse(run.stdout);
  assert.ok(report.findings.some((f: any) => f.ruleId === 'rwo-claim-multi-node'));
});

test('a long renderer message is shortened in the middle: the cause at its end stays', () => {
  const chain = Array.from({ length: 40 }, (_, i) => `accumulating resources from 'level-${i}'`).join(': ');
  const message = cleanRendererMessage(`Error: ${chain}: the real cause`);
  assert.ok(message.length < 1500);
  assert.match(message, /^accumulating resources from 'level-0'/);
  assert.match(message, /the real cause$/);
});

test('kubectl\'s multi-line klog error (err=< … >) is unwrapped', () => {
  const stderr = 'E1201 15:21:58.460950   32422 run.go:72] "command failed" err=<\n\ttrouble configuring builtin PatchTransformer\n\tlstat /tmp/x.yaml: no such file or directory\n >\n';
  assert.is(cleanRendererMessage(stderr), 'trouble configuring builtin PatchTransformer | lstat /tmp/x.yaml: no such file or directory');
});

test.run();
