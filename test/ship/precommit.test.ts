// The pre-commit hook with the real pre-commit: `pre-commit try-repo <pvlint> pvlint --all-files` in a temporary
// git repository of manifests. pvlint is a snapshot of this working tree as a clean git repository, because
// try-repo on a dirty tree copies only tracked changes (untracked new files would be missing). pre-commit then
// installs the hook as for any user: `npm install` in its clone, `npm pack` (whose prepare builds dist/), global
// install of the tarball. Skipped, loudly, when pre-commit is not installed; .ci/run installs it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { DEPLOYMENT_SAME_NAMESPACE, DEPLOYMENT_WRONG_NAMESPACE, PVC } from '../helpers/manifests.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { commandExists, gitCommitAll, projectSnapshot, run, tempDir, userEnv, warnSkipped } from './helpers.js';

const precommit = suite('pre-commit hook');


precommit('the manifest: hook pvlint, language node, whole repo, manifests only, serial', () => {
  const hooks = parse(readFileSync(path.join(PROJECT_ROOT, '.pre-commit-hooks.yaml'), 'utf8'));
  assert.is(hooks.length, 1);
  const [hook] = hooks;
  assert.is(hook.id, 'pvlint');
  assert.is(hook.language, 'node');
  assert.is(hook.entry, 'pvlint');
  assert.equal(hook.args, ['.']);
  assert.is(hook.pass_filenames, false);
  assert.is(hook.require_serial, true);
  const files = new RegExp(hook.files);
  for (const name of ['a.yaml', 'k/b.yml', 'c.json']) assert.ok(files.test(name), name);
  for (const name of ['README.md', 'yaml.txt', 'a.yaml.bak']) assert.not.ok(files.test(name), name);
  // pre-commit reads the tarball name from `npm pack`'s stdout: the prepack build must not print there.
  assert.match(readFileSync(path.join(PROJECT_ROOT, '.npmrc'), 'utf8'), /^foreground-scripts=false$/m);
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
  assert.ok(pkg.scripts.prepare, 'no prepare script: pre-commit and git installs would get a package without dist/');
});

if (!commandExists('pre-commit') || !commandExists('git')) {
  warnSkipped(
    'test/ship/precommit.test.ts (pre-commit try-repo)',
    'pre-commit (or git) is not installed, so the pvlint pre-commit hook was NOT tested.',
    'Install it (Debian: apt-get install -y pre-commit; .ci/run does this) and run the tests again.',
  );
  precommit.skip('pre-commit try-repo: a clean repo passes, a storage error fails with the finding', () => {});
} else {
  precommit('pre-commit try-repo: a clean repo passes, a storage error fails with the finding', () => {
    const pvlint = projectSnapshot();
    const repo = tempDir('precommit-user');
    const env = userEnv({ PRE_COMMIT_HOME: tempDir('precommit-home'), PRE_COMMIT_COLOR: 'never' });
    const tryRepo = () => run('pre-commit', ['try-repo', pvlint, 'pvlint', '--all-files', '--color', 'never'], { cwd: repo, env });

    // The claim and its consumer in different files: only a whole-repo run sees that they match.
    writeFileSync(path.join(repo, 'pvc.yaml'), PVC);
    writeFileSync(path.join(repo, 'deployment.yaml'), DEPLOYMENT_SAME_NAMESPACE);
    writeFileSync(path.join(repo, 'README.md'), '# manifests\n');
    gitCommitAll(repo, 'clean');
    const clean = tryRepo();
    assert.is(clean.code, 0, clean.output);
    assert.match(clean.stdout, /pvlint\.+Passed/, clean.output);

    writeFileSync(path.join(repo, 'deployment.yaml'), DEPLOYMENT_WRONG_NAMESPACE);
    gitCommitAll(repo, 'wrong namespace');
    const failing = tryRepo();
    assert.is(failing.code, 1, failing.output);
    assert.match(failing.stdout, /pvlint\.+Failed/, failing.output);
    assert.match(failing.stdout, /deployment\.yaml/, failing.output);
    assert.match(failing.stdout, /pod-missing-pvc/, failing.output);
    assert.match(failing.stdout, /exit code: 1/, failing.output);

    // No manifest in the change set: the hook does not run at all (`files`), even with --all-files.
    rmSync(path.join(repo, 'deployment.yaml'));
    rmSync(path.join(repo, 'pvc.yaml'));
    gitCommitAll(repo, 'docs only');
    const docsOnly = tryRepo();
    assert.is(docsOnly.code, 0, docsOnly.output);
    assert.match(docsOnly.stdout, /pvlint\.+\(no files to check\)Skipped/, docsOnly.output);
  });
}

precommit.run();
