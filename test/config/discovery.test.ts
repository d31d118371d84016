// Which configuration a run uses: the nearest one from each path argument upwards, else from the working
// directory; never one above the repository root; `--debug` and the JSON report say which. And `--base` from a
// working directory outside the repository.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint, tempTree } from '../helpers/spawn.js';
import { repo } from './helpers.js';
import { MISSING_CLAIM } from '../helpers/manifests.js';

const discovery = suite('configuration discovery');

const OFF = 'rules:\n  pod-missing-pvc: off\n';

const ids = (stdout: string) => JSON.parse(stdout).findings.map((f: { ruleId: string }) => f.ruleId);

discovery('a configuration found from the path argument applies, from the repository root and from outside it', () => {
  const dir = repo({ 'apps/.pvlint.yaml': OFF, 'apps/deploy.yaml': MISSING_CLAIM, 'other/deploy.yaml': MISSING_CLAIM });
  const fromRoot = runPvlint(['-f', 'json', '--debug', 'apps'], { cwd: dir });
  assert.is(fromRoot.code, 0, fromRoot.stderr);
  assert.not.ok(ids(fromRoot.stdout).includes('pod-missing-pvc'));
  assert.match(fromRoot.stderr, /^pvlint: configuration: apps\/\.pvlint\.yaml$/m);
  assert.equal(JSON.parse(fromRoot.stdout).configuration, { file: 'apps/.pvlint.yaml' });
  // A file argument searches from its directory.
  assert.not.ok(ids(runPvlint(['-f', 'json', 'apps/deploy.yaml'], { cwd: dir }).stdout).includes('pod-missing-pvc'));
  // From outside the repository.
  const outside = runPvlint(['-f', 'json', path.join(dir, 'apps')], { cwd: path.dirname(dir) });
  assert.not.ok(ids(outside.stdout).includes('pod-missing-pvc'), outside.stderr);
  // The other directory has none: the finding is there, and JSON says no configuration applied.
  const other = runPvlint(['-f', 'json', '--debug', 'other'], { cwd: dir });
  assert.ok(ids(other.stdout).includes('pod-missing-pvc'));
  assert.is(JSON.parse(other.stdout).configuration, null);
  assert.match(other.stderr, /^pvlint: configuration: none found/m);
});

discovery('the nearest wins: a path under its own configuration beats the one of the working directory', () => {
  const dir = repo({ '.pvlint.yaml': 'rules:\n  pod-missing-pvc: error\n', 'apps/.pvlint.yaml': OFF, 'apps/deploy.yaml': MISSING_CLAIM });
  const run = runPvlint(['-f', 'json', 'apps'], { cwd: dir });
  assert.is(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).configuration, { file: 'apps/.pvlint.yaml' });
});

discovery('paths under different configurations: a usage error naming both', () => {
  const dir = repo({ 'a/.pvlint.yaml': OFF, 'a/deploy.yaml': MISSING_CLAIM, 'b/.pvlint.yaml': OFF, 'b/deploy.yaml': MISSING_CLAIM });
  const run = runPvlint(['a', 'b'], { cwd: dir });
  assert.is(run.code, 2);
  assert.match(run.stderr, /different configuration files \(a → a\/\.pvlint\.yaml, b → b\/\.pvlint\.yaml\)/);
  // --config settles it.
  assert.is(runPvlint(['--config', 'a/.pvlint.yaml', 'a', 'b'], { cwd: dir }).code, 0);
});

discovery('the search stops at the repository root: a configuration above it never applies', () => {
  const outer = tempTree({ '.pvlint.yaml': OFF });
  const inner = path.join(outer, 'repo');
  mkdirSync(path.join(inner, '.git'), { recursive: true });
  writeFileSync(path.join(inner, 'deploy.yaml'), MISSING_CLAIM);
  const run = runPvlint(['-f', 'json', '.'], { cwd: inner });
  assert.ok(ids(run.stdout).includes('pod-missing-pvc'), run.stderr);
  assert.is(JSON.parse(run.stdout).configuration, null);
  const fromOuter = runPvlint(['-f', 'json', 'repo'], { cwd: outer });
  assert.ok(ids(fromOuter.stdout).includes('pod-missing-pvc'), 'the path argument is inside the repo: the outer file stays out');
});

discovery('--base works from a working directory outside the repository', () => {
  const dir = tempTree({
    'repo/k8s/pvc.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: app}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: standard\n  resources: {requests: {storage: 2Gi}}\n',
    'repo/k8s/pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: app}\nspec:\n  containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]\n  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]\n',
  });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: path.join(dir, 'repo') });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'base');
  writeFileSync(path.join(dir, 'repo/k8s/pvc.yaml'), execFileSync('sed', ['s/2Gi/1Gi/', path.join(dir, 'repo/k8s/pvc.yaml')]));
  const inside = runPvlint(['-f', 'json', '--base', 'HEAD', '--new-only', 'k8s'], { cwd: path.join(dir, 'repo') });
  const outside = runPvlint(['-f', 'json', '--base', 'HEAD', '--new-only', 'repo/k8s'], { cwd: dir });
  assert.is(outside.code, inside.code, outside.stderr);
  assert.equal(ids(outside.stdout), ids(inside.stdout));
  assert.ok(ids(outside.stdout).includes('pvc-resize-rejected'), outside.stdout);
});

discovery.run();
