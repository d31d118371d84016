// A Flux cluster with objects pvlint cannot interpret (HelmReleases, a Kustomization whose source is an
// OCIRepository, a missing path, an unresolved variable in a storage field) never reads as "no problems":
// each one is listed with its file and line, in lint()'s result, the text summary, JSON and SARIF.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { runPvlint } from '../helpers/spawn.js';
import { copyFixture, HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { describeErrors, reportValidator, sarifValidator } from '../report/schema-validators.js';

const test = suite('gitops: what was not interpreted is listed');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('Flux not-interpreted tests');

let dir: string;
let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  dir = copyFixture('gitops/flux-cluster');
  // Added to the fixture here: the cases that are not followed.
  mkdirSync(path.join(dir, 'apps/prod/db'), { recursive: true });
  writeFileSync(
    path.join(dir, 'clusters/prod/extra.yaml'),
    [
      'apiVersion: kustomize.toolkit.fluxcd.io/v1',
      'kind: Kustomization',
      'metadata:',
      '  name: vendor',
      '  namespace: flux-system',
      'spec:',
      '  path: ./deploy',
      '  sourceRef:',
      '    kind: OCIRepository',
      '    name: vendor-manifests',
      '---',
      'apiVersion: kustomize.toolkit.fluxcd.io/v1',
      'kind: Kustomization',
      'metadata:',
      '  name: gone',
      '  namespace: flux-system',
      'spec:',
      '  path: ./apps/staging',
      '  sourceRef:',
      '    kind: GitRepository',
      '    name: flux-system',
      '---',
      'apiVersion: kustomize.toolkit.fluxcd.io/v1',
      'kind: Kustomization',
      'metadata:',
      '  name: db',
      '  namespace: flux-system',
      'spec:',
      '  path: ./apps/prod/db',
      '  sourceRef:',
      '    kind: GitRepository',
      '    name: flux-system',
      '  postBuild:',
      '    substitute:',
      '      UNRELATED: x',
      // Made outside the repository (Terraform): the variable may be set there, so it is unknown, not unset.
      '    substituteFrom:',
      '      - kind: ConfigMap',
      '        name: db-settings',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dir, 'apps/prod/db/release.yaml'),
    [
      'apiVersion: source.toolkit.fluxcd.io/v1',
      'kind: HelmRepository',
      'metadata:',
      '  name: bitnami',
      '  namespace: db',
      'spec:',
      '  url: https://charts.bitnami.com/bitnami',
      '---',
      'apiVersion: helm.toolkit.fluxcd.io/v2',
      'kind: HelmRelease',
      'metadata:',
      '  name: postgres',
      '  namespace: db',
      'spec:',
      '  chart:',
      '    spec:',
      '      chart: postgresql',
      '      version: 16.4.2',
      '      sourceRef:',
      '        kind: HelmRepository',
      '        name: bitnami',
      '---',
      'apiVersion: v1',
      'kind: PersistentVolumeClaim',
      'metadata:',
      '  name: db-backup',
      '  namespace: db',
      'spec:',
      '  accessModes: [ReadWriteOnce]',
      '  storageClassName: ${BACKUP_CLASS}',
      '  resources:',
      '    requests:',
      '      storage: 1Gi',
      '',
    ].join('\n'),
  );
  result = await lint({ paths: ['clusters/prod'], cwd: dir });
});

const entry = (kind: string, name: string) => result.notInterpreted?.find((e) => e.kind === kind && e.name === name);

it('a HelmRelease is kept in the environment and listed with its chart, keyed by its identity', () => {
  const release = entry('HelmRelease', 'db/postgres');
  assert.ok(release, JSON.stringify(result.notInterpreted));
  assert.is(release!.environment, 'clusters/prod');
  assert.is(`${release!.file}:${release!.line}`, 'apps/prod/db/release.yaml:10');
  assert.equal(release!.chart, { name: 'postgresql', version: '16.4.2', sourceKind: 'HelmRepository', sourceName: 'bitnami', url: 'https://charts.bitnami.com/bitnami' });
  assert.is(release!.key, 'helm.toolkit.fluxcd.io/HelmRelease/db/postgres');
});

it('a Kustomization from another source and one whose path is missing are named with the reason', () => {
  const vendor = entry('Kustomization', 'flux-system/vendor');
  assert.ok(vendor);
  assert.match(vendor!.reason, /OCIRepository vendor-manifests/);
  assert.is(`${vendor!.file}:${vendor!.line}`, 'clusters/prod/extra.yaml:2');
  const gone = entry('Kustomization', 'flux-system/gone');
  assert.match(gone!.reason, /path not found: \.\/apps\/staging/);
});

it('an unresolved variable in a storage field is listed at the placeholder', () => {
  const variable = entry('variable', '${BACKUP_CLASS}');
  assert.ok(variable, JSON.stringify(result.notInterpreted));
  assert.is(`${variable!.file}:${variable!.line}`, 'apps/prod/db/release.yaml:30');
  assert.ok(result.notInterpreted?.some((e) => e.name === 'flux-system/db' && /ConfigMap flux-system\/db-settings .* not in the repository/.test(e.reason)));
  assert.ok(!result.findings.some((f) => f.ruleId === 'pvlint/flux-substitution'), 'an unknown variable is no finding');
});

it('text: the summary never says clean without the list; JSON validates; SARIF notifications validate', () => {
  const text = runPvlint(['clusters/prod', '--no-color'], { cwd: dir });
  assert.match(text.stdout, /Not interpreted \(\d+\)/);
  assert.match(text.stdout, /HelmRelease db\/postgres: [^\n]*chart postgresql[@ ]16\.4\.2/);
  const json = runPvlint(['clusters/prod', '--format', 'json'], { cwd: dir });
  const report: any = JSON.parse(json.stdout);
  const validate = reportValidator();
  assert.ok(validate({ ...report }), describeErrors(validate.errors));
  assert.is(report.summary.notInterpreted.length, result.notInterpreted!.length);
  const sarif: any = JSON.parse(runPvlint(['clusters/prod', '--format', 'sarif'], { cwd: dir }).stdout);
  const validateSarif = sarifValidator();
  assert.ok(validateSarif({ ...sarif }), describeErrors(validateSarif.errors));
  const notifications = sarif.runs[0].invocations[0].toolExecutionNotifications;
  assert.is(notifications.length, result.notInterpreted!.length);
  assert.ok(notifications.some((n: any) => n.locations[0].physicalLocation.artifactLocation.uri === 'apps/prod/db/release.yaml' && n.locations[0].physicalLocation.region.startLine === 10));
});

test.run();
