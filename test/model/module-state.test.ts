// The model keeps what it computes on the model instance: no module of src/model holds state between models (no
// side tables keyed by a model or template, no module-level variables), so two models in one process never share
// answers. Read from the sources, since a side table is invisible from outside.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/paths.js';

const test = suite('no module state in src/model');

const MODEL_DIR = path.join(PROJECT_ROOT, 'src', 'model');
const sources = fs.readdirSync(MODEL_DIR).filter((name) => name.endsWith('.ts')).map((name) => ({
  name,
  lines: fs.readFileSync(path.join(MODEL_DIR, name), 'utf8').split('\n'),
}));

test('the sources are there to read', () => {
  assert.ok(sources.some((s) => s.name === 'storage-model.ts'), MODEL_DIR);
  assert.ok(sources.length > 20);
});

test('no WeakMap or WeakSet side tables', () => {
  const found = sources.flatMap(({ name, lines }) =>
    lines.flatMap((line, i) => (/\bnew Weak(Map|Set)\b/.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : [])));
  assert.equal(found, []);
});

test('no module-level let or var', () => {
  const found = sources.flatMap(({ name, lines }) =>
    lines.flatMap((line, i) => (/^(export\s+)?(let|var)\s/.test(line) ? [`${name}:${i + 1}: ${line.trim()}`] : [])));
  assert.equal(found, []);
});

test.run();
