// The validators the build compiled (scripts/build-validators.mjs) for the configuration schema and the built-in
// rules' option schemas: loading them costs a module import, not an Ajv compile.
import type { ValidateFunction } from 'ajv';
import type { RuleModule } from '../engine/rule-module.js';

interface CompiledOptions {
  validate: ValidateFunction;
  /** JSON of the schema the validator was compiled from. */
  schema: string;
}

// The generated modules are not TypeScript sources: imported by URL, so tsc does not look for them.
const generated = new URL('../generated/', import.meta.url);
const { validate: config } = (await import(new URL('config-validator.js', generated).href)) as { validate: ValidateFunction };
const { ruleOptions } = (await import(new URL('rule-options-validators.js', generated).href)) as { ruleOptions: Record<string, CompiledOptions> };

export function configValidator(): ValidateFunction {
  return config;
}

/**
 * The compiled validator of a built-in rule's options; undefined for a custom rule, or for a schema that is not the
 * one the build compiled (a custom rule reusing a built-in id is refused elsewhere, but the check costs nothing).
 */
export function builtinOptionsValidator(rule: RuleModule): ValidateFunction | undefined {
  const compiled = Object.prototype.hasOwnProperty.call(ruleOptions, rule.id) ? ruleOptions[rule.id] : undefined;
  return compiled && compiled.schema === JSON.stringify(rule.meta.options?.schema) ? compiled.validate : undefined;
}
