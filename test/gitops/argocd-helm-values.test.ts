// Argo CD Applications give a chart of the repository its values inline (`values: |`, `valuesObject`), as
// `parameters`, or in a values file of a `ref:` source: a finding on a field one of them sets is reported at that
// line of the Application (or of the values file), not at the chart's template or the dependency it comes from. Real
// helm; pvlint's bundled app-template stands in for the umbrella's dependency.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { argoValueLeaves, parameterValue, sourceAt } from '../../src/gitops/argocd-helm-values.js';
import { helmInputs } from '../../src/gitops/argocd-source.js';
import { lint, type LintResult } from '../../src/lint.js';
import { makeResource } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { SourceCache } from '../../src/render/source-cache.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { REAL_HELM, requiresHelm } from '../helpers/real-helm.js';
import { runPvlint } from '../helpers/spawn.js';
import { at, copyFixture, HAS_KUSTOMIZE } from '../render/helpers.js';
import type { Finding } from '../../src/types.js';

const test = suite('gitops: values an Argo CD Application gives a chart');
const withHelm = requiresHelm(test, 'argocd-helm-values.test.ts');
if (!HAS_KUSTOMIZE) console.warn('\n!!! SKIPPED the app-of-apps-through-Kustomize test of argocd-helm-values.test.ts: it needs kustomize (or kubectl) !!!\n');

let dir: string;
let chartHome: string;
let result: LintResult;
test.before(async () => {
  if (!REAL_HELM) return;
  dir = copyFixture('gitops/argocd-helm-values');
  mkdirSync(path.join(dir, '.git'));
  chartHome = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-chart-cache-')));
  result = await lint({ paths: ['.'], cwd: dir, root: dir, rules: defaultRuleSettings(), helmCommand: REAL_HELM, chartCache: chartHome, pullCharts: false });
});

const about = (findings: readonly Finding[], rule: string, text: string) => findings.find((f) => f.ruleId === rule && f.message.includes(text));

withHelm('a line of the inline `values: |` text', () => {
  const f = about(result.findings, 'pvc-unknown-storageclass', '"fast-sdd"');
  assert.is(at(f), 'argocd/web-values.yaml:19');
  assert.match(f!.note ?? '', /helm\.values of Application "web-values"/);
  assert.ok(f!.related.some((r) => r.location.file === 'charts/web/templates/pvc.yaml'), 'the template is the related location');
});

withHelm('a field of valuesObject', () => {
  assert.is(at(about(result.findings, 'rwo-claim-multi-node', '"web-object"')), 'argocd/web-object.yaml:18');
});

withHelm('the value of a parameter', () => {
  assert.is(at(about(result.findings, 'pod-missing-pvc', '"web-content-v1"')), 'argocd/web-params.yaml:20');
});

withHelm('a values file of the ref source ($values/...)', () => {
  assert.is(at(about(result.findings, 'rwo-claim-multi-node', '"web-prod"')), 'envs/prod/web.yaml:2');
});

(HAS_KUSTOMIZE ? withHelm : test.skip)('an Application a kustomization renders (app-of-apps): the line inside its values text', () => {
  assert.is(at(about(result.findings, 'pvc-unknown-storageclass', '"fast-nvme"')), 'argocd/kustomized/web-uat.yaml:14');
});

