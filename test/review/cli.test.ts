// `--base` and `--new-only` as a user meets them: the built binary, spawned in temporary git repositories.
import Ajv2020 from 'ajv/dist/2020.js';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { runPvlint } from '../helpers/spawn.js';
import { requires } from '../helpers/requires.js';
import { HAS_KUSTOMIZE } from '../render/helpers.js';
import { describeErrors, sarifValidator } from '../report/schema-validators.js';
import { tempDir, TempRepo } from './helpers.js';

const cli = suite('cli --base');
/** The tests that render Kustomize overlays: skipped (and counted so) without kustomize or kubectl. */
const withKustomize = requires(cli, HAS_KUSTOMIZE, 'the Kustomize --base CLI test', 'neither kustomize nor kubectl is on PATH, so real overlays cannot be rendered', 'install kubectl (its kustomize) or kustomize');

const PVC = (size: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources:
    requests:
      storage: ${size}
`;
// An error at the base already: a ReadWriteOnce claim mounted by 3 replicas (rwo-claim-multi-node).
const SHARED = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  strategy: {type: Recreate}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`;

const CLASS = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowVolumeExpansion: true
`;

function repoWithPreExistingError(): TempRepo {
  const repo = new TempRepo().write({ 'k8s/pvc.yaml': PVC('10Gi'), 'k8s/web.yaml': SHARED, 'k8s/sc.yaml': CLASS });
  repo.commit('base');
  return repo;
}

cli('--new-only without --base, and --base with stdin, are usage errors (exit 2)', () => {
  const repo = repoWithPreExistingError();
  const alone = runPvlint(['--new-only', '.'], { cwd: repo.dir });
  assert.is(alone.code, 2);
  assert.match(alone.stderr, /--new-only needs --base/);
  const stdin = runPvlint(['--base', 'main', '-'], { cwd: repo.dir, input: PVC('1Gi') });
  assert.is(stdin.code, 2);
  assert.match(stdin.stderr, /cannot read standard input/);
  repo.remove();
});

cli('an unknown ref exits 2 and says how to fetch it', () => {
  const repo = repoWithPreExistingError();
  const run = runPvlint(['--base', 'origin/nope', '.'], { cwd: repo.dir });
  assert.is(run.code, 2);
  assert.match(run.stderr, /--base origin\/nope: no commit, branch or tag/);
  assert.match(run.stderr, /git fetch origin <branch>/);
  assert.is(run.stdout, '');
  repo.remove();
});

cli('a shallow clone without the base exits 2 and names fetch-depth: 0', () => {
  const repo = repoWithPreExistingError();
  repo.write({ 'k8s/pvc.yaml': PVC('20Gi') });
  repo.commit('grow');
  const clone = tempDir('pvlint-review-clone-');
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone], { stdio: 'ignore' });
  const run = runPvlint(['--base', 'HEAD~1', '.'], { cwd: clone });
  assert.is(run.code, 2);
  assert.match(run.stderr, /shallow clone/);
  assert.match(run.stderr, /fetch-depth: 0/);
  rmSync(clone, { recursive: true, force: true });
  repo.remove();
});

cli('--new-only: a pre-existing error does not fail the check, and the summary says it was hidden; a new one does', () => {
  const repo = repoWithPreExistingError();
  const without = runPvlint(['--base', 'main', 'k8s'], { cwd: repo.dir });
  assert.is(without.code, 1, without.stderr);
  assert.match(without.stdout, /rwo-claim-multi-node/);

  const only = runPvlint(['--base', 'main', '--new-only', 'k8s'], { cwd: repo.dir });
  assert.is(only.code, 0, only.stdout + only.stderr);
  assert.not.match(only.stdout, /rwo-claim-multi-node/);
  assert.match(only.stdout, /pre-existing findings? at main not shown \(--new-only\)/);

  // Line shifts do not make the old finding new; a shrunk claim is a new error.
  repo.write({ 'k8s/web.yaml': `# the web tier\n# (moved down two lines)\n${SHARED}`, 'k8s/pvc.yaml': PVC('5Gi') });
  const changed = runPvlint(['--base', 'main', '--new-only', 'k8s'], { cwd: repo.dir });
  assert.is(changed.code, 1, changed.stdout + changed.stderr);
  assert.match(changed.stdout, /k8s\/pvc\.yaml\n\s+9:\d+\s+error\s+pvc-resize-rejected/);
  assert.not.match(changed.stdout, /rwo-claim-multi-node/);
  repo.remove();
});

