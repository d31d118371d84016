// pvlint's bundled app-template: a HelmRelease of app-template whose chart cannot be had (no mapping, no cache entry,
// pulling off or failing) renders with the copy in the package, with one note per chart; `helm.bundledCharts: false`
// keeps the chart unrendered. Real helm; every finding asserted at the line a user edits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint, type LintOptions } from '../../src/lint.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { adaptAppTemplateValues, bundledChartFor, holdsTemplateExpression } from '../../src/render/helm-release/bundled-chart.js';
import { ociChart, repositoryChart } from '../../src/render/helm-release/chart-reference.js';
import { REAL_HELM, skipWithoutHelm } from '../helpers/real-helm.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture } from './helpers.js';
import type { Finding, Resource } from '../../src/types.js';

const test = suite("pvlint's bundled app-template");

/** The app-template fixture as its own repository, its OCIRepository asking for `tag`. */
function repoAsking(tag: string): string {
  const dir = copyFixture('helm-release/app-template');
  mkdirSync(path.join(dir, '.git'));
  const oci = path.join(dir, 'apps', 'media', 'ocirepository.yaml');
  writeFileSync(oci, readFileSync(oci, 'utf8').replace('tag: 4.1.1', `tag: ${tag}`));
  return dir;
}

const emptyCache = () => realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-chart-cache-')));

function run(dir: string, extra: Partial<LintOptions> = {}) {
  return lint({ paths: ['.'], cwd: dir, root: dir, rules: defaultRuleSettings(), helmCommand: REAL_HELM, chartCache: emptyCache(), pullCharts: false, ...extra });
}

const places = (findings: readonly Finding[], rule: string) => findings.filter((f) => f.ruleId === rule).map((f) => `${at(f)} ${f.severity}`);
const releaseNotes = (findings: readonly Finding[]) => findings.filter((f) => f.ruleId === 'pvlint/helm-release');

test('bundledChartFor knows app-template by its bjw-s and bjw-s-labs references, and nothing else', () => {
  assert.ok(bundledChartFor(ociChart('oci://ghcr.io/bjw-s-labs/helm/app-template', '5.1.0')));
  assert.ok(bundledChartFor(ociChart('oci://ghcr.io/bjw-s/helm/app-template/', '3.7.3')));
  assert.ok(bundledChartFor(repositoryChart('oci://ghcr.io/bjw-s/helm', 'app-template', '3.0.0')));
  assert.ok(bundledChartFor(repositoryChart('https://bjw-s-labs.github.io/helm-charts/', 'app-template', '4.0.0')));
  assert.ok(bundledChartFor(repositoryChart('https://bjw-s.github.io/helm-charts', 'app-template')));
  assert.is(bundledChartFor(repositoryChart('https://bjw-s.github.io/helm-charts', 'common', '4.1.1')), undefined);
  assert.is(bundledChartFor(ociChart('oci://registry.example.com/charts/app-template', '4.1.1')), undefined);
  assert.is(bundledChartFor(repositoryChart('https://charts.example.com/bjw-s.github.io/helm-charts', 'app-template')), undefined);
  const bundled = bundledChartFor(ociChart('oci://ghcr.io/bjw-s-labs/helm/app-template'))!;
  assert.is(bundled.version, '4.1.1');
  assert.ok(readFileSync(bundled.path).length > 0, 'the bundled chart is where the module says');
});

test('holdsTemplateExpression finds a {{ }} anywhere in an object', () => {
  assert.ok(holdsTemplateExpression({ spec: { volumes: [{ persistentVolumeClaim: { claimName: '{{ .Release.Name }}-cache' } }] } }));
  assert.not.ok(holdsTemplateExpression({ spec: { volumes: [{ persistentVolumeClaim: { claimName: 'jellyfin' } }], replicas: 2, note: '{ not a template }' } }));
});

test('adaptAppTemplateValues evaluates only release expressions in existingClaim, only for app-template 5 and later', () => {
  const values = { persistence: { config: { existingClaim: '{{ .Release.Name }}' }, cache: { existingClaim: '{{ .Release.Name }}-{{ .Release.Namespace }}' }, other: { existingClaim: '{{ .Values.x }}-{{ .Release.Name }}' } } };
  const leaves = [{ path: ['persistence', 'config', 'existingClaim'], value: '{{ .Release.Name }}', at: { resource: {} as Resource, path: [] } }]; // never located in this test
  const adapted = adaptAppTemplateValues(values, leaves, '5.1.0', { name: 'atuin', namespace: 'default' });
  assert.equal(adapted.values.persistence, { config: { existingClaim: 'atuin' }, cache: { existingClaim: 'atuin-default' }, other: { existingClaim: '{{ .Values.x }}-{{ .Release.Name }}' } });
  assert.equal(adapted.leaves.map((l) => l.value), ['atuin']);
  assert.is(values.persistence.config.existingClaim, '{{ .Release.Name }}', 'the merged values are not changed');
  assert.is(adaptAppTemplateValues(values, leaves, '4.2.0', { name: 'atuin', namespace: 'default' }).values, values);
  assert.is(adaptAppTemplateValues(values, leaves, undefined, { name: 'atuin', namespace: 'default' }).values, values);
});

