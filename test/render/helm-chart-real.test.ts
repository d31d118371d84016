// Chart directories rendered with the real helm: values files, release name and namespace reach `helm template`
// (seen in what it renders), findings point at the template line, and a template that fails is a render error at
// Chart.yaml with helm's message. Skipped loudly without a real helm.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lint } from '../../src/lint.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { REAL_HELM, requiresHelm } from '../helpers/real-helm.js';
import { at, copyFixture } from './helpers.js';

const test = suite('helm charts rendered with the real helm');
/** The tests that run the real helm: skipped (and counted so) without one. */
const withHelm = requiresHelm(test, 'helm-chart-real.test.ts');

withHelm('values files, release and namespace reach helm template; findings point at the template line', async () => {
  const dir = copyFixture('helm-release/in-repo');
  writeFileSync(path.join(dir, 'prod-values.yaml'), 'replicas: 3\n');
  const claims: string[] = [];
  const result = await lint({
    paths: ['charts/storage-app'], cwd: dir, root: dir, rules: defaultRuleSettings(), helmCommand: REAL_HELM,
    helmValues: ['prod-values.yaml'], helmRelease: 'shop', helmNamespace: 'sonar',
    onScope: (scope) => {
      for (const pvc of scope.model.ofKind('PersistentVolumeClaim')) claims.push(`${scope.model.namespaceOf(pvc)}/${pvc.name}`);
    },
  });
  assert.is(result.fatal, false);
  assert.equal(result.scopes.map((s) => `${s.name} ${s.kind}`), ['charts/storage-app helm']);
  assert.equal(claims, ['sonar/shop-data']);
  const replicas = result.findings.filter((f) => f.ruleId === 'rwo-claim-multi-node');
  assert.equal(replicas.map((f) => `${at(f)} ${f.environments.join(',')}`), ['charts/storage-app/templates/deployment.yaml:6 charts/storage-app']);
  assert.match(replicas[0].message, /Deployment "shop" runs 3 replicas/);
});

withHelm('a template that fails is a render error at Chart.yaml with helm\'s message', async () => {
  const dir = copyFixture('helm-release/in-repo');
  mkdirSync(path.join(dir, 'broken', 'templates'), { recursive: true });
  writeFileSync(path.join(dir, 'broken', 'Chart.yaml'), 'apiVersion: v2\nname: broken\nversion: 0.1.0\n');
  writeFileSync(path.join(dir, 'broken', 'templates', 'cm.yaml'), '{{ required "database.host is required" .Values.database }}\n');
  const result = await lint({ paths: ['broken'], cwd: dir, root: dir, rules: [], helmCommand: REAL_HELM });
  assert.is(result.fatal, true);
  assert.equal(result.findings.map((f) => `${f.ruleId} ${at(f)}`), ['pvlint/render broken/Chart.yaml:1']);
  assert.match(result.findings[0].message, /helm template failed for broken: .*database\.host is required/);
});

test.run();