cli('change rules are configured in .pvlint.yaml rules: like the others (severity, off; no options)', () => {
  const repo = repoWithPreExistingError();
  repo.write({ 'k8s/pvc.yaml': PVC('5Gi') });
  const ids = (config: string) => {
    repo.write({ '.pvlint.yaml': config });
    const run = runPvlint(['--base', 'main', '--new-only', '--format', 'json', 'k8s'], { cwd: repo.dir });
    return { code: run.code, stderr: run.stderr, findings: run.stdout ? JSON.parse(run.stdout).findings.map((f: any) => `${f.ruleId}:${f.severity}`) : [] };
  };
  assert.equal(ids('rules:\n  pvc-resize-rejected: warning\n').findings, ['pvc-resize-rejected:warning']);
  const off = ids('rules:\n  pvc-resize-rejected: off\n');
  assert.equal(off.findings, []);
  assert.is(off.code, 0, off.stderr);
  const withOptions = ids('rules:\n  pvc-resize-rejected: [error, {strict: true}]\n');
  assert.is(withOptions.code, 2);
  assert.match(withOptions.stderr, /pvc-resize-rejected.*takes no options/);
  // The suppress list knows them too.
  const suppressed = ids('suppress:\n  - rules: [pvc-resize-rejected]\n    paths: [k8s/pvc.yaml]\n    reason: resized by hand\n');
  assert.equal(suppressed.findings, []);
  assert.is(suppressed.code, 0, suppressed.stderr);
  repo.remove();
});

cli('JSON and SARIF with --base: schema-valid, with the review summary and the change rules described', () => {
  const repo = repoWithPreExistingError();
  repo.write({ 'k8s/pvc.yaml': PVC('5Gi') });
  const json = runPvlint(['--base', 'main', '--new-only', '--format', 'json', 'k8s'], { cwd: repo.dir });
  assert.is(json.code, 1, json.stderr);
  const report: any = JSON.parse(json.stdout);
  // strictTypes off: the schema's own strictness is test/report/json.test.ts's business; this checks the review fields.
  const ajv = new Ajv2020.default({ strict: true, strictTypes: false, allErrors: true });
  const validate = ajv.compile(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'schemas', 'report.schema.json'), 'utf8')));
  assert.ok(Boolean(validate(report)), describeErrors(validate.errors));
  assert.is(report.summary.review.base, 'main');
  assert.is(report.summary.review.newOnly, true);
  assert.ok(report.summary.review.preExisting >= 1);
  assert.match(report.summary.review.commit, /^[0-9a-f]{40}$/);
  assert.equal(report.findings.map((f: any) => f.ruleId), ['pvc-resize-rejected']);

  const sarif = runPvlint(['--base', 'main', '--format', 'sarif', 'k8s'], { cwd: repo.dir });
  assert.is(sarif.code, 1, sarif.stderr);
  const log: any = JSON.parse(sarif.stdout);
  const validateSarif = sarifValidator();
  assert.ok(Boolean(validateSarif(log)), describeErrors(validateSarif.errors));
  const rules = log.runs[0].tool.driver.rules.map((r: any) => r.id);
  for (const id of ['immutable-storage-field-change', 'pvc-resize-rejected', 'statefulset-renamed', 'storage-removed-in-use', 'storageclass-field-change']) {
    assert.ok(rules.includes(id), `SARIF describes ${id}`);
  }
  const result = log.runs[0].results.find((r: any) => r.ruleId === 'pvc-resize-rejected');
  assert.is(result.locations[0].physicalLocation.artifactLocation.uri, 'k8s/pvc.yaml');
  assert.is(result.locations[0].physicalLocation.region.startLine, 9);
  repo.remove();
});

cli("'pvlint rules' and 'pvlint explain' cover the change rules", () => {
  const dir = tempDir('pvlint-review-rules-');
  const rules = runPvlint(['rules'], { cwd: dir });
  assert.is(rules.code, 0);
  assert.match(rules.stdout, /immutable-storage-field-change\s+R44\s+error\s+.*\(with --base\)/);
  const explain = runPvlint(['explain', 'R44'], { cwd: dir });
  assert.is(explain.code, 0, explain.stderr);
  assert.match(explain.stdout, /^immutable-storage-field-change \(R44\)/);
  assert.match(explain.stdout, /Runs with `--base <git-ref>`/);
  assert.match(explain.stdout, /At the base:/);
  const json = JSON.parse(runPvlint(['rules', '--format', 'json'], { cwd: dir }).stdout);
  assert.is(json.find((r: any) => r.id === 'storage-removed-in-use').type, 'change');
  rmSync(dir, { recursive: true, force: true });
});

withKustomize('a base that does not render exits 2 and says what to do', () => {
  const repo = new TempRepo().write({
    'app/kustomization.yaml': 'resources: [pvc.yaml, gone.yaml]\n',
    'app/pvc.yaml': PVC('10Gi'),
  });
  repo.commit('broken base');
  repo.write({ 'app/kustomization.yaml': 'resources: [pvc.yaml]\n' });
  const run = runPvlint(['--base', 'main', 'app'], { cwd: repo.dir });
  assert.is(run.code, 2, run.stdout);
  assert.match(run.stderr, /the base does not render/);
  assert.match(run.stderr, /without --base/);
  repo.remove();
});

cli.run();
