// The one Ajv set-up of the shape schemas (schemas/resources/): the build compiles it into standalone validation code
// (scripts/build-validators.mjs), and the tests compile it again at run time to check that code against it. pvlint
// itself never compiles a schema when it starts.
import { readFileSync } from 'node:fs';
import ajvModule, { _, type Ajv as AjvInstance, type KeywordCxt, type Options } from 'ajv';
import { UNITLESS_NUMBER } from './unitless-bytes.js';

export const SHAPE_SCHEMA_BASE = 'https://pvlint.dev/schemas/resources/';
/** schemas/resources/ from dist/src/engine/ in the build and in the installed package. */
const SCHEMA_DIR = new URL('../../../schemas/resources/', import.meta.url);
export const SHAPE_SCHEMA_FILES = [
  'common.schema.json',
  'pod.schema.json',
  'persistentvolumeclaim.schema.json',
  'persistentvolume.schema.json',
  'storageclass.schema.json',
  'csidriver.schema.json',
  'volumesnapshot.schema.json',
  'namespace.schema.json',
  'horizontalpodautoscaler.schema.json',
  'workloads.schema.json',
];

export const SHAPE_AJV_OPTIONS: Options = { strict: true, allErrors: true, allowUnionTypes: true };

const MiB = 1024 * 1024;

/**
 * The `pvlintStorage` keyword fails on what unitlessBytes() finds. It is written as generated code, not as a
 * validate function, because only code survives into the standalone module.
 */
function addStorageKeyword(ajv: AjvInstance): void {
  ajv.addKeyword({
    keyword: 'pvlintStorage',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const { gen, data } = cxt;
      const pattern = gen.scopeValue('pattern', { key: UNITLESS_NUMBER, ref: new RegExp(UNITLESS_NUMBER), code: _`new RegExp(${UNITLESS_NUMBER})` });
      const n = gen.const('n', _`typeof ${data} == "number" ? ${data} : typeof ${data} == "string" && ${pattern}.test(${data}) ? Number(${data}) : NaN`);
      cxt.fail(_`${n} > 0 && ${n} < ${MiB}`);
    },
  });
}

/** A new Ajv with every shape schema added, as the build compiles it (`code` options for the standalone build). */
export function createShapeAjv(code?: Options['code']): AjvInstance {
  // ajv is CommonJS: its class is the module's `default` property.
  const Ajv = ajvModule.default;
  const ajv = new Ajv({ ...SHAPE_AJV_OPTIONS, ...(code ? { code } : {}) });
  addStorageKeyword(ajv);
  for (const file of SHAPE_SCHEMA_FILES) ajv.addSchema(JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')));
  return ajv;
}
