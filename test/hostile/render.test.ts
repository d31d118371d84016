// The render side: kustomizations that include themselves or each other, renderers that print without end or
// never finish. Each is a pvlint/render finding at its kustomization.yaml or Chart.yaml; nothing hangs.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { at, caseDir, lintBeside, only, writeIn } from './helpers.js';

const test = suite('hostile renders');

/** An executable script in a fresh directory. */
function script(name: string, body: string): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'pvlint-fake-'));
  const file = path.join(bin, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

test('a kustomization that includes itself is pvlint/render (kustomize reports the cycle); nothing hangs', async () => {
  if (!HAS_KUSTOMIZE) return warnSkipped('self-including kustomization');
  const dir = caseDir();
  writeIn(dir, 'self/kustomization.yaml', 'resources:\n  - .\n');
  const result = await lintBeside(dir, ['self']);
  const render = only(result, 'self/kustomization.yaml', 'pvlint/render');
  // At the entry that includes itself.
  assert.is(at(render), 'self/kustomization.yaml:2');
  assert.match(render.message, /cycle/);
  assert.ok(result.fatal);
});

test('two kustomizations that include each other are still rendered (once), so the cycle is reported, not hidden', async () => {
  if (!HAS_KUSTOMIZE) return warnSkipped('mutually including kustomizations');
  const dir = caseDir();
  writeIn(dir, 'cycle/a/kustomization.yaml', 'resources:\n  - ../b\n');
  writeIn(dir, 'cycle/b/kustomization.yaml', 'resources:\n  - ../a\n');
  const result = await lintBeside(dir, ['cycle']);
  assert.match(only(result, 'cycle/a/kustomization.yaml', 'pvlint/render').message, /cycle/);
});

test('a renderer that prints without end is stopped at maxRenderOutputBytes', async () => {
  const dir = caseDir();
  writeIn(dir, 'endless/kustomization.yaml', 'resources: []\n');
  const endless = script('kustomize', 'exec yes "apiVersion: v1"');
  const start = Date.now();
  const result = await lintBeside(dir, ['endless'], { kustomizeCommand: endless, limits: { maxRenderOutputBytes: 1024 * 1024 } });
  const render = only(result, 'endless/kustomization.yaml', 'pvlint/render');
  assert.match(render.message, /printed more than 1 MiB .*maxRenderOutputBytes/);
  assert.ok(Date.now() - start < 20_000, `took ${Date.now() - start} ms`);
});

test('a Helm chart whose template loops: the output limit, or the render timeout, stops it', async () => {
  const dir = caseDir();
  writeIn(dir, 'chart/Chart.yaml', 'apiVersion: v2\nname: loop\nversion: 0.1.0\n');
  const printing = script('helm', 'exec yes "kind: ConfigMap"');
  const printed = await lintBeside(dir, ['chart'], { helmCommand: printing, limits: { maxRenderOutputBytes: 1024 * 1024 } });
  assert.match(only(printed, 'chart/Chart.yaml', 'pvlint/render').message, /helm template printed more than 1 MiB/);
  const silent = script('helm', 'exec sleep 30');
  const start = Date.now();
  const waited = await lintBeside(dir, ['chart'], { helmCommand: silent, renderTimeoutMs: 500 });
  assert.match(only(waited, 'chart/Chart.yaml', 'pvlint/render').message, /did not finish rendering .* within 0.5 s/);
  assert.ok(Date.now() - start < 15_000, `took ${Date.now() - start} ms`);
});

test('rendered output is parsed with the same limits: a too-deep document from a renderer is reported, not a crash', async () => {
  const dir = caseDir();
  writeIn(dir, 'deep/Chart.yaml', 'apiVersion: v2\nname: deep\nversion: 0.1.0\n');
  const output = writeIn(dir, 'deep-output.txt', `---\n# Source: deep/templates/cm.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
  const helm = script('helm', `cat '${output}'`);
  const result = await lintBeside(dir, ['deep'], { helmCommand: helm });
  assert.match(only(result, 'deep/Chart.yaml', 'pvlint/render').message, /maxDepth/);
});

test.run();
