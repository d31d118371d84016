// Flux HelmReleases rendered with the real helm: app-template from the packaged chart mapped through
// `helm.charts`, a chart directory of the repository (GitRepository), a chart pulled from a chart repository served
// on 127.0.0.1 into the cache and rendered from there with the server stopped, a chart that cannot be pulled.
// Every finding is asserted at the line a user edits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint, type LintOptions } from '../../src/lint.js';
import { findOnPath } from '../../src/render/executables.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { serveCharts } from '../helpers/chart-server.js';
import { REAL_HELM, requiresHelm } from '../helpers/real-helm.js';
import { requires } from '../helpers/requires.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, FIXTURES } from './helpers.js';
import type { Finding } from '../../src/types.js';

const test = suite('HelmReleases rendered with the real helm');
/** The tests that run the real helm: skipped (and counted so) without one. */
const withHelm = requiresHelm(test, 'helm-release.test.ts');
/** A postRenderer and kustomize helmCharts need kustomize (or kubectl) too. */
const withHelmAndKustomize = !REAL_HELM ? withHelm : requires(test, Boolean(findOnPath('kubectl') || findOnPath('kustomize')), 'the postRenderer and kustomize helmCharts tests of helm-release.test.ts', 'neither kustomize nor kubectl is on PATH', 'install kubectl (its kustomize) or kustomize');
const APP_TEMPLATE = path.join(FIXTURES, 'helm-release', 'charts', 'app-template-4.1.1.tgz');

/** A copy of a fixture that is its own repository root (a `.git` directory), so chart paths resolve from it. */
function repoCopy(relative: string): string {
  const dir = copyFixture(relative);
  mkdirSync(path.join(dir, '.git'));
  return dir;
}

const cacheDir = () => realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-chart-cache-')));

function run(dir: string, extra: Partial<LintOptions> = {}) {
  return lint({ paths: ['.'], cwd: dir, root: dir, rules: defaultRuleSettings(), helmCommand: REAL_HELM, chartCache: cacheDir(), ...extra });
}

const summary = (findings: readonly Finding[], rule: string) => findings.filter((f) => f.ruleId === rule).map((f) => `${at(f)} ${f.severity}`);

