// Shared by the graph tests: a picture from YAML text (model + the built-in rules, as lint() builds it), the loud
// skip, and where the browser and Mermaid's own renderer are.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runRules } from '../../src/engine/run-rules.js';
import { LocateStage } from '../../src/locate/locate-stage.js';
import { buildEnvironmentGraph } from '../../src/graph/build.js';
import type { EnvironmentGraph } from '../../src/graph/model.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { StorageModel, type ModelOptions } from '../../src/model/storage-model.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { findOnPath } from '../../src/render/executables.js';

export function graphOf(yaml: string, model: Partial<ModelOptions> = {}): EnvironmentGraph {
  const file = makeSourceFile('/virtual/test.yaml', 'test.yaml', yaml);
  const parsed = parseResources(file);
  if (parsed.diagnostics.length > 0) throw new Error(`test YAML does not parse: ${parsed.diagnostics[0].message}`);
  const storage = new StorageModel(parsed.resources, { scope: 'test', ...model });
  const run = runRules(storage, defaultRuleSettings());
  if (run.crashes.length > 0) throw new Error(run.crashes[0].message);
  const stage = new LocateStage();
  return buildEnvironmentGraph(storage, stage.findings(run.findings), { environment: 'test', kind: 'manifests' }, stage.subjectOf);
}

/** A loud note that a test did not run, why, and what makes it run. */
export function warnSkipped(what: string, why: string, fix: string): void {
  const bar = '!'.repeat(100);
  console.warn(`\n${bar}\n!! SKIPPED: ${what}\n!! ${why}\n!! ${fix}\n${bar}\n`);
}

/** Debian's `chromium` (or `CHROMIUM=/path`). */
export const CHROMIUM = process.env.CHROMIUM ?? findOnPath('chromium') ?? findOnPath('chromium-browser');

/**
 * Mermaid's own browser bundle for checking that the Mermaid text renders: `MERMAID_JS=/path/mermaid.min.js`, else
 * where .ci/run unpacks it (the same cache directory as the SARIF Multitool).
 */
export const MERMAID_JS = [
  process.env.MERMAID_JS,
  path.join(process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? os.homedir(), '.cache'), 'pvlint-ci', 'mermaid', 'package', 'dist', 'mermaid.min.js'),
].find((candidate): candidate is string => !!candidate && existsSync(candidate));
