// Argo CD: an app-of-apps whose ApplicationSet (git directory generator) makes one Application per app
// directory; all of them are one cluster (their destination), one app inflates a local chart with helmCharts
// (argocd-cm turns on --enable-helm), and the StorageClass of another app serves the claims of the rest.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { expandApplicationSet, renderTemplateString } from '../../src/gitops/argocd-generators.js';
import { lint, type LintResult } from '../../src/lint.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, HAS_KUSTOMIZE } from '../render/helpers.js';

const HELM = process.env.PVLINT_TEST_HELM;
const HAS_TOOLS = HAS_KUSTOMIZE && !!HELM && existsSync(HELM);
if (!HAS_TOOLS) console.warn('\n!!! SKIPPED Argo CD cluster tests: they need kustomize (or kubectl) and PVLINT_TEST_HELM (a helm binary) !!!\n');

const test = suite('gitops: Argo CD applications are one cluster');
const it = HAS_TOOLS ? test : test.skip;

let dir: string;
let result: LintResult;
const savedPath = process.env.PATH;
test.after(() => {
  process.env.PATH = savedPath;
});
test.before(async () => {
  if (!HAS_TOOLS) return;
  // kustomize's helmCharts run the `helm` on PATH, as they do for a user.
  process.env.PATH = `${path.dirname(HELM!)}${path.delimiter}${process.env.PATH}`;
  dir = copyFixture('gitops/argocd-appset');
  result = await lint({ paths: ['.'], cwd: dir, helmCommand: HELM });
});

it('every generated app lands in one environment, the destination cluster', () => {
  assert.equal(result.findings.filter((f) => f.ruleId.startsWith('pvlint/')), []);
  assert.equal(result.scopes.map((s) => [s.name, s.kind]), [['argocd:in-cluster', 'argocd']]);
  assert.equal(result.notInterpreted ?? [], []);
});

it('replicas on the ReadWriteOnce claim of another app\'s class: at the replicas line', () => {
  const f = result.findings.find((x) => x.ruleId === 'rwo-claim-multi-node');
  assert.is(at(f), 'apps/web/deployment.yaml:6');
  assert.equal(f!.environments, ['argocd:in-cluster']);
});

it('the helmCharts app is inflated with argocd-cm\'s --enable-helm; its ReadWriteMany claim on the block class is found', () => {
  const f = result.findings.find((x) => x.ruleId === 'pvc-access-mode-unsupported');
  assert.ok(f, 'pvc-access-mode-unsupported reported');
  assert.match(f!.message, /"cache-data" in namespace "cache"/);
  assert.is(f!.location.file, 'apps/cache/kustomization.yaml');
});

it('a plain directory app: its objects without a namespace get the destination namespace', async () => {
  const claims: any[] = [];
  await lint({ paths: ['.'], cwd: dir, onScope: (scope) => claims.push(...scope.model.ofKind('PersistentVolumeClaim')) });
  const logs = claims.find((c) => c.name === 'logs-data');
  assert.ok(logs, 'the directory app apps/logs was read');
  assert.is(logs.namespace, 'logs');
});

it('CLI: the environment and its kind in JSON', () => {
  const run = runPvlint(['.', '--format', 'json'], { cwd: dir, env: { PATH: process.env.PATH! } });
  const report: any = JSON.parse(run.stdout);
  assert.equal(report.summary.environments.map((e: any) => e.kind), ['argocd']);
});

it('an app-of-apps path with a trailing slash still reads its ApplicationSet; one without a namespace is expanded once', async () => {
  const copy = copyFixture('gitops/argocd-appset');
  const appset = path.join(copy, 'argocd/apps.yaml');
  writeFileSync(appset, readFileSync(appset, 'utf8').replace(/^  namespace: argocd\n/m, ''));
  const rootApp = path.join(copy, 'argocd/root.yaml');
  writeFileSync(rootApp, readFileSync(rootApp, 'utf8').replace('path: argocd\n', 'path: argocd/\n'));
  // One generated app fails to render, so it is listed as not interpreted: once, however often it is reached.
  mkdirSync(path.join(copy, 'apps/broken'));
  writeFileSync(path.join(copy, 'apps/broken/kustomization.yaml'), 'resources:\n  - missing.yaml\n');
  const again = await lint({ paths: ['.'], cwd: copy, helmCommand: HELM });
  assert.not.match(readFileSync(appset, 'utf8'), /^  namespace:/m);
  assert.equal(again.scopes.map((s) => s.resources), result.scopes.map((s) => s.resources));
  assert.equal((again.notInterpreted ?? []).map((e) => e.name), ['broken']);
});

test('list and git file generators; other generators are named as not followed', () => {
  const appset = {
    spec: {
      generators: [{ list: { elements: [{ name: 'a', cluster: { env: 'prod' } }] } }, { scmProvider: {} }, { clusters: { selector: { matchLabels: { env: 'prod' } } } }],
      template: { metadata: { name: '{{name}}-{{cluster.env}}' }, spec: { source: { path: 'apps/{{name}}' } } },
    },
  };
  const expansion = expandApplicationSet(appset, '/nonexistent', () => true);
  assert.equal(expansion.applications.map((a) => [a.metadata.name, a.spec.source.path]), [['a-prod', 'apps/a']]);
  assert.equal(expansion.skipped.length, 2);
  assert.match(expansion.skipped[0], /scmProvider generator not evaluated/);
  assert.match(expansion.skipped[1], /clusters generator with a selector not evaluated/);
});