withHelm('a mapped app-template copy older than the release asks: existingClaim "{{ .Release.Name }}" is evaluated as 5.x does', async () => {
  const dir = repoCopy('helm-release/app-template');
  cpSync(APP_TEMPLATE, path.join(dir, 'app-template-4.1.1.tgz'));
  const release = path.join(dir, 'apps/media/helmrelease.yaml');
  writeFileSync(release, readFileSync(release, 'utf8').replace('existingClaim: jellyfin-config', 'existingClaim: "{{ .Release.Name }}-config"'));
  const repository = path.join(dir, 'apps/media/ocirepository.yaml');
  writeFileSync(repository, readFileSync(repository, 'utf8').replace('tag: 4.1.1', 'tag: 5.1.0'));
  const result = await run(dir, { helmChartMappings: [{ reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template', path: path.join(dir, 'app-template-4.1.1.tgz') }] });
  // Rendered by 4.1.1 the claim would be named "{{ .Release.Name }}-config"; 5.x mounts jellyfin-config.
  assert.equal(summary(result.findings, 'rwo-claim-multi-node'), ['apps/media/helmrelease.yaml:14 error']);
  assert.not.ok(result.findings.some((f) => f.message.includes('{{')), result.findings.map((f) => f.message).join('\n'));
});

withHelm('app-template from the packaged chart: replicas, a missing existingClaim and a database on emptyDir, at their values', async () => {
  const dir = repoCopy('helm-release/app-template');
  cpSync(APP_TEMPLATE, path.join(dir, 'app-template-4.1.1.tgz'));
  const result = await run(dir, { helmChartMappings: [{ reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template', path: path.join(dir, 'app-template-4.1.1.tgz') }] });
  assert.is(result.fatal, false);
  // controllers.jellyfin.replicas: 2 on the ReadWriteOnce claim jellyfin-config.
  assert.equal(summary(result.findings, 'rwo-claim-multi-node'), ['apps/media/helmrelease.yaml:14 error']);
  // persistence.media.existingClaim names no claim (a note: the cluster may hold it).
  assert.equal(summary(result.findings, 'pod-missing-pvc'), ['apps/media/helmrelease.yaml:26 note']);
  // persistence.data.type: emptyDir under the PostgreSQL controller.
  assert.equal(summary(result.findings, 'database-ephemeral-data'), ['apps/media/helmrelease.yaml:51 error']);
  const replicas = result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node')!;
  assert.match(replicas.message, /Deployment "jellyfin" runs 2 replicas/);
  assert.ok(replicas.related.some((r) => /rendered from chart app-template 4\.1\.1 from oci:\/\/ghcr\.io\/bjw-s-labs\/helm\/app-template, template app-template\/templates\/common\.yaml/.test(r.message)));
  // The claim the release mounts is the repository's claim: it resolved, so no missing-claim finding names it.
  assert.not.ok(result.findings.some((f) => f.ruleId === 'pod-missing-pvc' && /jellyfin-config/.test(f.message)));
  // The chart's schema references URLs: rendered without schema validation, said once for the chart.
  const notes = result.findings.filter((f) => f.ruleId === 'pvlint/helm-release');
  assert.equal(notes.length, 1);
  assert.match(notes[0].message, /app-template 4\.1\.1 .*--skip-schema-validation/);
  assert.is(result.notInterpreted, undefined);
});

withHelm('values the chart rejects (advancedMounts naming no controller): a warning at that values key, not at the chart', async () => {
  const dir = repoCopy('helm-release/app-template');
  cpSync(APP_TEMPLATE, path.join(dir, 'app-template-4.1.1.tgz'));
  const release = path.join(dir, 'apps/media/helmrelease.yaml');
  const text = readFileSync(release, 'utf8');
  writeFileSync(release, text.replace('        existingClaim: jellyfin-medai\n        globalMounts:\n          - path: /media', '        existingClaim: jellyfin-config\n        advancedMounts:\n          jellyfn:\n            app:\n              - path: /media'));
  const result = await run(dir, { helmChartMappings: [{ reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template', path: path.join(dir, 'app-template-4.1.1.tgz') }] });
  const rejected = result.findings.filter((f) => f.ruleId === 'pvlint/helm-release' && f.messageId === 'values-rejected');
  // The exact chart the release asks for failed on its values: helm-controller fails the same way.
  assert.equal(rejected.map((f) => `${at(f)} ${f.severity}`), ['apps/media/helmrelease.yaml:28 warning']);
  assert.match(rejected[0].message, /persistence item: 'media', controller: 'jellyfn'/);
  assert.match(rejected[0].fix, /chart rejects these values/);
  assert.equal(result.notInterpreted?.map((n) => n.name), ['media/jellyfin']);
  // The other release still renders and is linted.
  assert.equal(summary(result.findings, 'database-ephemeral-data'), ['apps/media/helmrelease.yaml:53 error']);
});

withHelm('values rejected by a stand-in of another version (the bundled app-template): a note at the values key', async () => {
  const dir = repoCopy('helm-release/app-template');
  const release = path.join(dir, 'apps/media/helmrelease.yaml');
  writeFileSync(release, readFileSync(release, 'utf8').replace('      jellyfin:\n        replicas: 2', '      jellyfin:\n        type: daemonset-ish\n        replicas: 2'));
  const repository = path.join(dir, 'apps/media/ocirepository.yaml');
  writeFileSync(repository, readFileSync(repository, 'utf8').replace('tag: 4.1.1', 'tag: 5.1.0'));
  rmSync(path.join(dir, '.pvlint.yaml'));
  const result = await run(dir, { pullCharts: false });
  const rejected = result.findings.filter((f) => f.messageId === 'values-rejected');
  assert.equal(rejected.map((f) => `${at(f)} ${f.severity}`), ['apps/media/helmrelease.yaml:14 note']);
  assert.match(rejected[0].fix, /bundled app-template 4\.1\.1, not the 5\.1\.0 version/);
});

withHelm('a claim the release renders that the repository also defines (same name): an ownership conflict at the values entry', async () => {
  const dir = repoCopy('helm-release/app-template');
  cpSync(APP_TEMPLATE, path.join(dir, 'app-template-4.1.1.tgz'));
  const release = path.join(dir, 'apps/media/helmrelease.yaml');
  // One rendered claim: app-template names it after the release, "jellyfin", like the backup claim below.
  writeFileSync(release, readFileSync(release, 'utf8').replace('        existingClaim: jellyfin-medai\n', '        type: persistentVolumeClaim\n        accessMode: ReadWriteOnce\n        size: 5Gi\n'));
  const claims = path.join(dir, 'apps/media/claims.yaml');
  const backupClaim = ['---', 'apiVersion: v1', 'kind: PersistentVolumeClaim', 'metadata:', '  name: jellyfin', '  namespace: media', 'spec:', '  accessModes: ["ReadWriteOnce"]', '  storageClassName: standard', '  resources:', '    requests:', '      storage: 5Gi', ''].join('\n');
  writeFileSync(claims, readFileSync(claims, 'utf8') + backupClaim);
  const mapping = { helmChartMappings: [{ reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template', path: path.join(dir, 'app-template-4.1.1.tgz') }] };
  const result = await run(dir, mapping);
  const conflicts = result.findings.filter((f) => f.ruleId === 'pvlint/helm-ownership-conflict');
  assert.equal(conflicts.map((f) => `${at(f)} ${f.severity}`), ['apps/media/helmrelease.yaml:27 error']);
  assert.match(conflicts[0].message, /PersistentVolumeClaim "jellyfin" in namespace "media" is rendered by HelmRelease media\/jellyfin, and the environment also applies it/);
  assert.equal(conflicts[0].related.map((r) => `${r.location.file}:${r.location.region.startLine}`), ['apps/media/claims.yaml:23']);
  // A claim that carries the release's ownership annotations is adopted by Helm: no conflict.
  writeFileSync(claims, readFileSync(claims, 'utf8').replace('  name: jellyfin\n  namespace: media\n', '  name: jellyfin\n  namespace: media\n  annotations:\n    meta.helm.sh/release-name: jellyfin\n    meta.helm.sh/release-namespace: media\n'));
  const adopted = await run(dir, mapping);
  assert.equal(adopted.findings.filter((f) => f.ruleId === 'pvlint/helm-ownership-conflict'), []);
});

withHelmAndKustomize('valuesFrom a ConfigMap that configMapGenerator makes from a values file: findings at the line in that file', async () => {
  const dir = repoCopy('helm-release/app-template');
  cpSync(APP_TEMPLATE, path.join(dir, 'app-template-4.1.1.tgz'));
  const media = path.join(dir, 'apps/media');
  writeFileSync(path.join(media, 'kustomization.yaml'), [
    'apiVersion: kustomize.config.k8s.io/v1beta1', 'kind: Kustomization', 'resources:', '  - claims.yaml', '  - helmrelease.yaml', '  - ocirepository.yaml',
    'configMapGenerator:', '  - name: jellyfin-values', '    namespace: media', '    files:', '      - values.yaml=jellyfin-values.yaml', 'generatorOptions:', '  disableNameSuffixHash: true', ''].join('\n'));
  writeFileSync(path.join(media, 'jellyfin-values.yaml'), ['persistence:', '  cache:', '    type: persistentVolumeClaim', '    accessMode: ReadWriteOnce', '    size: 0Gi', '    globalMounts:', '      - path: /cache', ''].join('\n'));
  const release = path.join(media, 'helmrelease.yaml');
  writeFileSync(release, readFileSync(release, 'utf8').replace('  name: jellyfin\n  namespace: media\nspec:\n', '  name: jellyfin\n  namespace: media\nspec:\n  valuesFrom:\n    - kind: ConfigMap\n      name: jellyfin-values\n      valuesKey: values.yaml\n'));
  const result = await run(dir, { helmChartMappings: [{ reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template', path: path.join(dir, 'app-template-4.1.1.tgz') }] });
  // The claim's size comes from line 5 of the values file, not from the generator's files entry.
  assert.equal(summary(result.findings, 'claim-spec-invalid'), ['apps/media/jellyfin-values.yaml:5 error']);
});

withHelm('a bare chart name mapped to another version than the release asks for renders it, and says so once', async () => {
  const dir = repoCopy('helm-release/app-template');
  cpSync(APP_TEMPLATE, path.join(dir, 'app-template-4.1.1.tgz'));
  const oci = path.join(dir, 'apps', 'media', 'ocirepository.yaml');
  writeFileSync(oci, readFileSync(oci, 'utf8').replace('tag: 4.1.1', 'tag: 5.1.0'));
  const result = await run(dir, { helmChartMappings: [{ reference: 'app-template', path: path.join(dir, 'app-template-4.1.1.tgz') }] });
  assert.equal(summary(result.findings, 'rwo-claim-multi-node'), ['apps/media/helmrelease.yaml:14 error']);
  const versions = result.findings.filter((f) => f.ruleId === 'pvlint/helm-release' && /maps "app-template"/.test(f.message));
  assert.equal(versions.map((f) => f.message), ['chart app-template 5.1.0 from oci://ghcr.io/bjw-s-labs/helm/app-template: helm.charts maps "app-template" to a copy of version 4.1.1, so releases asking for 5.1.0 are linted as 4.1.1 renders them']);
  // Both notes at the chart line survive the merge of findings: they are different notes.
  assert.equal(result.findings.filter((f) => f.ruleId === 'pvlint/helm-release').map((f) => `${at(f)} ${f.messageId}`).sort(), ['apps/media/helmrelease.yaml:10 schema-skipped', 'apps/media/helmrelease.yaml:10 version-differs']);
});

withHelm('the CLI reads helm.charts from .pvlint.yaml and exits 1 for the errors', async () => {
  const dir = copyFixture('helm-release');
  mkdirSync(path.join(dir, '.git'));
  // The configuration is found from the working directory up; its paths are relative to it.
  const run = runPvlint(['--format', 'json', '--chart-cache', cacheDir(), '.'], { cwd: path.join(dir, 'app-template'), env: { PATH: `${path.dirname(REAL_HELM!)}${path.delimiter}${process.env.PATH}` } });
  assert.is(run.code, 1, run.stderr);
  const findings = JSON.parse(run.stdout).findings as any[];
  const places = findings.filter((f) => !f.ruleId.startsWith('pvlint/')).map((f) => `${f.ruleId} ${f.location.file}:${f.location.startLine}`).sort();
  assert.equal(places, [
    'database-ephemeral-data app-template/apps/media/helmrelease.yaml:51',
    'pod-missing-pvc app-template/apps/media/helmrelease.yaml:26',
    'rwo-claim-multi-node app-template/apps/media/helmrelease.yaml:14',
  ]);
});

withHelmAndKustomize('a chart directory of the repository (GitRepository), valuesFrom a ConfigMap and a postRenderer patch, offline', async () => {
  const dir = repoCopy('helm-release/in-repo');
  const result = await run(dir);
  assert.is(result.fatal, false);
  const release = (f: Finding) => f.environments.includes('.');
  // replicas: 3 comes from the ConfigMap's values.yaml: the finding is at that line inside the block.
  assert.equal(summary(result.findings.filter(release), 'rwo-claim-multi-node'), ['apps/shop/values.yaml:9 error']);
  const replicas = result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node' && release(f))!;
  assert.match(replicas.message, /Deployment "shop" runs 3 replicas/);
  // Related: the template of the repository's chart.
  assert.ok(replicas.related.some((r) => r.location.file === 'charts/storage-app/templates/deployment.yaml' && r.location.region.startLine === 6));
  // The postRenderer added a PostgreSQL container on an emptyDir: no value sets it, so it is at the chart line.
  assert.equal(summary(result.findings.filter(release), 'database-ephemeral-data'), ['apps/shop/helmrelease.yaml:10 error']);
  // The inline `claim.size: 5Gi` won over the chart default and reached the claim.
  const claims: string[] = [];
  await lint({
    paths: ['.'], cwd: dir, root: dir, rules: defaultRuleSettings(), helmCommand: REAL_HELM, chartCache: cacheDir(),
    onScope: (scope) => {
      if (scope.name === '.') for (const pvc of scope.model.ofKind('PersistentVolumeClaim')) claims.push(`${pvc.namespace}/${pvc.name} ${pvc.object.spec?.resources?.requests?.storage}`);
    },
  });
  assert.equal(claims, ['shop/shop-data 5Gi']);
});

/** A chart repository on 127.0.0.1 holding the packaged `storage-app` fixture chart (`helm package`, `helm repo index`). */
async function servedStorageApp(): Promise<Awaited<ReturnType<typeof serveCharts>>> {
  const served = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-served-')));
  execFileSync(REAL_HELM!, ['package', path.join(FIXTURES, 'helm-release', 'in-repo', 'charts', 'storage-app'), '--destination', served], { stdio: 'ignore' });
  const server = await serveCharts(served);
  execFileSync(REAL_HELM!, ['repo', 'index', served, '--url', server.url], { stdio: 'ignore' });
  return server;
}

function remoteRepo(url: string, version: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-remote-')));
  mkdirSync(path.join(dir, '.git'));
  mkdirSync(path.join(dir, 'apps'));
  writeFileSync(path.join(dir, 'apps', 'release.yaml'), [
    'apiVersion: source.toolkit.fluxcd.io/v1',
    'kind: HelmRepository',
    'metadata: {name: local-charts, namespace: flux-system}',
    `spec: {url: "${url}"}`,
    '---',
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    '  name: store',
    '  namespace: store',
    'spec:',
    '  chart:',
    '    spec:',
    '      chart: storage-app',
    `      version: ${version}`,
    '      sourceRef: {kind: HelmRepository, name: local-charts, namespace: flux-system}',
    '  values:',
    '    replicas: 4',
    '',
  ].join('\n'));
  return dir;
}

withHelm('a remote chart is pulled into the cache, then rendered from the cache with the server stopped', async () => {
  const server = await servedStorageApp();
  const dir = remoteRepo(server.url, '0.1.0');
  const chartCache = cacheDir();
  let first;
  try {
    first = await run(dir, { chartCache });
  } finally {
    await server.close();
  }
  assert.ok(server.requests.some((r) => r.endsWith('storage-app-0.1.0.tgz')), `the chart was downloaded: ${server.requests.join(', ')}`);
  // A warning: the claim's class is not in the repository, so how its driver attaches is unknown.
  assert.equal(summary(first.findings, 'rwo-claim-multi-node'), ['apps/release.yaml:18 warning']);
  assert.equal(readdirSync(chartCache).filter((name) => !name.startsWith('.')).length, 1);
  const requestsBefore = server.requests.length;
  const second = await run(dir, { chartCache });
  assert.is(server.requests.length, requestsBefore);
  assert.equal(summary(second.findings, 'rwo-claim-multi-node'), ['apps/release.yaml:18 warning']);
  assert.equal(second.findings.filter((f) => f.ruleId === 'pvlint/helm-release'), []);
});

withHelm('a version range is pulled at every run; offline, the chart it last resolved to renders, with a note', async () => {
  const server = await servedStorageApp();
  const dir = remoteRepo(server.url, '">=0.1.0"');
  const chartCache = cacheDir();
  let online;
  try {
    online = await run(dir, { chartCache });
  } finally {
    await server.close();
  }
  assert.equal(summary(online.findings, 'rwo-claim-multi-node'), ['apps/release.yaml:18 warning']);
  assert.equal(online.findings.filter((f) => f.ruleId === 'pvlint/helm-release'), []);
  const offline = await run(dir, { chartCache });
  assert.equal(summary(offline.findings, 'rwo-claim-multi-node'), ['apps/release.yaml:18 warning']);
  const notes = offline.findings.filter((f) => f.ruleId === 'pvlint/helm-release');
  assert.equal(notes.map((f) => at(f)), ['apps/release.yaml:14']);
  assert.match(notes[0].message, /rendered the version an earlier pull resolved >=0\.1\.0 to/);
});

withHelm('a chart that cannot be pulled is one note naming it, and the exit code does not change', async () => {
  // Nothing listens on port 9 (discard) of the loopback in a test environment: the pull fails fast.
  const dir = remoteRepo('http://127.0.0.1:9/charts', '1.2.3');
  writeFileSync(path.join(dir, 'apps', 'release.yaml'), `${readFileSync(path.join(dir, 'apps', 'release.yaml'), 'utf8')}    persistence:\n      data: {enabled: true}\n      cache: {enabled: true}\n      off: {enabled: false}\n`);
  const result = await run(dir);
  assert.is(result.fatal, false);
  const notes = result.findings.filter((f) => f.ruleId === 'pvlint/helm-release');
  assert.equal(notes.map((f) => `${at(f)} ${f.severity}`), ['apps/release.yaml:14 note']);
  assert.match(notes[0].message, /^HelmRelease store\/store: chart storage-app 1\.2\.3 from http:\/\/127\.0\.0\.1:9\/charts not available \(helm pull failed: .*\): 2 persistence entries not linted$/);
  assert.equal((result.notInterpreted ?? []).map((r) => `${r.environment} ${r.kind} ${r.file}:${r.line} ${r.name}`), ['. HelmRelease apps/release.yaml:14 store/store']);
  const cli = runPvlint(['--chart-cache', cacheDir(), '.'], { cwd: dir, env: { PATH: `${path.dirname(REAL_HELM!)}${path.delimiter}${process.env.PATH}` } });
  assert.is(cli.code, 0, cli.stdout + cli.stderr);
  assert.match(cli.stdout, /storage-app 1\.2\.3 from http:\/\/127\.0\.0\.1:9\/charts not available/);  const offline = runPvlint(['--no-chart-pull', '--format', 'json', '--chart-cache', cacheDir(), '.'], { cwd: dir, env: { PATH: `${path.dirname(REAL_HELM!)}${path.delimiter}${process.env.PATH}` } });
  assert.is(offline.code, 0);
  assert.match(JSON.parse(offline.stdout).findings.map((f: Finding) => f.message).join('\n'), /not available \(not in the chart cache \(pulling is off\)\): 2 persistence entries not linted/);
});

withHelmAndKustomize('kustomize helmCharts render with --enable-helm and the real helm; without it, the render error says so', async () => {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-helmcharts-')));
  mkdirSync(path.join(dir, '.git'));
  cpSync(path.join(FIXTURES, 'helm-release', 'in-repo', 'charts'), path.join(dir, 'app', 'charts'), { recursive: true });
  writeFileSync(path.join(dir, 'app', 'kustomization.yaml'), 'namespace: web\nhelmCharts:\n  - name: storage-app\n    releaseName: web\n    valuesInline:\n      replicas: 2\n');
  const enabled = await run(dir, { enableHelm: true });
  assert.is(enabled.fatal, false);
  assert.equal(enabled.findings.filter((f) => f.ruleId === 'rwo-claim-multi-node').map((f) => f.environments), [['app']]);
  const disabled = await run(dir);
  assert.is(disabled.fatal, true);
  assert.match(disabled.findings.find((f) => f.ruleId === 'pvlint/render')!.message, /--enable-helm/);
});

test.run();
