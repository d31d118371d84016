// The CLI as a user meets it: the built binary, spawned, with exit codes 0, 1 and 2.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { permissionsApply, plainEnv, runPvlint, runPvlintAsNobody, tempTree } from '../helpers/spawn.js';
import { requires } from '../helpers/requires.js';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';

const cli = suite('cli');

/** PATH without the directories that hold `tool`, so a test sees the machine as if it were not installed. */
function pathWithout(tool: string): string {
  return (process.env.PATH ?? '').split(path.delimiter).filter((dir) => !existsSync(path.join(dir, tool))).join(path.delimiter);
}

const CLEAN = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: app}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const WRONG_NAMESPACE = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
      volumes:
        - name: d
          persistentVolumeClaim:
            claimName: data
`;
const NOTE_ONLY = WRONG_NAMESPACE.replace('claimName: data', 'claimName: elsewhere');
const BROKEN_YAML = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: x
 data: [unclosed
`;

cli('clean input exits 0 and says so', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN });
  const run = runPvlint(['.'], { cwd: dir });
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /no problems/);
});

cli('an error-level finding exits 1, and the text report names file, line, rule and fix', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN, 'deploy.yaml': WRONG_NAMESPACE });
  const run = runPvlint([], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  assert.match(run.stdout, /deploy\.yaml/);
  assert.match(run.stdout, /11:\d+/);
  assert.match(run.stdout, /pod-missing-pvc/);
  assert.match(run.stdout, /fix/i);
  assert.not.match(run.stdout, /\u001b\[/);
});

