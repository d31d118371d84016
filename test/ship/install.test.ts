// The README's install routes, run as written: its "## Install" shell blocks, in order, against a clone of this
// project (a snapshot of the working tree as a git repository, reached through a file:// URL, so `git clone`
// and `npm install git+file://…#<commit>` work as they do with the hosted repository), and its pre-commit
// snippet with the real pre-commit against that clone at that commit. The blocks are read from README.md here,
// so the README and what is tested cannot drift apart.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEPLOYMENT_WRONG_NAMESPACE, PVC } from '../helpers/manifests.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { requires } from '../helpers/requires.js';
import { commandExists, gitCommitAll, projectSnapshot, run, runOk, tempDir, userEnv } from './helpers.js';

const install = suite('README install routes');

const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));

function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has no "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

let snapshot = '';
let commit = '';
function pvlintClone(): { dir: string; commit: string } {
  if (!snapshot) {
    snapshot = projectSnapshot();
    commit = runOk('git', ['rev-parse', 'HEAD'], { cwd: snapshot }).stdout.trim();
  }
  return { dir: snapshot, commit };
}

const HAS_GIT = commandExists('git');

requires(install, HAS_GIT, 'README install routes', 'git is not installed', 'install git')(
  'the "## Install" blocks run as written: clone + npm ci, npm install git+<url>#<commit>, npm pack + install',
  () => {
    const clone = pvlintClone();
    const work = tempDir('readme-install');
    for (const repo of ['my-gitops-repo', 'my-other-repo']) {
      mkdirSync(path.join(work, repo, 'k8s'), { recursive: true });
      writeFileSync(path.join(work, repo, 'k8s', 'pvc.yaml'), PVC);
    }
    const shell = blocks(section('Install'), 'sh');
    assert.is(shell.length, 3, 'three install routes');
    // The tarball's name in the README is the one npm pack makes of this version.
    assert.match(shell[2], new RegExp(`pvlint-${pkg.version.replace(/\./g, '\\.')}\\.tgz`));
    const env = userEnv({ PVLINT_REPO: pathToFileURL(clone.dir).href, PVLINT_COMMIT: clone.commit, npm_config_prefer_offline: 'true' });
    const outputs: string[] = [];
    for (const block of shell) {
      const result = run('bash', ['-euo', 'pipefail', '-c', block], { cwd: work, env });
      assert.is(result.code, 0, result.output);
      outputs.push(result.stdout);
    }
    assert.match(outputs[0], new RegExp(`^${pkg.version.replace(/\./g, '\\.')}$`, 'm'), 'the clone runs');
    assert.match(outputs[1], / in 1 file\b/, 'the git install lints only the manifests (not package.json, not node_modules)');
    assert.match(outputs[2], / in 1 file\b/, 'the tarball install lints');
    // The git install is the pinned commit, built by prepare: dist/ is there although git does not hold it.
    const fromGit = path.join(work, 'my-gitops-repo', 'node_modules', 'pvlint');
    assert.ok(existsSync(path.join(fromGit, 'dist', 'src', 'bin.js')));
    const manifest = JSON.parse(readFileSync(path.join(work, 'my-gitops-repo', 'package.json'), 'utf8'));
    assert.match(manifest.devDependencies.pvlint, new RegExp(`^git\\+file://.*#${clone.commit}$`));
    // npx --no: a finding is exit code 1 from the installed copy.
    writeFileSync(path.join(work, 'my-gitops-repo', 'k8s', 'deploy.yaml'), DEPLOYMENT_WRONG_NAMESPACE);
    const finding = run('npx', ['--no', 'pvlint', 'k8s'], { cwd: path.join(work, 'my-gitops-repo'), env });
    assert.is(finding.code, 1, finding.output);
    assert.match(finding.stdout, /pod-missing-pvc/);
  },
);

install('the README names no unpublished package: no npx --yes, no version tags that do not exist', () => {
  assert.not.match(readme, /npx --yes pvlint@\d/);
  assert.not.match(readme, /rev: v\d/);
  assert.not.match(readme, /pvlint@v\d/);
});

requires(
  install,
  HAS_GIT && commandExists('pre-commit'),
  'test/ship/install.test.ts (the README pre-commit snippet)',
  'pre-commit (or git) is not installed, so the README snippet was NOT tested with pre-commit.',
  'Install it (Debian: apt-get install -y pre-commit; .ci/run does this) and run the tests again.',
)('the README pre-commit snippet, pinned to a commit of a local clone: clean passes, a finding fails', () => {
  const clone = pvlintClone();
  const [snippet] = blocks(section('pre-commit'), 'yaml');
  assert.match(snippet, /^# \.pre-commit-config\.yaml/);
  const placeholder = /rev: ([0-9a-f]{40})\b/.exec(snippet);
  assert.ok(placeholder, 'the snippet pins a full commit id');
  assert.ok(snippet.includes('repo: https://github.com/OWNER/pvlint\n'));
  // Only the two values a user fills in change: where pvlint is and which commit.
  const config = snippet.replace('repo: https://github.com/OWNER/pvlint\n', `repo: ${clone.dir}\n`).replace(placeholder![1], clone.commit);
  const repo = tempDir('readme-precommit');
  writeFileSync(path.join(repo, '.pre-commit-config.yaml'), config);
  writeFileSync(path.join(repo, 'pvc.yaml'), PVC);
  gitCommitAll(repo, 'clean');
  const env = userEnv({ PRE_COMMIT_HOME: tempDir('readme-precommit-home'), PRE_COMMIT_COLOR: 'never', npm_config_prefer_offline: 'true' });
  const clean = run('pre-commit', ['run', '--all-files', '--color', 'never'], { cwd: repo, env });
  assert.is(clean.code, 0, clean.output);
  assert.match(clean.stdout, /pvlint\.+Passed/);
  writeFileSync(path.join(repo, 'deploy.yaml'), DEPLOYMENT_WRONG_NAMESPACE);
  gitCommitAll(repo, 'finding');
  const failing = run('pre-commit', ['run', '--all-files', '--color', 'never'], { cwd: repo, env });
  assert.is(failing.code, 1, failing.output);
  assert.match(failing.stdout, /pvlint\.+Failed/);
  assert.match(failing.stdout, /deploy\.yaml:\d+:\d+.*pod-missing-pvc|pod-missing-pvc/);
});

install.run();
