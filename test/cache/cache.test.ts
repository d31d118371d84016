// `--cache`: a warm run finds exactly what a run without the cache finds, whatever changed in between.
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LintCache } from '../../src/cache/lint-cache.js';
import { lint, type LintOptions, type LintResult } from '../../src/lint.js';
import { findOnPath } from '../../src/render/executables.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { requires } from '../helpers/requires.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';

const HAS_KUSTOMIZE = Boolean(findOnPath('kubectl') || findOnPath('kustomize'));
/** The tests of cached Kustomize renders: skipped (and counted so) without kustomize or kubectl. */
const withKustomize = requires(test, HAS_KUSTOMIZE, 'the cache tests of Kustomize renders', 'neither kustomize nor kubectl is on PATH, so real overlays cannot be rendered', 'install kubectl (its kustomize) or kustomize');

/** A copy of the examples in a fresh directory, with a cache directory beside it. */
function workspace(): { dir: string; cache: string } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'pvlint-cache-'));
  const dir = path.join(base, 'repo');
  cpSync(path.join(PROJECT_ROOT, 'examples'), dir, { recursive: true });
  return { dir, cache: path.join(base, 'cache') };
}

async function run(dir: string, extra: Partial<LintOptions> = {}): Promise<LintResult> {
  return lint({ paths: ['.'], cwd: dir, root: dir, skipMissingRenderers: true, ...extra });
}

/** Everything a report shows, so a cached run must equal an uncached one byte for byte. */
function view(result: LintResult): string {
  return JSON.stringify({ findings: result.findings, suppressed: result.suppressed, fatal: result.fatal, scopes: result.scopes, stats: result.stats });
}

test('a warm run finds exactly what a cold run and a run without cache find, from the cache', async () => {
  const { dir, cache } = workspace();
  const none = await run(dir);
  const cold = await run(dir, { cacheLocation: cache });
  const warm = await run(dir, { cacheLocation: cache });
  assert.ok(none.findings.length > 50);
  assert.is(view(cold), view(none));
  assert.is(view(warm), view(none));
  assert.is(cold.cache?.hits, 0);
  assert.ok(cold.cache!.misses > 20);
  assert.is(warm.cache?.misses, 0, 'nothing changed: every file and render comes from the cache');
  assert.is(warm.cache?.hits, cold.cache?.misses);
  assert.ok(existsSync(path.join(cache, 'cache.bin')));
});

test('a changed file is parsed again, even with its old size and modification time', async () => {
  const { dir, cache } = workspace();
  await run(dir, { cacheLocation: cache });
  const file = path.join(dir, 'plain', 'multi-attach.yaml');
  const before = readFileSync(file, 'utf8');
  const { atime, mtime } = statSync(file);
  // Same length: ReadWriteOnce -> ReadWriteMany changes a finding, not the size.
  const after = before.replace(/ReadWriteOnce/g, 'ReadWriteMany');
  assert.is.not(after, before);
  assert.is(after.length, before.length);
  writeFileSync(file, after);
  utimesSync(file, atime, mtime);
  const warm = await run(dir, { cacheLocation: cache });
  const fresh = await run(dir);
  assert.is(view(warm), view(fresh));
  assert.is(warm.cache?.misses, 1);
});

test('a file changed back to an earlier content gets that content\'s findings', async () => {
  const { dir, cache } = workspace();
  const file = path.join(dir, 'plain', 'multi-attach.yaml');
  const original = readFileSync(file, 'utf8');
  const first = await run(dir, { cacheLocation: cache });
  writeFileSync(file, original.replace(/ReadWriteOnce/g, 'ReadWriteMany'));
  const changed = await run(dir, { cacheLocation: cache });
  assert.is.not(view(changed), view(first));
  writeFileSync(file, original);
  const back = await run(dir, { cacheLocation: cache });
  assert.is(view(back), view(first));
});