test('offline, an app-template release renders with the bundled chart: its findings at the values, one note saying so', async () => {
  if (skipWithoutHelm('bundled app-template test')) return;
  const dir = repoAsking('5.1.0');
  const result = await run(dir);
  assert.is(result.fatal, false);
  // controllers.jellyfin.replicas: 2 on the ReadWriteOnce claim jellyfin-config.
  assert.equal(places(result.findings, 'rwo-claim-multi-node'), ['apps/media/helmrelease.yaml:14 error']);
  assert.equal(places(result.findings, 'database-ephemeral-data'), ['apps/media/helmrelease.yaml:51 error']);
  const bundled = releaseNotes(result.findings).filter((f) => f.messageId === 'bundled-chart');
  assert.equal(bundled.map((f) => `${at(f)} ${f.severity}`), ['apps/media/helmrelease.yaml:10 note'], 'one note for the chart, not one per release');
  assert.match(bundled[0].message, /^chart app-template 5\.1\.0 from oci:\/\/ghcr\.io\/bjw-s-labs\/helm\/app-template not available \(not in the chart cache \(pulling is off\)\); rendered with pvlint's bundled app-template 4\.1\.1; the release asks for 5\.1\.0: values that only 5\.x understands may render differently$/);
  assert.ok(result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node')!.related.some((r) => /pvlint's bundled 4\.1\.1/.test(r.message)));
  assert.is(result.notInterpreted, undefined);
});

