// Placeholders (`${VAR}`, `{{ … }}`, `@VAR@`) are never values: no shape error, no claim-spec-invalid. Wrong types in
// fields that no storage rule reads are notes that leave the object's storage findings in place.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkShapes } from '../../src/engine/shape-check.js';
import { lint } from '../../src/lint.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { PROJECT_ROOT } from '../helpers/paths.js';

const DIR = path.join(PROJECT_ROOT, 'test', 'fixtures', 'precision', 'placeholders');

test('real manifests with ${VAR} placeholders: no pvlint/shape and no claim-spec-invalid', async () => {
  const result = await lint({ paths: ['.'], cwd: DIR, root: DIR, skipMissingRenderers: true });
  const wrong = result.findings.filter((f) => f.ruleId === 'pvlint/shape' || f.ruleId === 'claim-spec-invalid');
  assert.equal(wrong.map((f) => `${f.location.file}:${f.location.region.startLine} ${f.ruleId}`), []);
  assert.is(result.stats.resources, 2);
});

test('a placeholder in a typed field is taken out of what rules see, and the object is not rejected', async () => {
  const file = makeSourceFile('/x/a.yaml', 'a.yaml', 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: ${REPLICAS}\n  serviceName: db\n  template:\n    spec:\n      containers: [{name: db, image: postgres}]\n');
  const shaped = await checkShapes(parseResources(file).resources, 'test');
  assert.equal(shaped.findings, []);
  assert.is(shaped.resources[0].object.spec.replicas, undefined);
  assert.not.ok(shaped.rejected.has(shaped.resources[0]));
});

test('a wrong type in a field no storage rule reads (containerPort) is a note, and the object is still linted', async () => {
  const file = makeSourceFile('/x/b.yaml', 'b.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx\n          ports: [{containerPort: "http"}]\n');
  const shaped = await checkShapes(parseResources(file).resources, 'test');
  assert.equal(shaped.findings.map((f) => `${f.severity} ${f.data.field}`), ['note spec.template.spec.containers[0].ports[0].containerPort']);
  assert.match(shaped.findings[0].message, /No storage rule reads/);
  assert.not.ok(shaped.rejected.has(shaped.resources[0]));
  assert.is(shaped.resources[0].object.spec.replicas, 3);
});

test('a wrong type in a field storage rules read stays an error and the object is rejected', async () => {
  const file = makeSourceFile('/x/c.yaml', 'c.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: "three"\n');
  const shaped = await checkShapes(parseResources(file).resources, 'test');
  assert.equal(shaped.findings.map((f) => `${f.severity} ${f.data.field}`), ['error spec.replicas']);
  assert.ok(shaped.rejected.has(shaped.resources[0]));
});

test.run();
