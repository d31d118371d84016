// Findings merged across environments, and objects rendered by helm, come out the same whatever order they arrive in.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mergeFindings } from '../../src/engine/merge-findings.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { inStableOrder } from '../../src/render/helm-object-order.js';
import type { Finding } from '../../src/types.js';

const test = suite('merge and render order');

function finding(environment: string, workload: string, extra: Partial<Finding> = {}): Finding {
  return {
    ruleId: 'rwo-claim-multi-node',
    severity: 'warning',
    messageId: 'shared',
    message: `Deployment "${workload}" shares the claim`,
    data: {},
    fix: '',
    location: { file: 'apps/values.yaml', region: { startLine: 4, startColumn: 3, endLine: 4, endColumn: 9 } },
    related: [],
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: workload },
    environments: [environment],
    ...extra,
  };
}

test('the finding kept for one place does not depend on the order the environments produced them', () => {
  const a = finding('prod', 'web');
  const b = finding('staging', 'api');
  const forward = mergeFindings([a, b]);
  const backward = mergeFindings([b, a]);
  assert.equal(forward, backward);
  assert.is(forward.length, 1);
  assert.is(forward[0].resource?.name, 'api');
  assert.equal(forward[0].environments, ['prod', 'staging']);
});

test('two rules that crash at one place stay two findings', () => {
  const crash = (rule: string): Finding => ({ ...finding('prod', 'web'), ruleId: 'pvlint/rule-crash', messageId: 'crash', message: `rule ${rule} crashed`, data: { rule }, severity: 'error' });
  const merged = mergeFindings([crash('custom-a'), crash('custom-b'), crash('custom-a')]);
  assert.equal(merged.map((f) => f.data.rule), ['custom-a', 'custom-b']);
});

test('objects helm rendered are put in one order: kind, namespace, name', () => {
  const text = ['b', 'a'].map((name) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: shop}\n`).join('---\n') + '---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: shop}\n';
  const resources = parseResources(makeSourceFile('/virtual/out.yaml', 'out.yaml', text)).resources;
  const order = (list: typeof resources) => inStableOrder(list).map((r) => `${r.kind}/${r.name}`);
  assert.equal(order(resources), ['Deployment/a', 'Deployment/b', 'PersistentVolumeClaim/data']);
  assert.equal(order([...resources].reverse()), order(resources));
});

test.run();
