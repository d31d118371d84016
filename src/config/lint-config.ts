// The configuration file for API users: what the CLI does before lint(), as one call. `pvlint` finds
// `.pvlint.yaml` (or .yml, .json) from the working directory up to the repository root, validates it and turns it
// into LintOptions; scripts calling lint() get the same with `readLintConfig`.
import path from 'node:path';
import type { LintOptions } from '../lint.js';
import type { ReviewOptions } from '../review/review.js';
import type { Severity } from '../types.js';
import { findConfigFile } from './find-config.js';
import type { ResolvedConfig } from './resolve-config.js';

export interface LintConfig {
  /** The configuration file that was read. */
  file: string;
  /** Spread into lint()'s options (paths and the run's own settings go next to them). */
  options: Partial<LintOptions>;
  /** Spread into lintWithBase()'s review options: the change rules as configured. */
  review: Pick<ReviewOptions, 'changeRules'>;
  /** The configuration's `failLevel`, for callers that decide an exit status. */
  failLevel?: Severity;
}

/** The LintOptions a resolved configuration stands for (what the CLI passes when no flag overrides it). */
export function configLintOptions(config: ResolvedConfig): Partial<LintOptions> {
  return {
    rules: config.settings,
    ignore: config.ignore,
    ...(config.bundleComplete !== undefined ? { bundleComplete: config.bundleComplete } : {}),
    ...(config.kustomizeCommand !== undefined ? { kustomizeCommand: config.kustomizeCommand } : {}),
    ...(config.enableHelm !== undefined ? { enableHelm: config.enableHelm } : {}),
    ...(config.helmChartSettings ? { helmChartSettings: config.helmChartSettings } : {}),
    ...(config.helmChartMappings ? { helmChartMappings: config.helmChartMappings } : {}),
    ...(config.chartCache !== undefined ? { chartCache: config.chartCache } : {}),
    ...(config.pullCharts !== undefined ? { pullCharts: config.pullCharts } : {}),
    ...(config.bundledCharts !== undefined ? { bundledCharts: config.bundledCharts } : {}),
    ...(config.cluster ? { cluster: config.cluster } : {}),
    ...(config.gitops ? { gitops: config.gitops } : {}),
    suppressions: config.suppressions,
    suppressionBase: config.suppressionBase,
  };
}

/**
 * Reads the configuration as the CLI does: `file` when given (relative to `cwd`), else the one found from `cwd` up
 * to the repository root; undefined when there is none. Throws `ConfigError` (every problem, with file:line:col)
 * when it is invalid.
 */
export async function readLintConfig(cwd: string, file?: string): Promise<LintConfig | undefined> {
  const found = file !== undefined ? path.resolve(cwd, file) : findConfigFile(cwd);
  if (found === undefined) return undefined;
  const { readConfig } = await import('./resolve-config.js');
  const config = await readConfig(found, cwd);
  return {
    file: config.file,
    options: configLintOptions(config),
    review: { changeRules: config.changeRules },
    ...(config.failLevel ? { failLevel: config.failLevel } : {}),
  };
}
