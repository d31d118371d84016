// The configuration as a user meets it through the binary: where it is found, what wins (flag > file > default),
// and `pvlint init`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPvlint } from '../helpers/spawn.js';
import { repo } from './helpers.js';

const test = suite('cli configuration');

/** A Deployment mounting a claim that is not in the repo: a pod-missing-pvc note (an error with bundleComplete). */
const MISSING_CLAIM = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
      volumes:
        - name: d
          persistentVolumeClaim:
            claimName: elsewhere
`;
const BROKEN = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: x\n data: [unclosed\n';

function json(args: string[], cwd: string) {
  const run = runPvlint(['--format', 'json', ...args], { cwd });
  return { ...run, report: run.stdout ? JSON.parse(run.stdout) : undefined };
}

test('discovery: .pvlint.yaml in a parent directory applies; the search stops at the repository root', () => {
  const dir = repo({ '.pvlint.yaml': 'failLevel: note\n', 'apps/web/deploy.yaml': MISSING_CLAIM });
  assert.is(runPvlint(['.'], { cwd: path.join(dir, 'apps', 'web') }).code, 1, 'failLevel: note from the parent');
  // A configuration above the repository root (the directory with .git) is not this repo's.
  const nested = path.join(dir, 'vendor-repo');
  mkdirSync(path.join(nested, '.git'), { recursive: true });
  writeFileSync(path.join(nested, 'deploy.yaml'), MISSING_CLAIM);
  assert.is(runPvlint(['.'], { cwd: nested }).code, 0, 'the outer configuration must not apply');
});

test('discovery: .pvlint.yml and .pvlint.json are found too', () => {
  for (const [name, text] of [['.pvlint.yml', 'failLevel: note\n'], ['.pvlint.json', '{ "failLevel": "note" }\n']]) {
    const dir = repo({ [name]: text, 'deploy.yaml': MISSING_CLAIM });
    assert.is(runPvlint(['.'], { cwd: dir }).code, 1, name);
  }
});

test('--config FILE replaces the discovered file; --no-config ignores both', () => {
  const dir = repo({ '.pvlint.yaml': 'failLevel: error\n', 'ci/strict.yaml': 'failLevel: note\n', 'deploy.yaml': MISSING_CLAIM });
  assert.is(runPvlint(['.'], { cwd: dir }).code, 0);
  assert.is(runPvlint(['--config', 'ci/strict.yaml', '.'], { cwd: dir }).code, 1);
  const broken = repo({ '.pvlint.yaml': 'failLevel: [\n', 'deploy.yaml': MISSING_CLAIM });
  assert.is(runPvlint(['.'], { cwd: broken }).code, 2);
  assert.is(runPvlint(['--no-config', '.'], { cwd: broken }).code, 0);
});

test('precedence: --fail-level > failLevel in the file > default (error)', () => {
  const plain = repo({ 'deploy.yaml': MISSING_CLAIM });
  assert.is(runPvlint(['.'], { cwd: plain }).code, 0, 'default: a note does not fail');
  const dir = repo({ '.pvlint.yaml': 'failLevel: note\n', 'deploy.yaml': MISSING_CLAIM });
  assert.is(runPvlint(['.'], { cwd: dir }).code, 1, 'the file: a note fails');
  assert.is(runPvlint(['--fail-level', 'error', '.'], { cwd: dir }).code, 0, 'the flag wins');
});

test('precedence: cluster.bundleComplete in the file, --bundle-complete on the command line', () => {
  const severity = (args: string[], cwd: string) => json(args, cwd).report.findings.find((f: any) => f.ruleId === 'pod-missing-pvc')?.severity;
  const plain = repo({ 'deploy.yaml': MISSING_CLAIM });
  assert.is(severity(['.'], plain), 'note');
  assert.is(severity(['--bundle-complete', '.'], plain), 'error');
  const complete = repo({ '.pvlint.yaml': 'cluster:\n  bundleComplete: true\n', 'deploy.yaml': MISSING_CLAIM });
  assert.is(severity(['.'], complete), 'error');
  const incomplete = repo({ '.pvlint.yaml': 'cluster:\n  bundleComplete: false\n', 'deploy.yaml': MISSING_CLAIM });
  assert.is(severity(['--bundle-complete', '.'], incomplete), 'error', 'the flag wins over the file');
});

test('precedence: --kustomize-command > kustomize.command in the file > the installed kustomize', () => {
  const files = {
    'app/kustomization.yaml': 'resources: [pvc.yaml]\n',
    'app/pvc.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
    '.pvlint.yaml': 'kustomize:\n  command: /nonexistent/from-config build\n',
  };
  const dir = repo(files);
  const fromFile = json(['.'], dir);
  assert.is(fromFile.code, 2);
  assert.match(fromFile.report.findings[0].message, /\/nonexistent\/from-config \(the configured kustomize command\) was not found/);
  const fromFlag = json(['--kustomize-command', '/nonexistent/from-flag build', '.'], dir);
  assert.match(fromFlag.report.findings[0].message, /\/nonexistent\/from-flag \(the configured kustomize command\)/);
});

test('ignore: the file\'s globs (relative to the file) and --ignore both apply', () => {
  const dir = repo({ '.pvlint.yaml': 'ignore: [vendor/**]\n', 'vendor/broken.yaml': BROKEN, 'generated/broken.yaml': BROKEN, 'apps/ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
  const both = json(['--ignore', 'generated/**', '.'], dir);
  assert.equal(both.report.findings, []);
  const fileOnly = json(['.'], dir);
  assert.equal(fileOnly.report.findings.map((f: any) => f.location.file), ['generated/broken.yaml']);
  // Run from a subdirectory: the globs stay relative to the configuration file.
  const sub = json(['..'], path.join(dir, 'apps'));
  assert.equal(sub.report.findings.map((f: any) => f.location.file), ['generated/broken.yaml']);
});

test('extends and rules: recommended leaves out the noisy notes, all keeps them, off disables a rule, a severity overrides', () => {
  const classless = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: app}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n';
  const ids = (config: string, files: Record<string, string>) => {
    const dir = repo({ '.pvlint.yaml': config, ...files });
    return json(['.'], dir).report.findings.map((f: any) => `${f.ruleId}:${f.severity}`).sort();
  };
  assert.ok(ids('extends: all\n', { 'pvc.yaml': classless }).includes('pvc-classless-without-default:note'));
  assert.not.ok(ids('extends: recommended\n', { 'pvc.yaml': classless }).some((id: string) => id.startsWith('pvc-classless-without-default')));
  assert.ok(ids('extends: recommended\nrules:\n  pvc-classless-without-default: warning\n', { 'pvc.yaml': classless }).includes('pvc-classless-without-default:warning'));
  assert.equal(ids('rules:\n  pod-missing-pvc: off\n', { 'deploy.yaml': MISSING_CLAIM }), []);
  assert.equal(ids('rules:\n  pod-missing-pvc: {severity: error}\n', { 'deploy.yaml': MISSING_CLAIM }), ['pod-missing-pvc:error']);
});

test('pvlint init writes a commented starter that is valid, and never overwrites a configuration', () => {
  const dir = repo({ 'pvc.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
  const first = runPvlint(['init'], { cwd: dir });
  assert.is(first.code, 0, first.stderr);
  assert.match(first.stdout, /wrote \.pvlint\.yaml/);
  const text = readFileSync(path.join(dir, '.pvlint.yaml'), 'utf8');
  // pvlint runs from its own tree here, not from node_modules under the directory: no $schema path that would
  // resolve only on this machine, and no URL of an unpublished package; the README's editor setup instead.
  assert.not.match(text, /\$schema|unpkg/);
  assert.match(text, /^# Editor completion: see the README, section 'Configuration'/);
  assert.match(text, /^extends: recommended$/m);
  for (const key of ['rules:', 'failLevel:', 'ignore:', 'cluster:', 'storageClasses:', 'mesh:', 'drivers:', 'helm:', 'kustomize:', 'suppress:', 'ruleFiles:']) {
    assert.ok(text.includes(key), `the starter does not mention ${key}`);
  }
  const lint = runPvlint(['.'], { cwd: dir });
  assert.is(lint.code, 0, lint.stderr);
  const again = runPvlint(['init'], { cwd: dir });
  assert.is(again.code, 2);
  assert.match(again.stderr, /^pvlint: \.pvlint\.yaml already exists here; 'pvlint init' does not overwrite it\n/);
  assert.is(readFileSync(path.join(dir, '.pvlint.yaml'), 'utf8'), text);
  const json = repo({ '.pvlint.json': '{}\n' });
  assert.is(runPvlint(['init'], { cwd: json }).code, 2, 'another configuration name counts too');
  assert.not.ok(existsSync(path.join(json, '.pvlint.yaml')));
});

test.run();
