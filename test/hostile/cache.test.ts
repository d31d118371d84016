// A crafted --cache file cannot change a result: one that says a bad file holds nothing (a committed
// node_modules/.cache/pvlint/cache.bin, or one left in a shared directory) is not signed with the user's key and is
// ignored; the cache is written through a fresh O_EXCL file, never through a planted symbolic link.
import { lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAC_BYTES } from '../../src/cache/cache-key.js';
import { caseDir, lintIn, writeIn } from './helpers.js';
import { invalidClaims } from './generators.js';

const test = suite('hostile cache');

test('a cache file whose entries were rewritten (empty records for every file) is ignored', async () => {
  const dir = caseDir();
  writeIn(dir, 'claims.yaml', invalidClaims(3));
  const cache = path.join(dir, 'cache');
  const honest = await lintIn(dir, ['claims.yaml'], { cacheLocation: cache });
  assert.ok(honest.findings.length >= 3);
  const file = path.join(cache, 'cache.bin');
  const signed = readFileSync(file);
  const stored = deserialize(signed.subarray(MAC_BYTES)) as { entries: Map<string, unknown> };
  for (const key of stored.entries.keys()) if (key.startsWith('parse:')) stored.entries.set(key, { run: 1, inline: [3, 0] });
  const forged = serialize(stored);
  // The old signature on the new content, and the new content alone (no signature at all).
  for (const crafted of [Buffer.concat([signed.subarray(0, MAC_BYTES), forged]), forged]) {
    writeFileSync(file, crafted);
    const again = await lintIn(dir, ['claims.yaml'], { cacheLocation: cache });
    assert.equal(again.findings.map((f) => f.message), honest.findings.map((f) => f.message));
    assert.is(again.cache?.hits, 0);
  }
});

test('a symbolic link planted where the cache writes is not written through; a shared cache directory is refused', async () => {
  const dir = caseDir();
  const cache = path.join(dir, 'cache');
  mkdirSync(cache, { mode: 0o700 });
  const victim = path.join(dir, 'victim.txt');
  writeFileSync(victim, 'untouched');
  symlinkSync(victim, path.join(cache, 'cache.bin'));
  const result = await lintIn(dir, ['good.yaml'], { cacheLocation: cache });
  assert.is(result.cache?.writeError, undefined);
  assert.is(readFileSync(victim, 'utf8'), 'untouched');
  assert.not.ok(lstatSync(path.join(cache, 'cache.bin')).isSymbolicLink(), 'the link was replaced, its target untouched');
  assert.equal(readdirSync(cache).filter((f) => f.endsWith('.tmp')), []);
  const shared = path.join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  const refused = await lintIn(dir, ['good.yaml'], { cacheLocation: shared });
  assert.match(refused.cache?.writeError ?? '', /not private/);
});

const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const patchNaming = (storageClass: string) =>
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: shop}\nspec: {storageClassName: ${storageClass}}\n`;
const patchTransformer = (patchPath: string) => `apiVersion: builtin\nkind: PatchTransformer\nmetadata: {name: p}\npath: ${patchPath}\n`;

// Files named only inside a builtin plugin's configuration (kustomize reads them relative to the kustomization).
const PLUGIN_LAYOUTS: Record<string, Record<string, string>> = {
  'a transformers: file': { 'kustomization.yaml': 'resources: [claim.yaml]\ntransformers: [config/patch-transformer.yaml]\n', 'config/patch-transformer.yaml': patchTransformer('sub/patch.yaml') },
  'an inline transformers: configuration': {
    'kustomization.yaml': `resources: [claim.yaml]\ntransformers:\n- |\n${patchTransformer('sub/patch.yaml').replace(/^/gm, '  ')}`,
  },
  'a transformers: kustomization directory': {
    'kustomization.yaml': 'resources: [claim.yaml]\ntransformers: [plugins]\n',
    'plugins/kustomization.yaml': 'resources: [patch-transformer.yaml]\n',
    'plugins/patch-transformer.yaml': patchTransformer('sub/patch.yaml'),
  },
};

for (const [layout, files] of Object.entries(PLUGIN_LAYOUTS)) {
  test(`--cache renders again when a file named by ${layout} changes`, async () => {
    const dir = caseDir();
    writeIn(dir, 'claim.yaml', CLAIM);
    for (const [name, content] of Object.entries(files)) writeIn(dir, name, content);
    const cache = path.join(dir, '.pvlint-cache');
    const classes = (r: Awaited<ReturnType<typeof lintIn>>) => r.findings.map((f) => f.message).filter((m) => m.includes('class-')).sort();
    writeIn(dir, 'sub/patch.yaml', patchNaming('class-before'));
    const before = await lintIn(dir, ['kustomization.yaml'], { cacheLocation: cache });
    assert.ok(classes(before).some((m) => m.includes('class-before')), `the patch applies: ${classes(before)}`);
    writeIn(dir, 'sub/patch.yaml', patchNaming('class-after'));
    const cached = await lintIn(dir, ['kustomization.yaml'], { cacheLocation: cache });
    const fresh = await lintIn(dir, ['kustomization.yaml']);
    assert.ok(classes(fresh).some((m) => m.includes('class-after')));
    assert.equal(classes(cached), classes(fresh), 'the cached run served the old render');
  });
}

test.run();