cli('standard input over the file size limit is a pvlint/limit finding, and the other arguments are still linted', () => {
  const dir = tempTree({ 'deploy.yaml': WRONG_NAMESPACE });
  // 17 MiB of a ConfigMap: one byte past 16 MiB would do; a stream that never ends is kept to that much.
  const huge = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  blob: "${'x'.repeat(17 * 1024 * 1024)}"\n`;
  const run = runPvlint(['-f', 'json', '-', 'deploy.yaml'], { cwd: dir, input: huge });
  assert.is(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout);
  const ids = report.findings.map((f: any) => `${f.ruleId} ${f.location.file}`);
  assert.ok(ids.includes('pvlint/limit <stdin>'), ids.join(', '));
  assert.ok(ids.includes('pod-missing-pvc deploy.yaml'), ids.join(', '));
  assert.match(report.findings.find((f: any) => f.ruleId === 'pvlint/limit').message, /standard input is larger than the 16 MiB limit/);
});

cli('a syntax error in a kind no rule reads is reported only with --parse-all-documents', () => {
  const dir = tempTree({ 'ok.yaml': CLEAN, 'dashboards.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: board}\ndata: {board.json: [unclosed\n' });
  const quick = runPvlint(['-f', 'json', '.'], { cwd: dir });
  assert.is(quick.code, 0, quick.stderr);
  const quickReport = JSON.parse(quick.stdout);
  assert.is(quickReport.findings.length, 0);
  assert.is(quickReport.summary.documents, 3);
  const full = runPvlint(['-f', 'json', '--parse-all-documents', '.'], { cwd: dir });
  assert.is(full.code, 1, full.stderr);
  const fullReport = JSON.parse(full.stdout);
  assert.equal(fullReport.findings.map((f: any) => `${f.ruleId} ${f.location.file}:${f.location.startLine}`), ['pvlint/parse dashboards.yaml:5']);
  assert.is(fullReport.summary.documents, 3);
});

cli('--fail-level decides whether a note fails the run', () => {
  const dir = tempTree({ 'deploy.yaml': NOTE_ONLY });
  assert.is(runPvlint(['.'], { cwd: dir }).code, 0);
  assert.is(runPvlint(['--fail-level', 'note', '.'], { cwd: dir }).code, 1);
  assert.is(runPvlint(['--fail-level', 'warning', '.'], { cwd: dir }).code, 0);
});

cli('a YAML syntax error is a pvlint/parse finding and the other files are still linted', () => {
  const dir = tempTree({ 'a-broken.yaml': BROKEN_YAML, 'pvc.yaml': CLEAN, 'deploy.yaml': WRONG_NAMESPACE });
  const run = runPvlint(['--format', 'json', '.'], { cwd: dir });
  assert.is(run.code, 1);
  const report = JSON.parse(run.stdout);
  const ids = report.findings.map((f: any) => `${f.ruleId}@${f.location.file}:${f.location.startLine}`).sort();
  assert.equal(ids, ['pod-missing-pvc@deploy.yaml:11', 'pvlint/parse@a-broken.yaml:5']);
});

cli('usage errors exit 2 with a one-line reason', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN });
  for (const args of [['--no-such-flag'], ['missing-dir'], ['--format', 'xml', '.'], ['--fail-level', 'fatal', '.'], ['explain', 'no-such-rule']]) {
    const run = runPvlint(args, { cwd: dir });
    assert.is(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /^pvlint: .+\n/);
    assert.is(run.stdout, '');
  }
});

cli('--output writes the report to a file and nothing to stdout', () => {
  const dir = tempTree({ 'deploy.yaml': WRONG_NAMESPACE, 'pvc.yaml': CLEAN });
  const run = runPvlint(['--format', 'sarif', '--output', 'out/report.sarif', '.'], { cwd: dir });
  assert.is(run.code, 2, 'the output directory does not exist yet');
  const ok = runPvlint(['--format', 'sarif', '--output', 'report.sarif', '.'], { cwd: dir });
  assert.is(ok.code, 1);
  assert.is(ok.stdout, '');
  const sarif = JSON.parse(readFileSync(path.join(dir, 'report.sarif'), 'utf8'));
  assert.is(sarif.version, '2.1.0');
  assert.is(sarif.runs[0].results[0].ruleId, 'pod-missing-pvc');
});

cli('stdin is linted with "-"', () => {
  const dir = tempTree({});
  const run = runPvlint(['--format', 'json', '-'], { cwd: dir, input: CLEAN + '---\n' + WRONG_NAMESPACE });
  assert.is(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.is(report.findings[0].location.file, '<stdin>');
});

cli('--version prints the package version; --help prints usage', () => {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
  const dir = tempTree({});
  assert.is(runPvlint(['--version'], { cwd: dir }).stdout.trim(), pkg.version);
  const help = runPvlint(['--help'], { cwd: dir });
  assert.is(help.code, 0);
  assert.match(help.stdout, /Usage:/);
});

cli('pvlint rules lists every rule; --format json is machine-readable', () => {
  const dir = tempTree({});
  const text = runPvlint(['rules'], { cwd: dir });
  assert.is(text.code, 0);
  for (const id of ['pod-missing-pvc', 'rwo-claim-multi-node', 'rwo-update-overlap', 'pv-pvc-static-mismatch', 'csi-duplicate-volume-handle']) {
    assert.match(text.stdout, id);
  }
  const json = JSON.parse(runPvlint(['rules', '--format', 'json'], { cwd: dir }).stdout);
  assert.ok(json.some((r: any) => r.id === 'pod-missing-pvc' && r.catalogueId === 'R21'));
});

cli('pvlint explain prints the rule page, by id or catalogue id', () => {
  const dir = tempTree({});
  const run = runPvlint(['explain', 'pod-missing-pvc'], { cwd: dir });
  assert.is(run.code, 0);
  assert.match(run.stdout, /How to fix it/);
  assert.match(run.stdout, /kubernetes\.io/);
  assert.is(runPvlint(['explain', 'R21'], { cwd: dir }).stdout, run.stdout);
});

requires(cli, permissionsApply(), 'the unreadable-file test', 'running as root without setpriv, so permissions cannot make a file unreadable', 'install setpriv (util-linux) or run the tests as another user')('an unreadable file is a diagnostic; the rest is linted', () => {
  const dir = tempTree({ 'secret.yaml': CLEAN, 'deploy.yaml': WRONG_NAMESPACE, 'pvc.yaml': CLEAN });
  chmodSync(dir, 0o755);
  for (const name of ['deploy.yaml', 'pvc.yaml']) chmodSync(path.join(dir, name), 0o644);
  chmodSync(path.join(dir, 'secret.yaml'), 0o000);
  // As root, permissions mean nothing: run as nobody when possible.
  const run = process.getuid?.() === 0 ? runPvlintAsNobody(['--format', 'json', '.'], dir) : runPvlint(['--format', 'json', '.'], { cwd: dir });
  assert.ok(run, 'pvlint could not be run as user nobody');
  const ids = JSON.parse(run!.stdout).findings.map((f: any) => f.ruleId).sort();
  assert.equal(ids, ['pod-missing-pvc', 'pvlint/read']);
});

const HAS_MKFIFO = spawnSync('mkfifo', ['--version'], { stdio: 'ignore' }).status === 0;

requires(cli, HAS_MKFIFO, 'the FIFO SARIF test', 'mkfifo is not installed', 'install coreutils')('a FIFO named *.yaml is a pvlint/read finding in SARIF too: its fingerprint does not wait for a writer', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN });
  spawnSync('mkfifo', [path.join(dir, 'pipe.yaml')]);
  // SIGKILL: a process blocked opening a FIFO does not end on SIGTERM.
  const run = spawnSync(process.execPath, [BIN, '--format', 'sarif', '.'], { cwd: dir, encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL', env: plainEnv() });
  assert.is(run.signal, null, 'pvlint hung on the FIFO');
  const results = JSON.parse(run.stdout).runs[0].results;
  assert.equal(results.map((r: any) => [r.ruleId, r.locations[0].physicalLocation.artifactLocation.uri, r.partialFingerprints]), [['pvlint/read', 'pipe.yaml', undefined]]);
});

cli('the bundled examples: rendered overlays and charts, helm missing is exit 2 unless skipped', () => {
  const withoutHelm = { PATH: pathWithout('helm') };
  const strict = runPvlint(['--format', 'json', 'examples'], { cwd: PROJECT_ROOT, env: withoutHelm });
  assert.is(strict.code, 2, strict.stderr);
  assert.ok(JSON.parse(strict.stdout).findings.some((f: any) => f.ruleId === 'pvlint/render'));
  const lenient = runPvlint(['--format', 'json', '--skip-missing-renderers', 'examples'], { cwd: PROJECT_ROOT, env: withoutHelm });
  assert.is(lenient.code, 1, lenient.stderr);
  const report = JSON.parse(lenient.stdout);
  const ids = new Set(report.findings.map((f: any) => f.ruleId));
  assert.ok(ids.has('pvlint/render-skipped'));
  assert.not.ok(ids.has('pvlint/render'));
  assert.ok(report.findings.some((f: any) => f.location.file === 'examples/kustomize/overlays/prod/scale-out.yaml'), 'a finding located at the prod patch');
});

cli('--render-timeout must be a positive number of seconds', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN });
  const run = runPvlint(['--render-timeout', 'soon', '.'], { cwd: dir });
  assert.is(run.code, 2);
  assert.match(run.stderr, /--render-timeout/);
});

cli.run();
