// Everything pvlint reads is bounded, whoever names it: the files a kustomization names when `--cache` hashes a
// build's inputs (a FIFO, /dev/zero), the configuration file (`-c /dev/zero`), standard input that never ends, and a
// render timeout too large for a timer.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { BIN } from '../helpers/paths.js';
import { runPvlint } from '../helpers/spawn.js';
import { caseDir, lintIn, writeIn } from './helpers.js';

const test = suite('bounded reads');

const PVC = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n';

function hasMkfifo(): boolean {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('--cache with a kustomization naming a FIFO and /dev/zero: the render key never reads them, the render times out or fails', async () => {
  if (!HAS_KUSTOMIZE) return warnSkipped('kustomization naming a FIFO');
  if (!hasMkfifo()) return warnSkipped('kustomization naming a FIFO (no mkfifo)');
  const dir = caseDir();
  writeIn(dir, 'fifo/pvc.yaml', PVC);
  execFileSync('mkfifo', [path.join(dir, 'fifo', 'pipe.yaml')]);
  writeIn(dir, 'fifo/kustomization.yaml', 'resources:\n  - pvc.yaml\n  - pipe.yaml\n');
  writeIn(dir, 'zero/pvc.yaml', PVC);
  writeIn(dir, 'zero/kustomization.yaml', `resources:\n  - pvc.yaml\n  - ${'../'.repeat(20)}dev/zero\n`);
  const started = Date.now();
  const result = await lintIn(dir, ['fifo', 'zero'], { cacheLocation: path.join(dir, '.cache'), renderTimeoutMs: 4_000 });
  assert.ok(Date.now() - started < 60_000, `took ${Date.now() - started} ms`);
  const renders = result.findings.filter((f) => f.ruleId === 'pvlint/render').map((f) => f.location.file);
  assert.ok(renders.includes('fifo/kustomization.yaml'), renders.join(', '));
  assert.ok(renders.includes('zero/kustomization.yaml'), renders.join(', '));
});

test('-c /dev/zero: a configuration error at once, not an endless read', () => {
  const dir = caseDir();
  const run = runPvlint(['-c', '/dev/zero', 'good.yaml'], { cwd: dir });
  assert.is(run.code, 2);
  assert.match(run.stderr, /not a regular file/);
});

test('an endless standard input (yes | pvlint -) ends with the size limit finding', () => {
  const dir = caseDir();
  const run = spawnSync('sh', ['-c', `yes | "${process.execPath}" "${BIN}" -`], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  assert.is(run.status, 1, `exit ${run.status}, signal ${run.signal}`);
  assert.match(run.stdout, /standard input is larger than the 16 MiB limit/);
});

test('--render-timeout 1e10 is a long deadline, not an immediate one', () => {
  if (!HAS_KUSTOMIZE) return warnSkipped('--render-timeout 1e10');
  const dir = caseDir();
  writeIn(dir, 'app/pvc.yaml', PVC);
  writeIn(dir, 'app/kustomization.yaml', 'resources:\n  - pvc.yaml\n');
  const run = runPvlint(['--render-timeout', '1e10', '--format', 'json', 'app'], { cwd: dir });
  assert.not.match(run.stdout, /did not finish rendering/);
  assert.is(JSON.parse(run.stdout).summary.resources, 1, run.stderr);
});

test('a UTF-32 file is reported as UTF-32, not UTF-16', async () => {
  const dir = caseDir();
  const text = 'apiVersion: v1\n';
  const utf32 = Buffer.alloc(4 + text.length * 4);
  utf32.writeUInt32LE(0xfeff, 0);
  [...text].forEach((c, i) => utf32.writeUInt32LE(c.codePointAt(0)!, 4 + i * 4));
  writeIn(dir, 'wide.yaml', utf32);
  const result = await lintIn(dir, ['wide.yaml']);
  const read = result.findings.find((f) => f.ruleId === 'pvlint/read');
  assert.match(read?.message ?? '', /UTF-32/);
});

test.run();
