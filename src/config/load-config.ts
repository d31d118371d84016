// Reads a configuration file (YAML, or JSON, which YAML parses too) with positions, and validates it against
// schemas/config.schema.json with Ajv (strict, all errors). Ajv is loaded only here, only when a configuration exists:
// a run without one does not pay for it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Ajv as AjvInstance } from 'ajv';
import { makeSourceFile } from '../load/source-file.js';
import { createConfigAjv } from './config-ajv.js';
import { configValidator } from './compiled-validators.js';
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
  customRuleTimeout?: number;
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
    charts?: Record<string, { values?: string[]; release?: string; namespace?: string } | string>;
    chartCache?: string;
    pullCharts?: boolean;
    bundledCharts?: boolean;
  };
  kustomize?: { command?: string; enableHelm?: boolean };
  clusters?: Record<string, { entries: string[]; cluster?: RawConfig['cluster'] }>;
  gitops?: { repoURLs?: string[]; argocdBuildOptions?: string };
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
  /** An Ajv instance, for the option schemas of custom rules (created on first use). */
  readonly ajv: AjvInstance;
}

const MAX_ALIAS_COUNT = 100;

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
  const validate = configValidator();
  if (!validate(value)) throw new ConfigError(schemaProblems(validate.errors ?? [], document));
  let ajv: AjvInstance | undefined;
  return {
    path: file, dir: path.dirname(file), document, value: value as RawConfig,
    get ajv() {
      return (ajv ??= createConfigAjv());
    },
  };
}
