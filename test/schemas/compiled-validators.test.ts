// The validators the build generates (Ajv standalone code, scripts/build-validators.mjs) must give the errors the same
// schemas give when Ajv compiles them at run time, as pvlint did before: the shape schemas on every storage object of
// examples/ and on seeded mutations of them, the configuration schema on the example configuration and mutations,
// each built-in rule's option schema on its defaults and mutations. And a run must not load Ajv's compiler.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments, parse } from 'yaml';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createShapeAjv, SHAPE_SCHEMA_BASE } from '../../src/engine/shape-ajv.js';
import { SHAPE_SCHEMAS } from '../../src/engine/shape-check.js';
import { createConfigAjv, readConfigSchema } from '../../src/config/config-ajv.js';
import { builtinOptionsValidator, configValidator } from '../../src/config/compiled-validators.js';
import { BUILTIN_RULES } from '../../src/registry.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { seededRandom as random } from '../helpers/random.js';
import { spawnSync } from 'node:child_process';

const test = suite('compiled validators');


const REPLACEMENTS: unknown[] = ['3', 3, -1, 2 ** 40, 1.5, true, 'yes', 'on', 'No', [], ['ReadWriteOnce'], {}, { a: 1 }, null, '10', '10Gi', '', ' 512 ', '0x10', 0, 'ReadWriteOnce'];

/** `count` copies of `value`, each with one value somewhere inside replaced (or a key added to a map). */
function mutations(value: unknown, count: number, next: () => number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const copy = structuredClone(value) as any;
    const spots: { parent: any; key: string | number }[] = [];
    const walk = (node: any) => {
      if (node === null || typeof node !== 'object') return;
      for (const key of Object.keys(node)) {
        spots.push({ parent: node, key: Array.isArray(node) ? Number(key) : key });
        walk(node[key]);
      }
    };
    walk(copy);
    if (spots.length === 0) continue;
    const spot = spots[Math.floor(next() * spots.length)];
    const replacement = structuredClone(REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)]);
    if (next() < 0.1 && spot.parent[spot.key] !== null && typeof spot.parent[spot.key] === 'object' && !Array.isArray(spot.parent[spot.key])) {
      spot.parent[spot.key].unknownField = replacement;
    } else spot.parent[spot.key] = replacement;
    out.push(copy);
  }
  return out;
}

/** What a caller can see of the errors (the schema fragments of verbose errors compared by value). */
function outcome(validate: ValidateFunction, data: unknown): string {
  const valid = validate(data);
  const errors = (validate.errors ?? []).map((e: ErrorObject) => ({ ...e }));
  return JSON.stringify({ valid, errors });
}

function yamlFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...yamlFiles(full));
    else if (/\.ya?ml$/.test(name)) files.push(full);
  }
  return files;
}

test('shape validators: the same errors as a run-time compile, on examples/ and 20 mutations of each object', async () => {
  const compiled = (await import(new URL('../../src/generated/shape-validators.js', import.meta.url).href)) as Record<string, ValidateFunction>;
  const ajv = createShapeAjv();
  const next = random(21);
  let checked = 0;
  let invalid = 0;
  const kinds = new Set<string>();
  for (const file of yamlFiles(path.join(PROJECT_ROOT, 'examples'))) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      if (!('toJS' in doc) || doc.errors.length > 0) continue;
      const object = doc.toJS() as { kind?: unknown } | null;
      if (!object || typeof object.kind !== 'string' || !Object.prototype.hasOwnProperty.call(SHAPE_SCHEMAS, object.kind)) continue;
      kinds.add(object.kind);
      const runtime = ajv.getSchema(SHAPE_SCHEMA_BASE + SHAPE_SCHEMAS[object.kind])!;
      for (const candidate of [object, ...mutations(object, 20, next)]) {
        const expected = outcome(runtime, candidate);
        assert.is(outcome(compiled[object.kind], candidate), expected, `${object.kind} in ${path.relative(PROJECT_ROOT, file)}`);
        checked++;
        if (!JSON.parse(expected).valid) invalid++;
      }
    }
  }
  assert.ok(kinds.size >= 8, `only ${[...kinds].join(', ')} in examples/`);
  assert.ok(invalid > checked / 10, `mutations should break many objects: ${invalid} of ${checked}`);
  for (const kind of Object.keys(SHAPE_SCHEMAS)) assert.type(compiled[kind], 'function', `no compiled validator for ${kind}`);
});

