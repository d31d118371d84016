// Umbrella charts of the repository whose dependencies are not vendored in charts/ (Argo CD runs helm dependency
// build): pvlint supplies them in a temporary copy (bundled app-template, file://, disabled ones stubbed), lists a
// chart whose dependency cannot be had as not interpreted, and locates findings at the umbrella's values. Real helm.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint, type LintOptions } from '../../src/lint.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { certainlyDisabled, declaredDependencies, vendoredChartNames } from '../../src/render/chart-dependencies.js';
import { dependencyPath } from '../../src/render/dependency-source.js';
import { bundledChartFor } from '../../src/render/helm-release/bundled-chart.js';
import { repositoryChart } from '../../src/render/helm-release/chart-reference.js';
import { prepareDependencies } from '../../src/render/supply-dependencies.js';
import { serveCharts } from '../helpers/chart-server.js';
import { REAL_HELM, requiresHelm } from '../helpers/real-helm.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, FIXTURES } from './helpers.js';
import type { Finding } from '../../src/types.js';

const test = suite('chart dependencies');
const withHelm = requiresHelm(test, 'chart-dependencies.test.ts');

const emptyCache = () => realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-chart-cache-')));

/** The fixture as a git checkout whose origin is the repoURL its Applications name. */
function repository(withArgo = true): string {
  const dir = copyFixture('chart-dependencies');
  mkdirSync(path.join(dir, '.git'));
  writeFileSync(path.join(dir, '.git', 'config'), '[remote "origin"]\n\turl = https://git.example.com/homelab.git\n');
  if (!withArgo) rmSync(path.join(dir, 'argocd'), { recursive: true });
  return dir;
}

function run(dir: string, extra: Partial<LintOptions> = {}) {
  return lint({ paths: ['.'], cwd: dir, root: dir, rules: defaultRuleSettings(), helmCommand: REAL_HELM, chartCache: emptyCache(), pullCharts: false, ...extra });
}

const places = (findings: readonly Finding[], rule: string) => findings.filter((f) => f.ruleId === rule).map((f) => `${at(f)} ${f.severity}`);
const dependencyNotes = (findings: readonly Finding[]) => findings.filter((f) => f.ruleId === 'pvlint/chart-dependency').map((f) => `${at(f)} ${f.messageId}`);

test('declaredDependencies reads Chart.yaml, and requirements.yaml for apiVersion v1 charts', () => {
  const dir = copyFixture('chart-dependencies');
  const wiki = declaredDependencies(path.join(dir, 'apps', 'wiki'))!;
  assert.equal(wiki.list.map((d) => [d.name, d.alias, d.version, d.condition]), [['app-template', 'wiki', '4.1.1', undefined], ['postgresql', undefined, '16.0.0', 'postgresql.enabled']]);
  const v1 = path.join(dir, 'v1');
  mkdirSync(v1);
  writeFileSync(path.join(v1, 'Chart.yaml'), 'apiVersion: v1\nname: old\nversion: 1.0.0\n');
  writeFileSync(path.join(v1, 'requirements.yaml'), 'dependencies:\n  - name: redis\n    version: ~10.0.0\n    repository: https://charts.example.invalid\n');
  assert.equal(declaredDependencies(v1)!.list.map((d) => `${d.name} ${d.version}`), ['redis ~10.0.0']);
  assert.ok(declaredDependencies(v1)!.file.endsWith('requirements.yaml'));
  assert.is(declaredDependencies(path.join(dir, 'libs', 'storage-app')), undefined);
});

test('certainlyDisabled follows helm: the first boolean condition decides, tags only without a condition', () => {
  const dependency = { index: 0, name: 'db', repository: '', tags: ['backend'] };
  assert.ok(certainlyDisabled({ ...dependency, condition: 'db.enabled' }, { db: { enabled: false } }));
  assert.not.ok(certainlyDisabled({ ...dependency, condition: 'db.enabled' }, { db: { enabled: true }, tags: { backend: false } }));
  assert.ok(certainlyDisabled({ ...dependency, condition: 'missing.enabled,db.enabled' }, { db: { enabled: false } }));
  // Unanswered: the dependency's own defaults may answer it, so it is not certain.
  assert.not.ok(certainlyDisabled({ ...dependency, condition: 'db.enabled' }, { tags: { backend: false } }));
  assert.ok(certainlyDisabled(dependency, { tags: { backend: false } }));
  assert.not.ok(certainlyDisabled({ ...dependency, tags: ['backend', 'extra'] }, { tags: { backend: false, extra: true } }));
  assert.not.ok(certainlyDisabled(dependency, {}));
});

