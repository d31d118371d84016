// Rules reach facts that combine several objects through the model's methods (model.claimStorage(pvc),
// model.podCount(template), model.driverCapabilities(name), …), never through the free functions of src/model that
// take the model as their first argument: those are the model's implementation. Helpers on one object (accessModesOf,
// volumeNamed, …) stay free functions.
import fs from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/paths.js';

const test = suite('rules use the model API');

function sourcesIn(dir: string): { name: string; text: string }[] {
  return fs.readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

/** Functions of src/model/<module> whose first parameter is the model (a StorageModel, or the ModelView of it the topic modules take), by module. */
const modelFunctions = new Map<string, Set<string>>();
for (const { name, text } of sourcesIn(path.join(PROJECT_ROOT, 'src', 'model'))) {
  const names = [...text.matchAll(/export function (\w+)(?:<[^>]*>)?\(model: (?:StorageModel|ModelView|GitopsModel|MeshModel)\b/g)].map((m) => m[1]);
  modelFunctions.set(name.replace(/\.ts$/, '.js'), new Set(names));
}

test('the model modules have such functions (the check below is not empty)', () => {
  assert.ok(modelFunctions.get('claims.js')?.has('claimStorage'));
  assert.ok(modelFunctions.get('volume-claims.js')?.has('claimOfVolume'));
});

test('no rule imports a function that takes the model', () => {
  const found: string[] = [];
  for (const { name, text } of sourcesIn(path.join(PROJECT_ROOT, 'rules'))) {
    for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\.\/src\/model\/([\w-]+\.js)'/g)) {
      const fns = modelFunctions.get(m[2]) ?? new Set<string>();
      for (const spec of m[1].split(',')) {
        const imported = spec.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0];
        if (fns.has(imported)) found.push(`${name}: ${imported} from ${m[2]}`);
      }
    }
  }
  assert.equal(found, []);
});

test('pod counts come from model.podCount, never from a workload field or an autoscaler lookup of the rule', () => {
  const found: string[] = [];
  for (const { name, text } of sourcesIn(path.join(PROJECT_ROOT, 'rules'))) {
    text.split('\n').forEach((line, i) => {
      if (/\.autoscalerOf\(|\btemplate\??\.replicas\b|\.object\??\.spec\??\.(replicas|parallelism)\b|'(replicas|parallelism)'\]/.test(line)) found.push(`${name}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.equal(found, []);
});

test.run();
