// A Flux cluster linted as kustomize-controller applies it: clusters/prod → infrastructure and apps
// Kustomizations, postBuild substitution (inline and from a ConfigMap), targetNamespace, a component templating a
// claim from ${APP}, replacements read from outside the root. Each planted problem is asserted at the line to
// edit: the variable's definition when the value came from a substitution.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { describeErrors, reportValidator, sarifValidator } from '../report/schema-validators.js';

const test = suite('gitops: a Flux cluster is one environment');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('Flux cluster tests');

let dir: string;
let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  dir = copyFixture('gitops/flux-cluster');
  result = await lint({ paths: ['clusters/prod'], cwd: dir });
});

const finding = (ruleId: string, mention: string) => result.findings.find((f) => f.ruleId === ruleId && f.message.includes(mention));

it('the cluster is one environment, built without render errors', () => {
  assert.equal(result.findings.filter((f) => f.ruleId.startsWith('pvlint/')), []);
  assert.equal(result.scopes.map((s) => [s.name, s.kind]), [['clusters/prod', 'flux']]);
  // Objects of every layer: the sync objects, the StorageClasses of infrastructure, the apps with the component's claim.
  const scope = result.scopes[0];
  assert.ok(scope.resources >= 10, `resources: ${scope.resources}`);
});

it('replicas from postBuild.substitute: the Multi-Attach error points at the variable, the placeholder is related', () => {
  const f = finding('rwo-claim-multi-node', 'Deployment "web" runs 2 replicas');
  assert.ok(f, 'rwo-claim-multi-node reported');
  assert.is(at(f), 'clusters/prod/apps.yaml:21');
  assert.ok(f!.related.some((r) => `${r.location.file}:${r.location.region.startLine}` === 'apps/base/web/deployment.yaml:6' && r.message.includes('${WEB_REPLICAS}')));
});

it('a class substituted from the substituteFrom ConfigMap: reported at the ConfigMap key, with a did-you-mean', () => {
  const f = finding('pvc-unknown-storageclass', '"fast-blok"');
  assert.ok(f, 'pvc-unknown-storageclass reported');
  assert.is(at(f), 'clusters/prod/cluster-settings.yaml:8');
  assert.match(f!.message, /PersistentVolumeClaim "web" in namespace "media"/);
  assert.match(f!.message, /did you mean "fast-block"/);
  // The cluster defines its own classes and nothing is left unrendered: a class none of them is, is a warning.
  assert.is(f!.severity, 'warning');
  assert.ok(f!.related.some((r) => `${r.location.file}:${r.location.region.startLine}` === 'components/app-volume/pvc.yaml:8'));
});

it('a substituteFrom ConfigMap elsewhere in the repository is found, also when its name is spelled with an escape', async () => {
  const escaped = copyFixture('gitops/flux-cluster');
  try {
    // Outside what the cluster builds: found by the repository-wide lookup, which parses only files that can hold the name.
    const file = path.join(escaped, 'clusters/prod/cluster-settings.yaml');
    const text = readFileSync(file, 'utf8').replace('name: cluster-settings', 'name: "cluster\\x2dsettings"');
    rmSync(file);
    mkdirSync(path.join(escaped, 'settings'));
    writeFileSync(path.join(escaped, 'settings/cluster-settings.yaml'), text);
    const run = await lint({ paths: ['clusters/prod'], cwd: escaped });
    const f = run.findings.find((x) => x.ruleId === 'pvc-unknown-storageclass' && x.message.includes('"fast-blok"'));
    assert.ok(f, 'the class from the ConfigMap is substituted');
    assert.is(at(f), 'settings/cluster-settings.yaml:8');
    // The cluster does not apply that file: reading it is an assumption, and the run says so.
    const assumed = (run.notInterpreted ?? []).filter((n) => n.name === 'flux-system/apps');
    assert.equal(assumed.map((n) => `${n.file}:${n.line}`), ['clusters/prod/apps.yaml:2']);
    assert.match(assumed[0].reason, /ConfigMap flux-system\/cluster-settings named in postBuild\.substituteFrom is not applied by this cluster; its variables are read from settings\/cluster-settings\.yaml:\d+, assuming/);
  } finally {
    rmSync(escaped, { recursive: true, force: true });
  }
});

it('ReadWriteMany on the block class of the infrastructure layer: at the access mode, the class related', () => {
  const f = finding('pvc-access-mode-unsupported', 'web-shared');
  assert.ok(f, 'pvc-access-mode-unsupported reported');
  assert.is(at(f), 'apps/base/web/shared-claim.yaml:7');
  assert.match(f!.message, /in namespace "media"/);
  assert.equal(f!.related.map((r) => `${r.location.file}:${r.location.region.startLine}`), ['infrastructure/storage/classes.yaml:5']);
});

