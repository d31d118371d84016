// The configuration file from the API: readLintConfig gives lint() what the CLI gives it.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, lint, readLintConfig } from '../../src/index.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';

const CLAIM = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: app}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: app}\nspec:\n  containers: [{name: c, image: busybox}]\n  volumes: [{name: v, persistentVolumeClaim: {claimName: missing}}]\n';

function repo(config: string): string {
  return tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.pvlint.yaml': config,
    'apps/pvc.yaml': CLAIM,
    'apps/pod.yaml': POD,
    'vendor/pod.yaml': POD.replace('name: p,', 'name: vendored,'),
  });
}

test('readLintConfig + lint() find what the CLI finds with the same configuration', async () => {
  const dir = repo('extends: all\nignore: [vendor/**]\nrules:\n  pvc-classless-without-default: warning\nsuppress:\n  - rules: [pod-missing-pvc]\n    resource: {kind: Pod, name: p}\n    reason: created by the operator at run time\n');
  const config = await readLintConfig(path.join(dir, 'apps'));
  assert.ok(config, 'found from a subdirectory, up to the repository root');
  assert.is(path.basename(config!.file), '.pvlint.yaml');
  const api = await lint({ paths: ['.'], cwd: dir, ...config!.options });
  const cli = runPvlint(['-f', 'json', '.'], { cwd: dir });
  const report = JSON.parse(cli.stdout);
  const view = (f: any) => `${f.ruleId}:${f.severity}:${f.location.file}`;
  assert.equal(api.findings.map((f) => `${f.ruleId}:${f.severity}:${f.location.file}`), report.findings.map(view));
  assert.ok(api.findings.some((f) => f.ruleId === 'pvc-classless-without-default' && f.severity === 'warning'), 'severity from the file');
  assert.not.ok(api.findings.some((f) => f.location.file.startsWith('vendor/')), 'ignore from the file');
  assert.is(api.suppressed?.length, 1, 'suppression from the file');
  assert.ok(config!.review.changeRules && config!.review.changeRules.length === 5);
});

test('no configuration: undefined; an invalid one: ConfigError with its problems at file:line:col', async () => {
  const bare = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', 'pvc.yaml': CLAIM });
  assert.is(await readLintConfig(bare), undefined);
  const dir = repo('rules:\n  no-such-rule: off\n  pvc-classless-without-default: loud\n');
  try {
    await readLintConfig(dir);
    assert.unreachable('an invalid configuration throws');
  } catch (error) {
    assert.instance(error, ConfigError);
    const problems = (error as ConfigError).problems;
    assert.equal(problems.map((p) => `${p.file}:${p.line}:${p.column}`), ['.pvlint.yaml:3:3'], JSON.stringify(problems));
  }
});

test.run();