withKustomize('a change in a Kustomize base renders the overlays again', async () => {
  const { dir, cache } = workspace();
  const cold = await run(dir, { cacheLocation: cache });
  assert.ok(cold.scopes.some((s) => s.kind === 'kustomize'));
  const base = path.join(dir, 'kustomize', 'base');
  // The base claim becomes ReadWriteMany on an EBS class: a finding in every overlay.
  const pvc = path.join(base, 'pvc.yaml');
  writeFileSync(pvc, readFileSync(pvc, 'utf8').replace('[ReadWriteOnce]', '[ReadWriteMany]'));
  const warm = await run(dir, { cacheLocation: cache });
  const fresh = await run(dir);
  assert.is.not(view(fresh), view(cold), 'the edit changes what pvlint finds');
  assert.is(view(warm), view(fresh));
  assert.ok(warm.cache!.misses >= 1);
  // A file next to the kustomization that no entry names is an input too (a generator may read it).
  writeFileSync(path.join(base, 'notes.txt'), 'not referenced\n');
  const again = await run(dir, { cacheLocation: cache });
  assert.is(view(again), view(fresh));
});

test('a corrupt, truncated or foreign cache file is ignored and replaced', async () => {
  const { dir, cache } = workspace();
  const none = await run(dir);
  await run(dir, { cacheLocation: cache });
  const file = path.join(cache, 'cache.bin');
  const good = readFileSync(file);
  for (const broken of [Buffer.from('not a cache'), good.subarray(0, Math.floor(good.length / 2)), Buffer.alloc(0)]) {
    writeFileSync(file, broken);
    const result = await run(dir, { cacheLocation: cache });
    assert.is(view(result), view(none));
    assert.is(result.cache?.hits, 0);
    assert.ok(statSync(file).size > 1000, 'rewritten');
  }
});

test('a cache made with other kinds or limits is not used', async () => {
  const { dir, cache } = workspace();
  await run(dir, { cacheLocation: cache });
  const all = await run(dir, { cacheLocation: cache, parseAllDocuments: true });
  assert.is(all.cache?.hits, 0);
  assert.is(view(all), view(await run(dir, { parseAllDocuments: true })));
  const limited = await run(dir, { cacheLocation: cache, limits: { maxDepth: 5 } });
  assert.is(limited.cache?.hits, 0);
  assert.is(view(limited), view(await run(dir, { limits: { maxDepth: 5 } })));
});

test('entries of files that are gone age out', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-cache-age-'));
  const first = LintCache.open(dir, 'ctx');
  first.set('parse', 'gone', { a: 1 });
  first.set('parse', 'kept', { b: 2 });
  first.save();
  for (let i = 0; i < 6; i++) {
    const next = LintCache.open(dir, 'ctx');
    assert.equal(next.get('parse', 'kept'), { b: 2 });
    next.save();
  }
  const last = LintCache.open(dir, 'ctx');
  assert.is(last.get('parse', 'gone'), undefined);
  assert.equal(last.get('parse', 'kept'), { b: 2 });
  assert.is(LintCache.open(dir, 'other context').get('parse', 'kept'), undefined);
});

test('a value changed after it was stored does not change the cache', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-cache-copy-'));
  const cache = LintCache.open(dir, 'ctx');
  const value = { metadata: { annotations: { 'config.kubernetes.io/origin': 'x' } }, n: Number.NaN, big: -0 };
  cache.set('parse', 'k', value);
  delete (value.metadata.annotations as any)['config.kubernetes.io/origin'];
  cache.save();
  const read = LintCache.open(dir, 'ctx').get<typeof value>('parse', 'k')!;
  assert.is(read.metadata.annotations['config.kubernetes.io/origin'], 'x');
  assert.ok(Number.isNaN(read.n), 'NaN survives (JSON would make it null)');
  assert.ok(Object.is(read.big, -0));
});

test('the CLI: --cache keeps the cache in node_modules/.cache/pvlint at the repository root; --cache-location elsewhere', () => {
  const dir = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', 'apps/pvc.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: app}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n' });
  const cold = runPvlint(['--cache', '-f', 'json', '.'], { cwd: path.join(dir, 'apps') });
  const warm = runPvlint(['--cache', '-f', 'json', '.'], { cwd: path.join(dir, 'apps') });
  assert.is(cold.code, warm.code, warm.stderr);
  assert.is(warm.stdout, cold.stdout);
  assert.ok(existsSync(path.join(dir, 'node_modules', '.cache', 'pvlint', 'cache.bin')), 'under the repository root');
  const elsewhere = path.join(dir, 'elsewhere');
  const located = runPvlint(['--cache-location', elsewhere, '-f', 'json', '.'], { cwd: dir });
  assert.is(located.stdout.length > 0, true, located.stderr);
  assert.ok(existsSync(path.join(elsewhere, 'cache.bin')));
});

test.run();
