// `--list-environments` and `--environment`, through the built binary on a copy of examples/.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findOnPath } from '../../src/render/executables.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { runPvlint } from '../helpers/spawn.js';

const list = suite('environments');

let repo = '';
list.before(() => {
  repo = mkdtempSync(path.join(os.tmpdir(), 'pvlint-environments-'));
  cpSync(path.join(PROJECT_ROOT, 'examples'), repo, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
});

list('--list-environments --format json: every root, chart and argument, with what they read, rendering nothing', () => {
  // An empty PATH: listing must not need kubectl or helm.
  const run = runPvlint(['--list-environments', '--format', 'json', '.', 'plain/storage-classes.yaml'], { cwd: repo, env: { PATH: '' } });
  assert.is(run.code, 0, run.stderr);
  const { environments } = JSON.parse(run.stdout) as { environments: { name: string; kind: string; entry: string; files: number; bytes: number }[] };
  const byName = new Map(environments.map((e) => [e.name, e]));
  assert.equal(environments.map((e) => e.name), ['.', 'plain/storage-classes.yaml', 'kustomize/overlays/dev', 'kustomize/overlays/preview', 'kustomize/overlays/prod', 'helm/ledger']);
  assert.equal(environments.map((e) => e.kind), ['manifests', 'manifests', 'kustomize', 'kustomize', 'kustomize', 'helm']);
  // The prod overlay reads its kustomization, its patch and the base's kustomization and manifests.
  const prod = byName.get('kustomize/overlays/prod')!;
  assert.is(prod.entry, 'kustomize/overlays/prod');
  assert.ok(prod.files > byName.get('kustomize/overlays/dev')!.files - 1 && prod.files >= 3, JSON.stringify(prod));
  for (const e of environments) assert.ok(e.files > 0 && e.bytes > 0, JSON.stringify(e));
  assert.is(byName.get('plain/storage-classes.yaml')!.files, 1);
});

list('--list-environments in text, and refuses formats it does not print', () => {
  const text = runPvlint(['--list-environments', 'kustomize'], { cwd: repo });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /^environment\s+kind\s+files\s+bytes\n/);
  assert.match(text.stdout, /\nkustomize\/overlays\/dev\s+kustomize\s+\d+\s+\d+\n/);
  const sarif = runPvlint(['--list-environments', '--format', 'sarif', '.'], { cwd: repo });
  assert.is(sarif.code, 2);
  assert.match(sarif.stderr, /--list-environments prints text or json/);
});

list('--environment lints only the named environments; an unknown name is a usage error', () => {
  if (!findOnPath('kubectl') && !findOnPath('kustomize')) {
    console.warn('\n  SKIPPED (loudly): --environment on Kustomize roots needs kubectl or kustomize on PATH\n');
    return;
  }
  // `./plain/` names the loose manifests of the argument `plain`, as `plain` does.
  const run = runPvlint(['--environment', 'kustomize/overlays/prod', '--environment', './plain/', '-f', 'json', 'plain', 'kustomize'], { cwd: repo });
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  type Report = { findings: { environments: string[] }[]; summary: { environments: { name: string }[] } };
  const report = JSON.parse(run.stdout) as Report;
  assert.equal(report.summary.environments.map((e) => e.name), ['plain', 'kustomize/overlays/prod']);
  assert.equal([...new Set(report.findings.flatMap((f) => f.environments))].sort(), ['kustomize/overlays/prod', 'plain']);
  const all = JSON.parse(runPvlint(['-f', 'json', 'plain', 'kustomize'], { cwd: repo }).stdout) as Report;
  assert.equal(all.summary.environments.map((e) => e.name), ['plain', 'kustomize/overlays/dev', 'kustomize/overlays/preview', 'kustomize/overlays/prod']);
  const unknown = runPvlint(['--environment', 'kustomize/overlays/qa', '.'], { cwd: repo });
  assert.is(unknown.code, 2);
  assert.match(unknown.stderr, /no environment named "kustomize\/overlays\/qa" in these paths \(they are: \., kustomize\/overlays\/dev, kustomize\/overlays\/preview, kustomize\/overlays\/prod, helm\/ledger/);
});

list('an argument with no manifests of its own and nothing to render is still an environment (its problems go there)', () => {
  mkdirSync(path.join(repo, 'empty'));
  const run = runPvlint(['--list-environments', '--format', 'json', 'empty'], { cwd: repo });
  assert.is(run.code, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).environments, [{ name: 'empty', kind: 'manifests', entry: 'empty', files: 0, bytes: 0 }]);
});

list('--environment with --base: an environment the change adds (absent at the base) is linted, not an error', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'pvlint-environments-base-'));
  cpSync(path.join(repo, 'plain'), path.join(work, 'plain'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: work });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'base');
  cpSync(path.join(repo, 'plain', 'storage-classes.yaml'), path.join(work, 'added', 'classes.yaml'));
  const run = runPvlint(['--base', 'HEAD', '--environment', 'added', '-f', 'json', 'plain', 'added'], { cwd: work });
  assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { summary: { environments: { name: string }[] } };
  assert.equal(report.summary.environments.map((e) => e.name), ['added']);
});

list.run();