test('a failed pull falls back to the bundled chart as well', async () => {
  if (skipWithoutHelm('bundled app-template after a failed pull')) return;
  const dir = repoAsking('4.1.1');
  // Nothing listens on port 9 (discard) of the loopback: the pull fails fast, as offline.
  const oci = path.join(dir, 'apps', 'media', 'ocirepository.yaml');
  writeFileSync(oci, readFileSync(oci, 'utf8').replace('oci://ghcr.io/bjw-s-labs/helm/app-template', 'oci://127.0.0.1:9/bjw-s-labs/helm/app-template'));
  const unknownHost = await run(dir, { pullCharts: true });
  // 127.0.0.1 is not where bjw-s publishes the chart: no fallback.
  assert.equal(places(unknownHost.findings, 'rwo-claim-multi-node'), []);
  assert.equal((unknownHost.notInterpreted ?? []).length, 2);
  const helmRepository = repoAsking('4.1.1');
  writeFileSync(path.join(helmRepository, 'apps', 'media', 'ocirepository.yaml'), 'apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: bjw-s\n  namespace: media\nspec:\n  url: https://bjw-s-labs.github.io/helm-charts\n');
  const release = path.join(helmRepository, 'apps', 'media', 'helmrelease.yaml');
  writeFileSync(release, readFileSync(release, 'utf8').replaceAll('  chartRef:\n    kind: OCIRepository\n    name: app-template\n', '  chart:\n    spec:\n      chart: app-template\n      version: 4.1.1\n      sourceRef: {kind: HelmRepository, name: bjw-s}\n'));
  const result = await run(helmRepository);
  assert.equal(places(result.findings, 'rwo-claim-multi-node'), ['apps/media/helmrelease.yaml:16 error']);
  const bundled = releaseNotes(result.findings).filter((f) => f.messageId === 'bundled-chart');
  assert.equal(bundled.length, 1);
  assert.match(bundled[0].message, /rendered with pvlint's bundled app-template 4\.1\.1; the release asks for 4\.1\.1 too$/);
});

test('for a 5.x release, existingClaim "{{ .Release.Name }}" is evaluated as app-template 5 does; other expressions leave their objects out', async () => {
  if (skipWithoutHelm('bundled app-template template expressions')) return;
  const dir = repoAsking('5.1.0');
  const release = path.join(dir, 'apps', 'media', 'helmrelease.yaml');
  const original = readFileSync(release, 'utf8');
  // app-template 5 runs existingClaim through tpl; 4.1.1 would mount a claim literally named "{{ .Release.Name }}-config".
  writeFileSync(release, original.replace('existingClaim: jellyfin-config', 'existingClaim: "{{ .Release.Name }}-config"'));
  const evaluated = await run(dir);
  // The claim resolved to the repository's jellyfin-config: replicas: 2 on it is found, at its values line.
  assert.equal(places(evaluated.findings, 'rwo-claim-multi-node'), ['apps/media/helmrelease.yaml:14 error']);
  assert.equal(places(evaluated.findings, 'pod-missing-pvc'), ['apps/media/helmrelease.yaml:26 note'], 'only the jellyfin-medai typo');
  assert.equal(releaseNotes(evaluated.findings).filter((f) => f.messageId === 'bundled-untemplated'), []);

  // An expression pvlint does not evaluate: the Deployment is left out, never linted with a literal {{ }} claim.
  writeFileSync(release, original.replace('existingClaim: jellyfin-medai', 'existingClaim: "{{ .Values.mediaClaim }}"'));
  const result = await run(dir);
  assert.not.ok(result.findings.some((f) => /\{\{/.test(f.message) && f.ruleId !== 'pvlint/helm-release'), 'no finding about an untemplated name');
  assert.equal(places(result.findings, 'rwo-claim-multi-node'), [], 'the jellyfin Deployment is not linted');
  assert.equal(places(result.findings, 'database-ephemeral-data'), ['apps/media/helmrelease.yaml:51 error'], 'the other release still is');
  const left = releaseNotes(result.findings).filter((f) => f.messageId === 'bundled-untemplated');
  assert.equal(left.map((f) => f.message), ["HelmRelease media/jellyfin: Deployment jellyfin still holds template expressions that the requested chart version evaluates but pvlint's bundled app-template 4.1.1 does not, so it is not linted"]);

  // Asking for 4.1.1 itself, the render is exact: the literal name is what the cluster gets, and it is linted.
  const exact = repoAsking('4.1.1');
  writeFileSync(path.join(exact, 'apps', 'media', 'helmrelease.yaml'), original.replace('existingClaim: jellyfin-config', 'existingClaim: "{{ .Release.Name }}-config"'));
  const exactResult = await run(exact);
  assert.equal(places(exactResult.findings, 'pod-missing-pvc'), ['apps/media/helmrelease.yaml:22 note', 'apps/media/helmrelease.yaml:26 note']);
  assert.equal(releaseNotes(exactResult.findings).filter((f) => f.messageId === 'bundled-untemplated'), []);
});

test('helm.bundledCharts: false keeps the chart unrendered: one note per release, listed as not interpreted', async () => {
  if (skipWithoutHelm('bundledCharts: false test')) return;
  const dir = repoAsking('5.1.0');
  const result = await run(dir, { bundledCharts: false });
  assert.equal(places(result.findings, 'rwo-claim-multi-node'), []);
  assert.equal(releaseNotes(result.findings).map((f) => `${at(f)} ${f.messageId}`), ['apps/media/helmrelease.yaml:10 not-rendered', 'apps/media/helmrelease.yaml:39 not-rendered']);
  assert.equal((result.notInterpreted ?? []).map((r) => `${r.kind} ${r.file}:${r.line} ${r.name}`), ['HelmRelease apps/media/helmrelease.yaml:10 media/jellyfin', 'HelmRelease apps/media/helmrelease.yaml:39 media/postgres']);
  // The same from .pvlint.yaml through the CLI; without the key the CLI renders the bundled chart and exits 1.
  const env = { PATH: `${path.dirname(REAL_HELM!)}${path.delimiter}${process.env.PATH}` };
  // A configuration of its own, so the fixture folder's (which maps app-template) is not found above it.
  writeFileSync(path.join(dir, '.pvlint.yaml'), 'helm:\n  pullCharts: false\n');
  const on = runPvlint(['--no-chart-pull', '--format', 'json', '--chart-cache', emptyCache(), '.'], { cwd: dir, env });
  assert.is(on.code, 1, on.stderr);
  writeFileSync(path.join(dir, '.pvlint.yaml'), 'helm:\n  bundledCharts: false\n');
  const off = runPvlint(['--no-chart-pull', '--format', 'json', '--chart-cache', emptyCache(), '.'], { cwd: dir, env });
  assert.is(off.code, 0, off.stderr);
  const report = JSON.parse(off.stdout);
  assert.equal(report.findings.filter((f: any) => f.ruleId === 'pvlint/helm-release').map((f: any) => f.messageId), ['not-rendered', 'not-rendered']);
  assert.equal(report.summary.notInterpreted.length, 2);
});

test.run();