it('a default (${VOLUME_SIZE:=20Gi}) is applied, and Flux objects are kept in the environment', async () => {
  const seen: any[] = [];
  await lint({ paths: ['clusters/prod'], cwd: dir, onScope: (scope) => seen.push(...scope.model.ofKind('PersistentVolumeClaim'), ...scope.model.ofKind('Kustomization')) });
  const claim = seen.find((r) => r.kind === 'PersistentVolumeClaim' && r.name === 'web');
  assert.is(claim.object.spec.resources.requests.storage, '20Gi');
  assert.is(claim.namespace, 'media');
  assert.ok(seen.some((r) => r.kind === 'Kustomization' && r.name === 'apps'));
});

it('the roots the cluster builds are not linted again on their own (plain kustomize would refuse apps/prod)', async () => {
  const whole = await lint({ paths: ['.'], cwd: dir });
  assert.equal(whole.scopes.map((s) => s.name), ['clusters/prod']);
  assert.equal(whole.findings.filter((f) => f.ruleId === 'pvlint/render'), []);
});

it('CLI: JSON names the flux environment and validates; SARIF carries no notifications when everything was followed', () => {
  const run = runPvlint(['clusters/prod', '--format', 'json'], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  const report: any = JSON.parse(run.stdout);
  const validate = reportValidator();
  assert.ok(validate({ ...report }), describeErrors(validate.errors));
  assert.equal(report.summary.environments.map((e: any) => e.kind), ['flux']);
  assert.is(report.summary.notInterpreted, undefined);
  const sarif: any = JSON.parse(runPvlint(['clusters/prod', '--format', 'sarif'], { cwd: dir }).stdout);
  const validateSarif = sarifValidator();
  assert.ok(validateSarif({ ...sarif }), describeErrors(validateSarif.errors));
  assert.is(sarif.runs[0].invocations[0].toolExecutionNotifications, undefined);
});

it('.pvlint.yaml clusters: a declared cluster takes its name and its own facts (a class it declares is known)', () => {
  const declared = copyFixture('gitops/flux-cluster');
  writeFileSync(
    path.join(declared, '.pvlint.yaml'),
    ['clusters:', '  production:', '    entries: [clusters/prod, clusters/typo]', '    cluster:', '      storageClasses:', '        - name: fast-blok', '          provisioner: ebs.csi.aws.com', ''].join('\n'),
  );
  const run = runPvlint(['.', '--format', 'json'], { cwd: declared });
  const report: any = JSON.parse(run.stdout);
  assert.equal(report.summary.environments.map((e: any) => [e.name, e.kind]), [['production', 'flux']]);
  assert.ok(!report.findings.some((f: any) => f.ruleId === 'pvc-unknown-storageclass'));
  assert.equal(report.summary.notInterpreted.map((e: any) => [e.kind, e.name]), [['root', 'clusters/typo']]);
  assert.ok(report.findings.some((f: any) => f.ruleId === 'rwo-claim-multi-node' && f.location.file === 'clusters/prod/apps.yaml'));
});


it('CLI run from another git repository: Flux paths are relative to the linted repository, not the working directory', () => {
  const elsewhere = path.join(dir, '..', `${path.basename(dir)}-cwd`);
  mkdirSync(path.join(elsewhere, '.git'), { recursive: true });
  try {
    const run = runPvlint([path.join(dir, 'clusters/prod'), '--format', 'json'], { cwd: elsewhere });
    const report: any = JSON.parse(run.stdout);
    assert.equal(report.summary.environments.map((e: any) => e.kind), ['flux'], run.stderr);
    assert.is(report.summary.notInterpreted, undefined);
    assert.ok(report.findings.some((f: any) => f.ruleId === 'rwo-claim-multi-node'), 'the planted Multi-Attach is found');
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

it('--list-environments names the Flux cluster with its files; --environment lints only it', () => {
  const listed = runPvlint(['--list-environments', '--format', 'json', '.'], { cwd: dir });
  assert.is(listed.code, 0, listed.stderr);
  const environments: any[] = JSON.parse(listed.stdout).environments;
  const cluster = environments.find((e) => e.name === 'clusters/prod');
  assert.ok(cluster && cluster.kind === 'flux' && cluster.files > 5, JSON.stringify(environments));
  assert.not.ok(environments.some((e) => e.kind === 'kustomize' && e.name.startsWith('apps/')), 'roots the cluster builds are not environments of their own');
  const only = runPvlint(['--environment', 'clusters/prod', '--format', 'json', '.'], { cwd: dir });
  const report: any = JSON.parse(only.stdout);
  assert.equal(report.summary.environments.map((e: any) => [e.name, e.kind]), [['clusters/prod', 'flux']], only.stderr);
  assert.ok(report.findings.some((f: any) => f.ruleId === 'rwo-claim-multi-node'));
});

test.run();