test('the pvlintStorage keyword: unit-less sizes below 1 MiB fail, as before', async () => {
  const compiled = (await import(new URL('../../src/generated/shape-validators.js', import.meta.url).href)) as Record<string, ValidateFunction>;
  const claim = (storage: unknown) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec: { resources: { requests: { storage } } } });
  const storageErrors = (storage: unknown) => {
    compiled.PersistentVolumeClaim(claim(storage));
    return (compiled.PersistentVolumeClaim.errors ?? []).filter((e) => e.keyword === 'pvlintStorage').length;
  };
  for (const small of [10, '10', ' +512 ', '1.5', '.5', 1048575]) assert.is(storageErrors(small), 1, JSON.stringify(small));
  for (const fine of ['10Gi', 1048576, '0', 0, '-5', '0x10', '1e3', 'ten']) assert.is(storageErrors(fine), 0, JSON.stringify(fine));
});

test('configuration validator: the same errors as a run-time compile, on the example and 200 mutations', () => {
  const runtime = createConfigAjv().compile(readConfigSchema());
  const example = parse(readFileSync(path.join(PROJECT_ROOT, 'examples', 'custom-rules', '.pvlint.yaml'), 'utf8'));
  const next = random(7);
  for (const candidate of [example, ...mutations(example, 200, next)]) {
    assert.is(outcome(configValidator(), candidate), outcome(runtime, candidate));
  }
});

test('built-in rule options: a compiled validator per rule with options, the same errors as a run-time compile', () => {
  const withOptions = BUILTIN_RULES.filter((rule) => rule.meta.options?.schema);
  assert.ok(withOptions.length > 0);
  const ajv = createConfigAjv();
  const next = random(3);
  for (const rule of withOptions) {
    const compiled = builtinOptionsValidator(rule);
    assert.type(compiled, 'function', rule.id);
    const runtime = ajv.compile(rule.meta.options!.schema);
    const defaults = rule.meta.options!.defaults ?? {};
    for (const candidate of [defaults, ...mutations(defaults, 30, next), { unknown: 1 }, []]) {
      assert.is(outcome(compiled!, candidate), outcome(runtime, candidate), rule.id);
    }
  }
  // A rule with another schema under a built-in id gets no compiled validator (it is compiled at run time).
  const impostor = { ...withOptions[0], meta: { ...withOptions[0].meta, options: { ...withOptions[0].meta.options!, schema: { type: 'object' } } } };
  assert.is(builtinOptionsValidator(impostor as typeof withOptions[0]), undefined);
});

test('a run with storage objects and a configuration never loads Ajv (only its small runtime helpers)', () => {
  const probe = `
    const { lint, readLintConfig } = await import(${JSON.stringify(new URL('../../src/index.js', import.meta.url).href)});
    const { createRequire } = await import('node:module');
    const dir = ${JSON.stringify(path.join(PROJECT_ROOT, 'test', 'fixtures', 'compiled-validators'))};
    const config = await readLintConfig(dir);
    const result = await lint({ ...config.options, paths: [dir], cwd: dir });
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/ajv/'));
    console.log(JSON.stringify({ findings: result.findings.length, shape: result.findings.filter((f) => f.ruleId === 'pvlint/shape').length, loaded }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  assert.is(run.status, 0, run.stderr);
  const { findings, shape, loaded } = JSON.parse(run.stdout.trim().split('\n').pop()!);
  assert.is(shape, 2, `the fixture has one shape error and one shape note: ${run.stdout}`);
  assert.ok(findings >= shape);
  assert.equal(loaded.filter((f: string) => !f.includes('/ajv/dist/runtime/')), [], 'Ajv itself was loaded');
});

test.run();
