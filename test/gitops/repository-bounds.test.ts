// The repository-wide lookups of the GitOps clusters (ConfigMaps and Secrets their variables come from, what a Flux
// Kustomization without a path builds) stay within what the run may read: a repository root found from the
// arguments, never a guess at the working directory, and bounded searches that say when they were cut short.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expandApplicationSet } from '../../src/gitops/argocd-generators.js';
import { generatedEntries } from '../../src/gitops/flux-build.js';
import { lint } from '../../src/lint.js';
import { MISSING_CLAIM } from '../helpers/manifests.js';
import { runPvlint } from '../helpers/spawn.js';
import { HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';

const test = suite('gitops: repository-wide lookups are bounded');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('repository-wide lookup bounds');

function write(dir: string, name: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), text);
}

/** A Flux Kustomization with no `path` (it builds the root of its source) whose variables come from a ConfigMap. */
const SYNC = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: everything, namespace: flux-system}
spec:
  interval: 10m
  sourceRef: {kind: GitRepository, name: flux-system}
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-vars
`;
const CLAIM = (name: string, storageClass: string) =>
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ${name}, namespace: apps}\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: ${storageClass}\n  resources: {requests: {storage: 1Gi}}\n`;
const VARS = (storageClass: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-vars, namespace: flux-system}\ndata:\n  SC: ${storageClass}\n`;

it('a copy without .git linted from a crowded working directory: the same findings as from the copy itself, nothing from around it', () => {
  const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-crowded-')));
  write(work, 'repo/clusters/sync.yaml', SYNC);
  write(work, 'repo/apps/claim.yaml', CLAIM('data', '${SC}'));
  write(work, 'repo/apps/web.yaml', MISSING_CLAIM);
  // Around the argument: what a home directory or /tmp holds. Were it the repository, the Kustomization would build
  // it and the lookup would take its cluster-vars.
  write(work, 'unrelated/cluster-vars.yaml', VARS('from-outside'));
  for (let i = 0; i < 1500; i++) write(work, `unrelated/set-${i % 30}/claim-${i}.yaml`, CLAIM(`c${i}`, 'missing-class'));
  const started = Date.now();
  const fromAround = runPvlint(['--format', 'json', '--no-config', 'repo'], { cwd: work });
  const fromInside = runPvlint(['--format', 'json', '--no-config', '.'], { cwd: path.join(work, 'repo') });
  assert.ok(Date.now() - started < 60_000, 'both runs end');
  assert.is(fromAround.code, fromInside.code, fromAround.stderr);
  const findings = (stdout: string, prefix: string) =>
    JSON.parse(stdout).findings.map((f: any) => `${f.ruleId} ${f.location.file.replace(prefix, '')}:${f.location.region?.startLine} ${f.message.replaceAll(prefix, '')}`).sort();
  const around = findings(fromAround.stdout, 'repo/');
  assert.equal(around, findings(fromInside.stdout, ''));
  assert.ok(around.length > 0, 'something is reported');
  assert.not.ok(around.some((f: string) => f.includes('unrelated') || f.includes('from-outside')), around.join('\n'));
});

it('a lookup cut short by a limit says so, at the cluster that missed an object; within the limits it finds it', async () => {
  const repo = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-lookup-')));
  mkdirSync(path.join(repo, '.git'));
  write(repo, 'clusters/sync.yaml', SYNC.replace('interval: 10m', 'interval: 10m\n  path: ./apps'));
  write(repo, 'apps/claim.yaml', CLAIM('data', '${SC}'));
  // ConfigMaps the lookup reads before the one asked for (files in path order), 40 KiB of them.
  for (let i = 0; i < 40; i++) write(repo, `aa-settings/settings-${i}.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s${i}}\ndata:\n  blob: "${'x'.repeat(1000)}"\n`);
  write(repo, 'zz-vars/cluster-vars.yaml', VARS('fast'));
  const cutShort = (findings: { ruleId: string; message: string; severity: string }[]) => findings.filter((f) => f.ruleId === 'pvlint/limit' && f.message.includes('search of the repository'));
  const limited = await lint({ paths: ['clusters'], cwd: repo, limits: { maxTotalBytes: 20_000 } });
  const cut = cutShort(limited.findings);
  assert.is(cut.length, 1, limited.findings.map((f) => `${f.ruleId} ${f.message}`).join('\n'));
  assert.match(cut[0]!.message, /ConfigMap flux-system\/cluster-vars/);
  assert.match(cut[0]!.message, /maxTotalBytes/);
  assert.is(cut[0]!.severity, 'warning');
  const whole = await lint({ paths: ['clusters'], cwd: repo });
  assert.equal(cutShort(whole.findings), []);
  assert.not.ok(whole.findings.some((f) => f.message.includes('cluster-vars')), whole.findings.map((f) => f.message).join('\n'));
});

test('the generator walk of a Flux path enters a directory link once unless it loops back: links to . and .. end', () => {
  const repo = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-generator-')));
  write(repo, 'apps/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
  write(repo, 'apps/sub/pvc.yaml', CLAIM('data', 'fast'));
  write(repo, 'shared/extra.yml', CLAIM('extra', 'fast'));
  // Three links that loop (each would multiply the walk: 3^depth paths before), one that does not.
  symlinkSync('.', path.join(repo, 'apps/loop'));
  symlinkSync('..', path.join(repo, 'apps/sub/up'));
  symlinkSync(path.join(repo, 'apps'), path.join(repo, 'apps/sub/again'));
  symlinkSync('../shared', path.join(repo, 'apps/shared'));
  const entries = generatedEntries(path.join(repo, 'apps')).map((e) => path.relative(repo, e));
  assert.equal(entries, ['apps/cm.yaml', 'apps/shared/extra.yml', 'apps/sub/pvc.yaml']);
});

it('a Flux cluster whose path holds looping links is built, and the run ends', async () => {
  const repo = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-generator-')));
  mkdirSync(path.join(repo, '.git'));
  write(repo, 'clusters/sync.yaml', SYNC.replace('interval: 10m', 'interval: 10m\n  path: ./apps').replace(/  postBuild:[\s\S]*$/, ''));
  write(repo, 'apps/claim.yaml', CLAIM('data', 'fast'));
  symlinkSync('.', path.join(repo, 'apps/loop1'));
  symlinkSync('.', path.join(repo, 'apps/loop2'));
  symlinkSync('..', path.join(repo, 'apps/up'));
  const result = await lint({ paths: ['.'], cwd: repo });
  assert.equal(result.findings.filter((f) => f.ruleId === 'pvlint/render'), []);
  assert.ok(result.scopes.some((s) => s.kind === 'flux' && s.resources >= 1), JSON.stringify(result.scopes));
});

test('an ApplicationSet git generator walks the repository once through links that loop back', () => {
  const repo = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-appset-')));
  write(repo, 'apps/web/config.json', '{"env": "prod"}');
  write(repo, 'apps/db/config.json', '{"env": "dev"}');
  write(repo, 'other/config.json', '{"env": "qa"}');
  symlinkSync('.', path.join(repo, 'apps/web/loop1'));
  symlinkSync('.', path.join(repo, 'apps/web/loop2'));
  symlinkSync('../..', path.join(repo, 'apps/db/top'));
  symlinkSync('../other', path.join(repo, 'apps/linked'));
  const appset = (generator: object) => ({
    spec: { generators: [{ git: { repoURL: 'https://example.com/r.git', revision: 'HEAD', ...generator } }], template: { metadata: { name: '{{path.basename}}' }, spec: { source: { path: '{{path}}' } } } },
  });
  const directories = expandApplicationSet(appset({ directories: [{ path: 'apps/*' }] }), repo, () => true);
  assert.equal(directories.applications.map((a) => a.spec.source.path).sort(), ['apps/db', 'apps/linked', 'apps/web']);
  const files = expandApplicationSet(appset({ files: [{ path: 'apps/**/config.json' }] }), repo, () => true);
  assert.equal(files.applications.map((a) => a.spec.source.path).sort(), ['apps/db', 'apps/linked', 'apps/web']);
});

it('an Argo CD directory source with recurse through links that loop back is read once, and the run ends', async () => {
  const repo = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-argo-loop-')));
  mkdirSync(path.join(repo, '.git'));
  write(repo, 'argo/app.yaml', 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: apps, namespace: argocd}\nspec:\n  project: default\n  destination: {server: "https://kubernetes.default.svc", namespace: apps}\n  source:\n    repoURL: https://example.com/repo.git\n    path: apps\n    directory: {recurse: true}\n');
  write(repo, 'apps/claim.yaml', CLAIM('data', 'fast'));
  symlinkSync('.', path.join(repo, 'apps/loop1'));
  symlinkSync('.', path.join(repo, 'apps/loop2'));
  const result = await lint({ paths: ['.'], cwd: repo });
  const argo = result.scopes.find((s) => s.kind === 'argocd');
  assert.ok(argo, JSON.stringify(result.scopes));
  assert.is(argo!.resources, 1, 'the claim once, not once per path through the loops');
});

test.run();
