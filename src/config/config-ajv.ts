// The one Ajv set-up of the configuration schema and of the built-in rules' option schemas: the build compiles it
// into standalone validation code (scripts/build-validators.mjs); at run time it is used only for what the build
// cannot know, a custom rule's option schema, and by the tests that check the generated code against it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, Options } from 'ajv';

// Required on first use, not imported: loading ajv costs ~60 ms, which a run with a configuration and only built-in
// rules never pays.
const require = createRequire(import.meta.url);

/** allowUnionTypes: a rule entry is a string, a list or a mapping (`type: [string, array, object]`). */
export const CONFIG_AJV_OPTIONS: Options = { strict: true, allErrors: true, verbose: true, allowUnionTypes: true };

/** Where schemas/ is, from dist/src/config/ in the build and in the installed package. */
const SCHEMA_URL = new URL('../../../schemas/config.schema.json', import.meta.url);

export function readConfigSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));
}

export function createConfigAjv(code?: Options['code']): AjvInstance {
  // ajv is CommonJS: its class is the module's `default` property.
  const Ajv = (require('ajv') as typeof import('ajv')).default;
  return new Ajv({ ...CONFIG_AJV_OPTIONS, ...(code ? { code } : {}) });
}
