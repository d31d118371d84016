// The pieces of kustomize location logic on their own: list items matched by merge key, patch target
// selectors, inline block scalars mapped back to the kustomization's lines.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument, type Node as YamlNode } from 'yaml';
import { makeSourceFile } from '../../src/load/source-file.js';
import { inlineFragment } from '../../src/locate/fragment.js';
import { translatePath } from '../../src/locate/merge-path.js';
import { matchesSelector, selects } from '../../src/locate/target-selector.js';

const test = suite('locate: merge-key paths, selectors, inline fragments');

test('translatePath follows list items by their merge key, not their position', () => {
  const base = { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'd' } }] } };
  const rendered = { spec: { volumes: [{ name: 'added' }, { name: 'data', persistentVolumeClaim: { claimName: 'prod-d' } }] } };
  assert.equal(translatePath(base, rendered, ['spec', 'volumes', 1, 'persistentVolumeClaim', 'claimName']), {
    path: ['spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'],
    matched: 5,
  });
  assert.is(translatePath(base, rendered, ['spec', 'volumes', 0, 'name']).matched, 2);
  const mounts = { containers: [{ name: 'a', volumeMounts: [{ mountPath: '/x', name: 'v' }] }] };
  const renderedMounts = { containers: [{ name: 'a', volumeMounts: [{ mountPath: '/y', name: 'v' }, { mountPath: '/x', name: 'v' }] }] };
  assert.equal(translatePath(mounts, renderedMounts, ['containers', 0, 'volumeMounts', 1, 'mountPath']).path, ['containers', 0, 'volumeMounts', 0, 'mountPath']);
});

test('selectors: anchored name regexes over every name the object had, label selectors', () => {
  const target = { apiVersion: 'apps/v1', kind: 'Deployment', names: new Set(['web', 'prod-web']), namespaces: new Set(['shop']), labels: { app: 'web', tier: 'front' }, annotations: {} };
  assert.ok(selects({ kind: 'Deployment', name: 'web' }, target));
  assert.ok(selects({ name: 'prod-.*', group: 'apps', version: 'v1' }, target));
  assert.not.ok(selects({ name: 'we' }, target));
  assert.not.ok(selects({ kind: 'StatefulSet' }, target));
  assert.not.ok(selects({ namespace: 'other' }, target));
  assert.ok(matchesSelector('app=web,tier in (front, back),!canary', target.labels));
  assert.not.ok(matchesSelector('app!=web', target.labels));
});

test('an inline literal patch maps its lines and columns back into the kustomization', () => {
  const text = 'patches:\n  - patch: |-\n      kind: Deployment\n      spec:\n        replicas: 3\n';
  const outer = makeSourceFile('/k/kustomization.yaml', 'k/kustomization.yaml', text);
  const doc = parseDocument(text);
  const entry = (doc.get('patches', true) as any).items[0] as YamlNode;
  const fragment = inlineFragment(outer, (entry as any).get('patch', true), entry);
  assert.ok(fragment.exact);
  const located = fragment.positionOf(fragment.documents[0].node, ['spec', 'replicas']);
  assert.equal(located.location, { file: 'k/kustomization.yaml', region: { startLine: 5, startColumn: 9, endLine: 5, endColumn: 20 } });
});

test.run();
