// The pieces of --base on their own: value comparison as the API server does it, object pairing, finding identity.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { firstDifference, show } from '../../src/review/diff.js';
import { pairEnvironment } from '../../src/review/pair.js';
import { stablePath } from '../../src/review/review.js';

const units = suite('review units');

units('firstDifference: nil equals empty, quantities compare by value, the first differing leaf in head order', () => {
  assert.is(firstDifference(undefined, {}), undefined);
  assert.is(firstDifference({ a: [] }, {}), undefined);
  assert.is(firstDifference({ resources: { requests: { storage: '1Gi' } } }, { resources: { requests: { storage: '1024Mi' } } }), undefined);
  assert.equal(firstDifference({ resources: { requests: { storage: '1Gi' } } }, { resources: { requests: { storage: '2Gi' } } }), ['resources', 'requests', 'storage']);
  assert.equal(firstDifference({ a: 1, b: 2 }, { b: 3, a: 1 }, ['spec']), ['spec', 'b']);
  assert.equal(firstDifference({ a: 1, gone: 2 }, { a: 1 }), ['gone']);
  assert.equal(firstDifference(['x', 'y'], ['x']), []);
  assert.equal(firstDifference(['x'], ['x', 'y']), [1]);
  assert.equal(firstDifference('1', 1), []);
  assert.is(show(undefined), 'absent');
  assert.is(show('a'), '"a"');
});

function model(code: string, defaultNamespace?: string): StorageModel {
  return new StorageModel(parseResources(makeSourceFile('/v/x.yaml', 'x.yaml', code)).resources, { scope: 'env', defaultNamespace });
}

units('pairEnvironment: by kind, namespace as the cluster sees it, and name', () => {
  const base = model('kind: PersistentVolumeClaim\napiVersion: v1\nmetadata: {name: a}\n---\nkind: PersistentVolumeClaim\napiVersion: v1\nmetadata: {name: gone, namespace: x}\n');
  const head = model('kind: PersistentVolumeClaim\napiVersion: v1\nmetadata: {name: a, namespace: default}\n---\nkind: PersistentVolumeClaim\napiVersion: v1\nmetadata: {name: new}\n');
  const changes = pairEnvironment(base, head);
  assert.equal(changes.pairs('PersistentVolumeClaim').map((p) => `${p.base.name}=${p.head.name}`), ['a=a']);
  assert.equal(changes.removed('PersistentVolumeClaim').map((r) => r.name), ['gone']);
  assert.equal(changes.added('PersistentVolumeClaim').map((r) => r.name), ['new']);
  assert.is(changes.headOf(base.resources[0]), head.resources[0]);
  assert.is(changes.baseOf(head.resources[0]), base.resources[0]);
});

units('stablePath: list items by their merge key, so an insertion above does not change the identity', () => {
  const before = { spec: { volumes: [{ name: 'data' }], containers: [{ name: 'app', volumeMounts: [{ name: 'data', mountPath: '/d' }] }] } };
  const after = { spec: { volumes: [{ name: 'tmp' }, { name: 'data' }], containers: [{ name: 'side' }, { name: 'app', volumeMounts: [{ name: 'x', mountPath: '/x' }, { name: 'data', mountPath: '/d' }] }] } };
  assert.is(stablePath(before, ['spec', 'volumes', 0, 'persistentVolumeClaim']), stablePath(after, ['spec', 'volumes', 1, 'persistentVolumeClaim']));
  assert.is(stablePath(before, ['spec', 'containers', 0, 'volumeMounts', 0]), stablePath(after, ['spec', 'containers', 1, 'volumeMounts', 1]));
  assert.is(stablePath(after, ['spec', 'containers', 1, 'volumeMounts', 1]), '.spec.containers[name=app].volumeMounts[mountPath=/d]');
  assert.is(stablePath({ a: [1, 2] }, ['a', 1]), '.a[1]');
  assert.is(stablePath(undefined, ['a', 0]), '.a[0]');
});

units.run();