withHelm('an umbrella chart whose dependency pvlint supplies: the inline value, never the file pvlint wrote it to', () => {
  assert.is(at(about(result.findings, 'pvc-unknown-storageclass', '"fast-sd"')), 'argocd/media.yaml:20');
  for (const f of result.findings) assert.not.match(f.location.file, /pvlint-argo-|^\.\.\//, `${f.ruleId} is inside the repository`);
});

withHelm('the inline values of an ApplicationSet template', () => {
  assert.is(at(about(result.findings, 'pvc-unknown-storageclass', '"fast-hdd"')), 'argocd/previews.yaml:23');
});

withHelm('a chart of a Helm repository (pvlint\'s bundled app-template): its values in the Application and in a ref file', () => {
  assert.is(at(about(result.findings, 'pvc-unknown-storageclass', '"fast-ss"')), 'argocd/recipes.yaml:27');
  assert.is(at(about(result.findings, 'rwo-claim-multi-node', '"recipes"')), 'envs/prod/recipes.yaml:3');
  const assumed = (result.notInterpreted ?? []).filter((n) => n.name === 'recipes').map((n) => n.reason);
  assert.ok(assumed.some((r) => /rendered with pvlint's bundled app-template 4\.1\.1/.test(r)), assumed.join('\n'));
});

withHelm('a chart that cannot be had is listed as not linted, in the text report too', () => {
  const reasons = (result.notInterpreted ?? []).filter((n) => n.name === 'operator').map((n) => n.reason);
  assert.ok(reasons.some((r) => /Helm chart operator 7\.1\.1 from https:\/\/charts\.invalid\/minio not available .*not linted/.test(r)), reasons.join('\n'));
  const text = runPvlint(['.', '--no-color', '--no-chart-pull', '--chart-cache', chartHome], { cwd: dir, env: { PATH: `${path.dirname(REAL_HELM!)}${path.delimiter}${process.env.PATH}` } });
  assert.match(text.stdout, /Not interpreted \(\d+\)/);
  assert.match(text.stdout, /Application operator: Helm chart operator 7\.1\.1 from https:\/\/charts\.invalid\/minio not available/);
});

withHelm('a field no value of the Application sets stays at the chart', () => {
  const f = about(result.findings, 'gitops-pvc-prune-unprotected', '"preview-feature-a"');
  assert.is(f?.location.file, 'charts/web/templates/pvc.yaml');
});

test('the leaves: chart defaults, then valueFiles, then values (or valuesObject), then parameters; parameters typed as --set types them', () => {
  const root = copyFixture('gitops/argocd-helm-values');
  const cache = new SourceCache(root);
  const file = makeSourceFile(path.join(root, 'argocd/web-params.yaml'), 'argocd/web-params.yaml', 'kind: Application\n');
  const app = makeResource(file, 0, () => undefined as any, { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'x' } });
  const source = { helm: { values: 'replicaCount: 5\n', valuesObject: { replicaCount: 4 }, parameters: [{ name: 'persistence.size', value: '2Gi' }, { name: 'tolerations[0].key', value: 'gpu' }, { name: 'replicaCount', value: '6' }] } };
  const leaves = argoValueLeaves(cache, path.join(root, 'charts/web'), [path.join(root, 'envs/prod/web.yaml')], source, sourceAt(app, undefined));
  const byPath = new Map(leaves.map((l) => [l.path.join('.'), l]));
  assert.is(byPath.get('replicaCount')!.value, 6);
  assert.is(byPath.get('replicaCount')!.at.input, 'helm.parameters');
  assert.equal(byPath.get('tolerations.0.key')!.at.field, { resource: app, path: ['spec', 'source', 'helm', 'parameters', 1, 'value'] });
  assert.is(byPath.get('image')!.at.byApplication, false);
  assert.is(byPath.get('persistence.size')!.value, '2Gi');
  assert.is(parameterValue({ value: 'true' }), true);
  assert.is(parameterValue({ value: '1.5' }), '1.5');
  assert.is(parameterValue({ value: '3', forceString: true }), '3');
  const appset = makeResource(file, 0, () => undefined as any, { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'x' } });
  assert.equal(sourceAt(appset, 1).path, ['spec', 'template', 'spec', 'sources', 1]);
});

test('valueFiles: globs expand in lexical order, an entry listed on its own keeps its place; URLs and misses are named', () => {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-valuefiles-')));
  mkdirSync(path.join(root, 'chart/values'), { recursive: true });
  for (const name of ['c.yaml', 'a.yaml', 'b.yaml']) writeFileSync(path.join(root, 'chart/values', name), 'x: 1\n');
  const source = { helm: { valueFiles: ['values/*.yaml', 'values/a.yaml', 'https://example.com/v.yaml', 'missing.yaml', 'none/*.yaml'] } };
  const inputs = helmInputs({ metadata: { name: 'app' } }, source, path.join(root, 'chart'), root, new Map());
  assert.equal(inputs.valueFiles.map((f) => path.relative(root, f)), ['chart/values/b.yaml', 'chart/values/c.yaml', 'chart/values/a.yaml']);
  assert.equal(inputs.missing, ['https://example.com/v.yaml (a URL pvlint does not fetch)', 'missing.yaml (not found)', 'none/*.yaml (matches no file)']);
  const ignoring = helmInputs({ metadata: { name: 'app' } }, { helm: { ...source.helm, ignoreMissingValueFiles: true } }, path.join(root, 'chart'), root, new Map());
  assert.equal(ignoring.missing, ['https://example.com/v.yaml (a URL pvlint does not fetch)']);
});

test.run();
