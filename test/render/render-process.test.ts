// Renderer process handling that needs no real renderer: timeouts, refusing plugin flags, progress, errors.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint } from '../../src/lint.js';
import { UsageError } from '../../src/load/discover.js';
import { splitCommand } from '../../src/render/executables.js';
import { mapPool, ProcessSlots } from '../../src/render/pool.js';
import { renderAll } from '../../src/render/render-all.js';
import { SourceCache } from '../../src/render/source-cache.js';
import { cleanRendererMessage } from '../../src/render/rendered-scope.js';
import { at, copyFixture } from './helpers.js';

const test = suite('render: processes, timeouts and messages');

function script(body: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-fake-'));
  const file = path.join(dir, 'fake-kustomize');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

test('a render that outlives the timeout is stopped and reported at its root', async () => {
  const dir = copyFixture('kustomize/shop');
  const started = Date.now();
  const result = await lint({ paths: ['overlays/dev'], cwd: dir, rules: [], kustomizeCommand: script('/bin/sleep 30'), renderTimeoutMs: 300 });
  assert.ok(Date.now() - started < 10_000, 'the sleeping renderer was not killed');
  assert.is(result.fatal, true);
  assert.equal(result.findings.map((f) => `${f.ruleId} ${at(f)}`), ['pvlint/render overlays/dev/kustomization.yaml:1']);
  assert.match(result.findings[0].message, /did not finish rendering overlays\/dev within 0\.3 s/);
  assert.equal(result.findings[0].environments, ['overlays/dev']);
});

test('--kustomize-command may not enable plugins', async () => {
  const dir = copyFixture('kustomize/shop');
  for (const command of ['kustomize build --enable-alpha-plugins', 'kustomize build --enable-exec']) {
    try {
      await lint({ paths: ['overlays/dev'], cwd: dir, rules: [], kustomizeCommand: command });
      assert.unreachable(`accepted ${command}`);
    } catch (error) {
      assert.instance(error, UsageError);
    }
  }
});

test('--enable-helm is passed only when asked for; the wrapper is a temp dir', async () => {
  const dir = copyFixture('kustomize/shop');
  const log = path.join(mkdtempSync(path.join(os.tmpdir(), 'pvlint-log-')), 'argv');
  const fake = script(`printf '%s\\n' "$@" > '${log}'; /bin/cat "$2/kustomization.yaml" >> '${log}'`);
  const { readFileSync } = await import('node:fs');
  await lint({ paths: ['overlays/dev'], cwd: dir, rules: [], kustomizeCommand: `${fake} build` });
  const plain = readFileSync(log, 'utf8');
  assert.not.match(plain, /--enable-helm/);
  assert.match(plain, /^build\n\/.*pvlint-[^/\n]+\n/);
  assert.match(plain, /resources:\n {2}- "(\.\.\/)+.*overlays\/dev"\nbuildMetadata: \[originAnnotations\]/);
  await lint({ paths: ['overlays/dev'], cwd: dir, rules: [], kustomizeCommand: `${fake} build`, enableHelm: true });
  assert.match(readFileSync(log, 'utf8'), /--enable-helm/);
});

test('a renderer that is not installed is reported once for all roots', async () => {
  const dir = copyFixture('kustomize/shop');
  const result = await lint({ paths: ['overlays/dev', 'overlays/prod'], cwd: dir, rules: [], kustomizeCommand: '/nonexistent/kustomize build' });
  assert.is(result.fatal, true);
  assert.equal(result.findings.map((f) => f.ruleId), ['pvlint/render']);
  assert.match(result.findings[0].message, /\/nonexistent\/kustomize \(the configured kustomize command\) was not found: 2 Kustomize roots not rendered/);
});

test('progress is reported once per render', async () => {
  const dir = copyFixture('kustomize/shop');
  const calls: string[] = [];
  await lint({ paths: ['overlays/dev', 'overlays/prod'], cwd: dir, rules: [], kustomizeCommand: script('exit 0'), onProgress: (done, total, label) => calls.push(`${done}/${total} ${label}`) });
  assert.equal(calls.map((c) => c.split(' ')[0]), ['1/2', '2/2']);
  assert.equal(calls.map((c) => c.split(' ')[1]).sort(), ['overlays/dev', 'overlays/prod']);
});

test('the pool never runs more than its limit at once', async () => {
  let running = 0;
  let peak = 0;
  const results = await mapPool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5 * (n % 3)));
    running--;
    return n * 2;
  });
  assert.equal(results, [2, 4, 6, 8, 10, 12, 14]);
  assert.is(peak, 3);
});

test('process slots: at most N tasks at once, FIFO, and a failing task frees its slot', async () => {
  const slots = new ProcessSlots(2);
  let running = 0;
  let peak = 0;
  const order: number[] = [];
  const task = (n: number) => slots.run(async () => {
    running++;
    peak = Math.max(peak, running);
    order.push(n);
    await new Promise((r) => setTimeout(r, 5));
    running--;
    if (n === 1) throw new Error('boom');
    return n;
  });
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map(task));
  assert.is(peak, 2);
  assert.equal(order, [1, 2, 3, 4, 5]);
  assert.equal(results.map((r) => r.status), ['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
});

test('renders prepare and read their output outside the renderer slots: never more renderers at once than the concurrency', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-slots-'));
  const { mkdirSync, readFileSync } = await import('node:fs');
  const roots = ['a', 'b', 'c', 'd', 'e'].map((name) => {
    const root = path.join(dir, name);
    mkdirSync(root);
    writeFileSync(path.join(root, 'kustomization.yaml'), 'resources: []\n');
    return root;
  });
  const log = path.join(dir, 'log');
  // Each renderer logs when it starts and ends (short appends to one file do not interleave), so overlaps are counted exactly.
  const fake = script(`echo "+ $$" >> '${log}'; /bin/sleep 0.2; echo "- $$" >> '${log}'; printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: x\\n'`);
  const outcome = await renderAll(new SourceCache(dir), roots, [], { kustomizeCommand: `${fake} build`, concurrency: 2 }, dir);
  assert.is(outcome.scopes.length, 5);
  let running = 0;
  let peak = 0;
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    running += line.startsWith('+') ? 1 : -1;
    peak = Math.max(peak, running);
  }
  assert.is(peak, 2, 'two renderers ran at once, never three');
  assert.is(running, 0);
});

test('cleanRendererMessage unwraps kubectl klog lines and hides temp paths', () => {
  const stderr = 'E1129 10:33:58.057053   12690 run.go:72] "command failed" err="accumulating resources: \\"/tmp/pvlint-x/../repo/base\\" not found"';
  assert.is(cleanRendererMessage(stderr, [['/tmp/pvlint-x/../repo/', '']]), 'accumulating resources: "base" not found');
  assert.is(cleanRendererMessage('Error: something broke\n'), 'something broke');
});

test('splitCommand honours quotes and never involves a shell', () => {
  assert.equal(splitCommand('kustomize build --load-restrictor "LoadRestrictionsNone"'), ['kustomize', 'build', '--load-restrictor', 'LoadRestrictionsNone']);
  assert.equal(splitCommand("'/opt/my tools/kubectl' kustomize"), ['/opt/my tools/kubectl', 'kustomize']);
});

test.run();
