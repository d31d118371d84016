// Hostile configurations and manifests that used to end in "internal error": bad suppression globs are
// configuration errors, a ReDoS-shaped glob against a long name is fast, and YAML tags and odd names
// (`constructor`, `toString`, `__proto__`) are findings at most.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint } from '../helpers/spawn.js';
import { caseDir, lintBeside, writeIn } from './helpers.js';
import { taggedClaims } from './generators.js';

const test = suite('hostile configuration and values');

test('suppression paths ["[z-a]"]: a configuration error (exit 2) naming the pattern, no internal error', () => {
  const dir = caseDir();
  writeIn(dir, '.pvlint.yaml', 'suppress:\n  - rules: [all]\n    paths: ["[z-a]"]\n    reason: test\n');
  const run = runPvlint(['good.yaml'], { cwd: dir });
  assert.is(run.code, 2, run.stderr);
  assert.not.match(run.stderr, /internal error/);
  assert.match(run.stderr, /\[z-a\].*backwards/);
});

test('a suppression glob "*-*-*-*-*-cache" against a 252-character name takes well under a second', () => {
  const dir = caseDir();
  const name = `${'a-'.repeat(125)}x`.slice(0, 252);
  writeIn(dir, 'claim.yaml', `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ${name}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Xi\n`);
  writeIn(dir, '.pvlint.yaml', 'suppress:\n  - rules: [all]\n    resource: {name: "*-*-*-*-*-cache"}\n    reason: test\n');
  const started = Date.now();
  const run = runPvlint(['claim.yaml'], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
});

test('every YAML tag in labels, accessModes, storageClassName and storage: findings, never a crash', async () => {
  const dir = caseDir();
  writeIn(dir, 'tags.yaml', taggedClaims());
  const result = await lintBeside(dir, ['tags.yaml']);
  assert.ok(result.findings.some((f) => f.location.file === 'tags.yaml'));
  const run = runPvlint(['tags.yaml'], { cwd: dir });
  assert.not.match(run.stderr, /internal error/);
  assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
});

test('a CSIDriver named constructor, a provisioner toString, a label __proto__: read as the names they are', async () => {
  const dir = caseDir();
  writeIn(
    dir,
    'names.yaml',
    [
      'apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata:\n  name: constructor\nspec: {}\n',
      'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: sc\n  labels: {__proto__: x}\nprovisioner: toString\n',
      'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: sc2\nprovisioner: hasOwnProperty\nparameters: {constructor: x, __proto__: y}\n',
    ].join('---\n'),
  );
  const result = await lintBeside(dir, ['names.yaml']);
  const mine = result.findings.filter((f) => f.location.file === 'names.yaml');
  assert.not.ok(mine.some((f) => /native code|in-tree provisioner (toString|hasOwnProperty)/.test(f.message)), mine.map((f) => f.message).join('\n'));
});

test('--kustomize-command through a shell, or with a plugin flag inside a string, is refused (exit 2)', () => {
  const dir = caseDir();
  writeIn(dir, 'app/kustomization.yaml', 'resources: []\n');
  for (const command of ["sh -c 'kustomize build --enable-exec .'", "bash -c 'kustomize build .'", 'env kustomize build --enable-alpha-plugins']) {
    const run = runPvlint(['--kustomize-command', command, 'app'], { cwd: dir });
    assert.is(run.code, 2, `${command}: exit ${run.code} ${run.stderr}`);
    assert.match(run.stderr, /--kustomize-command must/);
  }
});

test.run();