test('dependencyPath reads the dependency keys out of a # Source: path', () => {
  assert.equal(dependencyPath('media/charts/app-template/templates/common.yaml'), { keys: ['app-template'], template: 'templates/common.yaml' });
  assert.equal(dependencyPath('shop/charts/store/charts/db/templates/x.yaml'), { keys: ['store', 'db'], template: 'templates/x.yaml' });
  assert.is(dependencyPath('media/templates/claims.yaml'), undefined);
});

test('a chart whose charts/ holds every dependency is rendered as it is, without a copy', async () => {
  const dir = copyFixture('chart-dependencies');
  const media = path.join(dir, 'apps', 'media');
  const bundled = bundledChartFor(repositoryChart('https://bjw-s-labs.github.io/helm-charts', 'app-template'))!;
  mkdirSync(path.join(media, 'charts'));
  copyFileSync(bundled.path, path.join(media, 'charts', 'app-template-4.1.1.tgz'));
  assert.equal([...vendoredChartNames(media)], ['app-template']);
  const supply = { helm: undefined, chartCache: emptyCache(), chartMappings: [], pull: false, timeoutMs: 10_000, pulls: new Map() };
  assert.is(await prepareDependencies(media, [], supply, dir), undefined);
  const metrics = await prepareDependencies(path.join(dir, 'apps', 'metrics'), [], supply, dir);
  assert.equal(metrics && metrics.kind === 'unavailable' ? `${metrics.missing.label}: ${metrics.missing.reason}` : metrics, 'metrics-server 3.12.2 from https://charts.example.invalid: not in the chart cache (pulling is off)');
});