test('matrix of a git directory generator and a list; the second child templated with the first one\'s set', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pvlint-matrix-'));
  for (const dir of ['tenants/a/prod', 'tenants/a/dev', 'tenants/b/prod']) mkdirSync(path.join(root, dir), { recursive: true });
  const appset = {
    spec: {
      goTemplate: true,
      generators: [{ matrix: { generators: [{ git: { repoURL: 'x', directories: [{ path: 'tenants/*' }] } }, { git: { repoURL: 'x', directories: [{ path: '{{ .path.path }}/prod' }] } }] } }],
      template: { metadata: { name: '{{ .path.basename }}' }, spec: { source: { path: '{{ .path.path }}' } } },
    },
  };
  const expansion = expandApplicationSet(appset, root, () => true);
  // The second child's params come first; the first child's win where both set a key (mergo.Merge keeps them).
  assert.equal(expansion.applications.map((a) => [a.metadata.name, a.spec.source.path]), [['a', 'tenants/a'], ['b', 'tenants/b']]);
  const listed = expandApplicationSet({ spec: { generators: [{ matrix: { generators: [{ list: { elements: [{ app: 'web' }, { app: 'db' }] } }, { list: { elements: [{ env: 'dev' }, { env: 'prod' }] } }] } }], template: { metadata: { name: '{{app}}-{{env}}' } } } }, root, () => true);
  assert.equal(listed.applications.map((a) => a.metadata.name), ['web-dev', 'web-prod', 'db-dev', 'db-prod']);
  assert.equal(listed.skipped, []);
});

test('merge: later generators override base sets with the same merge keys; the clusters generator assumes in-cluster and says so', () => {
  const merged = expandApplicationSet({ spec: { generators: [{ merge: { mergeKeys: ['app'], generators: [{ list: { elements: [{ app: 'web', size: '1Gi' }, { app: 'db', size: '5Gi' }] } }, { list: { elements: [{ app: 'db', size: '50Gi' }, { app: 'cache', size: '9Gi' }] } }] } }], template: { metadata: { name: '{{app}}-{{size}}' } } } }, '/nonexistent', () => true);
  assert.equal(merged.applications.map((a) => a.metadata.name), ['web-1Gi', 'db-50Gi']);
  const clusters = expandApplicationSet({ spec: { generators: [{ matrix: { generators: [{ clusters: { values: { tier: 'gold' } } }, { list: { elements: [{ app: 'web' }] } }] } }], template: { metadata: { name: '{{app}}-{{name}}-{{values.tier}}' }, spec: { destination: { server: '{{server}}' } } } } }, '/nonexistent', () => true);
  assert.equal(clusters.applications.map((a) => [a.metadata.name, a.spec.destination.server]), [['web-in-cluster-gold', 'https://kubernetes.default.svc']]);
  assert.match(clusters.skipped.join('\n'), /only the local in-cluster is assumed/);
});

test('a generator\'s own template is merged over spec.template; templatePatch is applied, or named when it keeps template actions', () => {
  const template = { metadata: { name: '{{ .app }}' }, spec: { source: { path: 'apps/{{ .app }}', helm: { valuesObject: { size: '1Gi', keep: true } } } } };
  const generators = [{ list: { elements: [{ app: 'web', size: '5Gi' }], template: { spec: { source: { path: 'other/{{ .app }}' } } } } }];
  const patch = 'spec:\n  source:\n    helm:\n      valuesObject:\n        size: {{ .size }}\n';
  const expansion = expandApplicationSet({ spec: { goTemplate: true, generators, template, templatePatch: patch } }, '/nonexistent', () => true);
  assert.equal(expansion.applications.map((a) => [a.spec.source.path, a.spec.source.helm.valuesObject]), [['other/web', { size: '5Gi', keep: true }]]);
  assert.equal(expansion.skipped, []);
  const controlled = expandApplicationSet({ spec: { goTemplate: true, generators, template, templatePatch: '{{ if .size }}spec: {}{{ end }}' } }, '/nonexistent', () => true);
  assert.is(controlled.applications.length, 1);
  assert.match(controlled.skipped.join('\n'), /templatePatch keeps template actions/);
});

test('goTemplate field access, index, sprig default and dig; other expressions stay as written', () => {
  const params = { path: { path: 'apps/web', basename: 'web', segments: ['apps', 'web'] }, name: 'x', labels: { tier: 'db' } };
  assert.is(renderTemplateString('{{ .path.basename }}/{{index .path.segments 0}}', params, true), 'web/apps');
  // sprig: `default D V` is V unless V is empty; `dig "k"… D dict` walks maps, D when a key is missing.
  assert.is(renderTemplateString('{{ default .name "y" }}', params, true), 'y');
  assert.is(renderTemplateString('{{ default "fallback" .missing }}', params, true), 'fallback');
  assert.is(renderTemplateString('{{ default .name (dig "namespace" "" .) }}', params, true), 'x');
  assert.is(renderTemplateString('{{ default .name (dig "labels" "tier" "" .) }}', params, true), 'db');
  assert.is(renderTemplateString('{{ upper .name }}', params, true), '{{ upper .name }}');
  assert.is(renderTemplateString('{{ dig "labels" "tier" "" . | upper }}', params, true), '{{ dig "labels" "tier" "" . | upper }}');
});

test.run();
