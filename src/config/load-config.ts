// Reads a configuration file (YAML, or JSON, which YAML parses too) with positions, and validates it against
// schemas/config.schema.json with Ajv (strict, all errors). Ajv is loaded only here, only when a configuration exists:
// a run without one does not pay for it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Ajv as AjvInstance } from 'ajv';
import { makeSourceFile } from '../load/source-file.js';
import { ConfigDocument, ConfigError, schemaProblems, type ConfigProblem } from './problems.js';
import { readManifest } from '../load/read-source.js';
import { resolveLimits } from '../load/limits.js';

/** A configuration file is a few KiB; 1 MiB is far past any real one. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export type SeverityName = 'off' | 'note' | 'warning' | 'error';
export type RuleEntry = SeverityName | [SeverityName, Record<string, unknown>?] | { severity?: SeverityName; options?: Record<string, unknown> };
export type SupportValue = 'yes' | 'no' | 'block-only' | 'conditional' | 'unknown' | boolean;

/** The configuration as the schema describes it (after validation). */
export interface RawConfig {
  $schema?: string;
  extends?: 'recommended' | 'all';
  rules?: Record<string, RuleEntry>;
  ruleFiles?: string[];
  ignore?: string[];
  failLevel?: 'error' | 'warning' | 'note';
  cluster?: {
    bundleComplete?: boolean;
    kubernetesVersion?: string;
    storageClasses?: {
      name: string;
      provisioner: string;
      volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
      default?: boolean;
      allowVolumeExpansion?: boolean;
      reclaimPolicy?: 'Delete' | 'Retain';
      parameters?: Record<string, string>;
    }[];
    mesh?: {
      istioInjectionDefault?: boolean;
      injectedNamespaces?: string[];
      ambientNamespaces?: string[];
      linkerdNamespaces?: string[];
      plainNamespaces?: string[];
      nativeSidecars?: boolean | 'auto';
      linkerdNativeSidecars?: boolean;
    };
    drivers?: {
      name: string;
      aliases?: string[];
      type?: 'csi' | 'in-tree' | 'external';
      attach?: 'required' | 'not-required' | 'configurable' | 'not-applicable';
      rwo?: SupportValue;
      rox?: SupportValue;
      rwx?: SupportValue;
      rwop?: SupportValue;
      block?: SupportValue;
      topology?: 'none' | 'zonal' | 'regional' | 'node' | 'optional' | 'placement';
      topologyKeys?: string[];
      notes?: string;
    }[];
  };
  helm?: {
    values?: string[];
    release?: string;
    namespace?: string;
    charts?: Record<string, { values?: string[]; release?: string; namespace?: string }>;
  };
  kustomize?: { command?: string; enableHelm?: boolean };
  suppress?: {
    rules: string[];
    resource?: { kind?: string; namespace?: string; name?: string };
    paths?: string[];
    reason: string;
  }[];
}

export interface LoadedConfig {
  /** Absolute path. */
  path: string;
  /** Absolute directory: paths in the configuration are relative to it. */
  dir: string;
  document: ConfigDocument;
  value: RawConfig;
  /** The Ajv instance, for the rules' own option schemas. */
  ajv: AjvInstance;
}

/** Where schemas/ is, from dist/src/config/ in the build and in the installed package. */
const SCHEMA_URL = new URL('../../../schemas/config.schema.json', import.meta.url);
const MAX_ALIAS_COUNT = 100;

export async function createAjv(): Promise<AjvInstance> {
  // ajv is CommonJS: its class is the module's `default` property.
  const { default: ajvModule } = await import('ajv');
  const Ajv = ajvModule.default;
  // allowUnionTypes: a rule entry is a string, a list or a mapping (`type: [string, array, object]`).
  return new Ajv({ strict: true, allErrors: true, verbose: true, allowUnionTypes: true });
}

function readConfigSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));
}

/** Reads and validates the configuration; throws ConfigError with every problem found. */
export async function loadConfig(file: string, cwd: string): Promise<LoadedConfig> {
  const shown = path.relative(cwd, file) || path.basename(file);
  // Read as manifests are: a regular file (`-c /dev/zero` or a FIFO is refused, not read forever), at most 1 MiB.
  const read = readManifest(file, shown, { limits: resolveLimits({ maxFileBytes: MAX_CONFIG_BYTES }), used: 0 });
  if ('problem' in read) {
    const problem: ConfigProblem = { file: shown, line: 1, column: 1, message: `cannot read the configuration: ${read.problem.message}` };
    throw new ConfigError([problem]);
  }
  const text = read.file.text;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  const document = new ConfigDocument(makeSourceFile(file, shown, text), doc);
  if (doc.errors.length > 0) {
    throw new ConfigError(doc.errors.map((error) => ({
      file: shown,
      line: error.linePos?.[0].line ?? 1,
      column: error.linePos?.[0].col ?? 1,
      message: `invalid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
    })));
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    throw new ConfigError([{ file: shown, line: 1, column: 1, message: `invalid YAML: ${(error as Error).message}` }]);
  }
  const ajv = await createAjv();
  const validate = ajv.compile(readConfigSchema());
  if (!validate(value)) throw new ConfigError(schemaProblems(validate.errors ?? [], document));
  return { path: file, dir: path.dirname(file), document, value: value as RawConfig, ajv };
}