withHelm('Argo CD umbrella apps render offline: findings at the values under the dependency key, the unobtainable one not interpreted', async () => {
  const dir = repository();
  const result = await run(dir);
  assert.is(result.fatal, false);
  assert.equal(places(result.findings, 'pvlint/render'), []);
  // app-template.controllers.jellyfin.replicas: 2 on the ReadWriteOnce claim "{{ .Release.Name }}-config" (5.x evaluates it).
  // The wiki's claim comes from its persistence entry (under the alias): a Deployment and a CronJob mount it.
  assert.equal(places(result.findings, 'rwo-claim-multi-node'), ['apps/media/values.yaml:4 error', 'apps/shop/values.yaml:2 error', 'apps/wiki/values.yaml:21 error']);
  const missing = result.findings.find((f) => f.ruleId === 'pod-missing-pvc')!;
  assert.is(at(missing), 'apps/media/values.yaml:16');
  assert.match(missing.message, /"jellyfin-medai"/);
  assert.ok(missing.related.some((r) => /dependency app-template 5\.1\.0 .*pvlint's bundled 4\.1\.1/.test(r.message) && r.location.file === 'apps/media/Chart.yaml'));
  assert.equal(dependencyNotes(result.findings), ['apps/media/Chart.yaml:7 bundled-chart', 'apps/metrics/Chart.yaml:7 not-rendered', 'apps/wiki/Chart.yaml:7 bundled-chart']);
  assert.equal((result.notInterpreted ?? []).filter((e) => e.environment === 'argocd:in-cluster').map((e) => `${e.kind} ${e.name} ${e.chart?.name} ${e.chart?.url}`), ['Application metrics metrics-server https://charts.example.invalid']);
  // The disabled postgresql was never needed; the wiki (alias of app-template) rendered under its alias's values.
  const wiki = result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node' && at(f) === 'apps/wiki/values.yaml:21')!;
  assert.match(wiki.note ?? '', /^wiki\.persistence\.data configures data/);
  // The backup CronJob sets no activeDeadlineSeconds, which no value sets: the controller entry it is rendered from.
  const deadline = result.findings.filter((f) => f.ruleId === 'job-rwo-long-deadline');
  assert.equal(deadline.map((f) => at(f)), ['apps/wiki/values.yaml:11']);
  assert.match(deadline[0].note ?? '', /wiki\.controllers\.backup is the values entry CronJob "wiki-backup" is rendered from/);
  assert.not.ok(existsSync(path.join(dir, 'apps', 'media', 'charts')), 'nothing is written into the repository');
  assert.not.ok(existsSync(path.join(dir, 'apps', 'wiki', 'charts')));
});

withHelm('chart environments get their dependencies too; an unobtainable one is a not-interpreted chart, exit not 2', async () => {
  const dir = repository(false);
  const result = await run(dir);
  assert.is(result.fatal, false);
  assert.equal(places(result.findings, 'rwo-claim-multi-node'), ['apps/media/values.yaml:4 error', 'apps/shop/values.yaml:2 error', 'apps/wiki/values.yaml:21 error']);
  assert.equal((result.notInterpreted ?? []).filter((e) => e.kind === 'chart').map((e) => `${e.file}:${e.line} ${e.name}: ${e.reason}`), [
    'apps/metrics/Chart.yaml:7 apps/metrics: dependency metrics-server 3.12.2 from https://charts.example.invalid not available (not in the chart cache (pulling is off))',
  ]);
  assert.ok(result.scopes.some((s) => s.name === 'apps/wiki' && s.resources > 0), 'the wiki renders with its disabled dependency left out');
  // The CLI, as a user runs it offline: findings exit 1, never the render error's 2; without the bundled copy the
  // app-template apps are not interpreted either.
  const env = { PATH: `${path.dirname(REAL_HELM!)}${path.delimiter}${process.env.PATH}` };
  const cli = runPvlint(['--no-chart-pull', '--format', 'json', '--chart-cache', emptyCache(), '.'], { cwd: dir, env });
  assert.is(cli.code, 1, `${cli.stderr}${cli.stdout.slice(0, 3000)}`);
  writeFileSync(path.join(dir, '.pvlint.yaml'), 'helm:\n  bundledCharts: false\n');
  const off = runPvlint(['--no-chart-pull', '--format', 'json', '--chart-cache', emptyCache(), '.'], { cwd: dir, env });
  assert.is(off.code, 1, off.stderr);
  const report = JSON.parse(off.stdout);
  assert.equal(report.summary.notInterpreted.filter((e: any) => e.kind === 'chart').map((e: any) => e.name), ['apps/media', 'apps/metrics', 'apps/wiki']);
  assert.equal(report.findings.filter((f: any) => f.ruleId === 'rwo-claim-multi-node').map((f: any) => `${f.location.file}:${f.location.startLine}`), ['apps/shop/values.yaml:2']);
});

withHelm('a dependency from a chart repository is pulled into the chart cache once; a range renders from there offline', async () => {
  const served = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-served-')));
  execFileSync(REAL_HELM!, ['package', path.join(FIXTURES, 'chart-dependencies', 'libs', 'storage-app'), '--destination', served], { stdio: 'ignore' });
  const server = await serveCharts(served);
  execFileSync(REAL_HELM!, ['repo', 'index', served, '--url', server.url], { stdio: 'ignore' });
  const dir = repository(false);
  // The shop asks for the published chart, by a range, instead of the file:// copy.
  writeFileSync(path.join(dir, 'apps', 'shop', 'Chart.yaml'), `apiVersion: v2\nname: shop\nversion: 0.1.0\ndependencies:\n  - name: storage-app\n    alias: store\n    repository: ${server.url}\n    version: ~0.1.0\n`);
  const chartCache = emptyCache();
  try {
    const online = await run(dir, { chartCache, pullCharts: true, paths: ['apps/shop'] });
    assert.equal(places(online.findings, 'rwo-claim-multi-node'), ['apps/shop/values.yaml:2 error']);
    assert.equal(dependencyNotes(online.findings), []);
    assert.ok(server.requests.some((r) => /storage-app-0\.1\.0\.tgz$/.test(r)), server.requests.join(' '));
    assert.equal(readdirSync(chartCache).filter((name) => !name.startsWith('.')).length, 1);
  } finally {
    await server.close();
  }
  const offline = await run(dir, { chartCache, pullCharts: true, paths: ['apps/shop'] });
  assert.equal(places(offline.findings, 'rwo-claim-multi-node'), ['apps/shop/values.yaml:2 error']);
  assert.equal(dependencyNotes(offline.findings), ['apps/shop/Chart.yaml:5 range-offline']);
});

test.run();
