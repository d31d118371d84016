// The command line: parse arguments, run lint(), print the report, return the exit code.
// Exit codes: 0 clean, 1 findings at or above --fail-level, 2 usage/configuration/rendering errors.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigConflictError, findConfigForPaths } from '../config/config-for-paths.js';
import { configFileIn } from '../config/find-config.js';
import { configLintOptions } from '../config/lint-config.js';
import { ConfigError, formatProblem } from '../config/problems.js';
import type { ConfigOverrides, ResolvedConfig } from '../config/resolve-config.js';
import { findRepoRoot, UsageError } from '../load/discover.js';
import { DEFAULT_LIMITS, resolveLimits } from '../load/limits.js';
import { readSourceText } from '../load/read-source.js';
import { BUILTIN_RULES, CHANGE_RULES, defaultRuleSettings } from '../registry.js';
import { FORMATS, formatResult, type Format } from '../report/index.js';
import type { RuleDescription } from '../review/change-rule.js';
import { lintWithBase, ReviewError } from '../review/review.js';
import { SEVERITIES, SEVERITY_RANK, type Severity } from '../types.js';
import { pvlintVersion } from '../version.js';
import { wantColor } from './color.js';
import { HELP } from './help.js';
import type { CliIO } from './io.js';

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_ERROR = 2;

const OPTIONS = {
  format: { type: 'string', short: 'f' },
  output: { type: 'string', short: 'o' },
  'fail-level': { type: 'string' },
  'sarif-category': { type: 'string' },
  ignore: { type: 'string', multiple: true },
  'list-environments': { type: 'boolean' },
  environment: { type: 'string', multiple: true },
  quiet: { type: 'boolean', short: 'q' },
  'bundle-complete': { type: 'boolean' },
  'kustomize-command': { type: 'string' },
  'helm-values': { type: 'string', multiple: true },
  'helm-release': { type: 'string' },
  'helm-namespace': { type: 'string' },
  'render-timeout': { type: 'string' },
  'custom-rule-timeout': { type: 'string' },
  'skip-missing-renderers': { type: 'boolean' },
  'enable-helm': { type: 'boolean' },
  'chart-cache': { type: 'string' },
  'no-chart-pull': { type: 'boolean' },
  'follow-symlinks': { type: 'boolean' },
  'parse-all-documents': { type: 'boolean' },
  cache: { type: 'boolean' },
  'cache-location': { type: 'string' },
  config: { type: 'string', short: 'c' },
  'no-config': { type: 'boolean' },
  'show-suppressed': { type: 'boolean' },
  focus: { type: 'string' },
  base: { type: 'string' },
  'new-only': { type: 'boolean' },
  'no-color': { type: 'boolean' },
  color: { type: 'boolean' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
  debug: { type: 'boolean' },
} as const;

function usage(io: CliIO, message: string): number {
  io.stderr(`pvlint: ${message}\nRun 'pvlint --help' for usage.\n`);
  return EXIT_ERROR;
}

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
}

export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usage(io, (error as Error).message.split('\n')[0]);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(HELP);
    return EXIT_OK;
  }
  if (values.version) {
    io.stdout(`${pvlintVersion()}\n`);
    return EXIT_OK;
  }
  // `pvlint graph` has formats of its own (src/cli/graph-command.ts); the report format stays `text` for it.
  const graphCommand = positionals[0] === 'graph';
  // Loaded only for the runs that use them: start-up is part of every pre-commit run.
  const graphModule = graphCommand ? await import('./graph-command.js') : undefined;
  const graphProblem = graphModule ? graphModule.graphOptionsProblem(values) : values.focus !== undefined ? "--focus is for 'pvlint graph'" : undefined;
  if (graphProblem) return usage(io, graphProblem);
  const format = (graphCommand ? 'text' : values.format ?? 'text') as Format;
  if (!(FORMATS as readonly string[]).includes(format)) {
    return usage(io, `unknown format "${values.format}" (expected one of: ${FORMATS.join(', ')})`);
  }
  if (values['fail-level'] !== undefined && !SEVERITIES.includes(values['fail-level'] as Severity)) {
    return usage(io, `unknown fail level "${values['fail-level']}" (expected one of: error, warning, note)`);
  }
  const category = values['sarif-category'];
  if (category !== undefined && (format !== 'sarif' || category.replace(/\/+$/, '') === '')) {
    return usage(io, format !== 'sarif' ? '--sarif-category needs --format sarif' : '--sarif-category needs a non-empty category');
  }
  const ruleTimeoutText = values['custom-rule-timeout'];
  const customRuleTimeout = ruleTimeoutText === undefined ? undefined : Number(ruleTimeoutText);
  // As the configuration key customRuleTimeout allows (schemas/config.schema.json).
  if (customRuleTimeout !== undefined && !(customRuleTimeout > 0 && customRuleTimeout <= 3600)) {
    return usage(io, `--custom-rule-timeout takes a number of seconds greater than 0, at most 3600 (got "${ruleTimeoutText}")`);
  }
  const [command, ...rest] = positionals;
  if (command === 'init') return await init(io, rest);
  // Lint and graph look for the configuration from their path arguments; rules and explain from here.
  const searchFrom = command === 'rules' || command === 'explain' ? [] : graphCommand ? rest : positionals;
  const configured = await configuration(io, values.config, values['no-config'] ?? false, searchFrom, values.debug ?? false, { customRuleTimeout });
  if (typeof configured === 'number') return configured;
  // Change rules (`--base`) are described with the others: in `pvlint rules`, `pvlint explain` and SARIF.
  const rules: readonly RuleDescription[] = [...(configured?.rules ?? BUILTIN_RULES), ...CHANGE_RULES];
  if (command === 'rules') return await listRules(io, format, rest, rules);
  if (command === 'explain') return await explain(io, rest, rules);
  // Flag > configuration file > default.
  const failLevel = (values['fail-level'] ?? configured?.failLevel ?? 'error') as Severity;

  const pathArguments = graphCommand ? rest : positionals;
  const paths = pathArguments.length > 0 ? pathArguments : ['.'];
  const timeoutText = values['render-timeout'];
  const renderTimeoutSeconds = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!(renderTimeoutSeconds > 0) || !Number.isFinite(renderTimeoutSeconds)) {
    return usage(io, `--render-timeout takes a number of seconds greater than 0 (got "${timeoutText}")`);
  }
  if (values['list-environments']) {
    const fromConfig = configured ? configLintOptions(configured) : {};
    const { listEnvironmentsCommand } = await import('./list-environments-command.js');
    return await listEnvironmentsCommand(io, { format, paths, ignore: [...(fromConfig.ignore ?? []), ...(values.ignore ?? [])], followSymlinks: values['follow-symlinks'], limits: fromConfig.limits, gitops: fromConfig.gitops });
  }
  const progress = progressReporter(io);
  // Each environment's picture, for `pvlint graph` and the Markdown report.
  const graphs = graphCommand || format === 'markdown' ? new (await import('../graph/collect.js')).GraphCollector() : undefined;
  if (paths.filter((p) => p === '-').length > 1) return usage(io, '"-" (stdin) may be given only once');
  if (values['new-only'] && values.base === undefined) return usage(io, '--new-only needs --base <git-ref>: it leaves out the findings the base has too');
  if (values.base !== undefined && graphCommand) return usage(io, "--base is for linting, not for 'pvlint graph'");
  const review = values.base !== undefined ? { base: values.base, newOnly: values['new-only'] ?? false, changeRules: configured?.changeRules } : undefined;
  let result;
  // SARIF fingerprints hash the lines of files the run read, read again within the same size limit.
  let maxFileBytes = DEFAULT_LIMITS.maxFileBytes;
  try {
    // The configuration's options first; a flag wins over the setting it names.
    const fromConfig = configured ? configLintOptions(configured) : {};
    maxFileBytes = resolveLimits(fromConfig.limits).maxFileBytes;
    result = await lintWithBase({
      ...fromConfig,
      paths,
      cwd: io.cwd,
      ignore: [...(fromConfig.ignore ?? []), ...(values.ignore ?? [])],
      stdin: paths.includes('-') ? await io.readStdin(DEFAULT_LIMITS.maxFileBytes) : undefined,
      rules: fromConfig.rules ?? defaultRuleSettings(),
      bundleComplete: values['bundle-complete'] || fromConfig.bundleComplete,
      kustomizeCommand: values['kustomize-command'] ?? fromConfig.kustomizeCommand,
      helmValues: values['helm-values'],
      helmRelease: values['helm-release'],
      helmNamespace: values['helm-namespace'],
      renderTimeoutMs: renderTimeoutSeconds * 1000,
      skipMissingRenderers: values['skip-missing-renderers'],
      enableHelm: values['enable-helm'] || fromConfig.enableHelm,
      chartCache: values['chart-cache'] !== undefined ? path.resolve(io.cwd, values['chart-cache']) : fromConfig.chartCache,
      pullCharts: values['no-chart-pull'] ? false : fromConfig.pullCharts,
      followSymlinks: values['follow-symlinks'],
      environments: values.environment,
      parseAllDocuments: values['parse-all-documents'],
      cacheLocation: values.cache || values['cache-location'] !== undefined
        ? values['cache-location'] ?? path.join(await findRepoRoot(io.cwd), 'node_modules', '.cache', 'pvlint')
        : undefined,
      onProgress: progress.update,
      onScope: graphs?.onScope,
    }, review);
    progress.done();
  } catch (error) {
    progress.done();
    if (error instanceof UsageError) return usage(io, error.message);
    if (error instanceof ReviewError) {
      io.stderr(`pvlint: ${error.message}\n`);
      return EXIT_ERROR;
    }
    // A bug; the message says what, PVLINT_DEBUG=1 adds the stack trace (never printed by default).
    const detail = io.env.PVLINT_DEBUG ? (error as Error)?.stack : undefined;
    io.stderr(`pvlint: internal error: ${detail ?? (error as Error)?.message ?? String(error)}\nThis is a bug in pvlint; please report it with the input that triggers it.\n`);
    return EXIT_ERROR;
  }

  await warnUnmatchedIgnores(io, values.ignore ?? [], configured?.ignore ?? [], paths, result.root);
  if (graphModule) return graphModule.writeGraph(io, graphs!, values, result, pvlintVersion());
  const toFile = values.output !== undefined;
  const color = format === 'text' && wantColor({ color: values.color, noColor: values['no-color'], env: io.env, isTTY: io.stdoutIsTTY && !toFile });
  const report = formatResult(format, result, {
    rules,
    showSuppressed: values['show-suppressed'] ?? false,
    toolVersion: pvlintVersion(),
    color,
    quiet: values.quiet ?? false,
    category,
    graphs: graphs?.graphs,
    configFile: configured ? displayConfigPath(result.root, path.resolve(io.cwd, configured.file)) : null,
    readFile: (repoPath: string) => readSourceText(path.join(result.root, repoPath), maxFileBytes, false),
  });
  if (toFile) {
    try {
      await io.writeFile(path.resolve(io.cwd, values.output!), report);
    } catch (error) {
      return usage(io, `cannot write ${values.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else {
    io.stdout(report);
  }
  if (result.fatal) return EXIT_ERROR;
  const failing = result.findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[failLevel]);
  return failing ? EXIT_FINDINGS : EXIT_OK;
}

/** Render progress on stderr, only on a terminal and only when there are more than a few roots. */
function progressReporter(io: CliIO): { update: (done: number, total: number, label: string) => void; done: () => void } {
  let shown = false;
  return {
    update(done, total, label) {
      if (!io.stderrIsTTY || total <= 3) return;
      shown = true;
      io.stderr(`\r\u001b[2Krendering ${done}/${total}  ${label.slice(0, 60)}`);
    },
    done() {
      if (shown) io.stderr('\r\u001b[2K');
      shown = false;
    },
  };
}

/**
 * The configuration that applies: `--config FILE`, else `.pvlint.yaml|yml|json` found upwards from the working
 * directory, unless `--no-config`. Undefined without one; the exit code when it is invalid (one line per problem).
 */
async function configuration(
  io: CliIO,
  option: string | undefined,
  disabled: boolean,
  paths: readonly string[] = [],
  debug = false,
  overrides: ConfigOverrides = {},
): Promise<ResolvedConfig | undefined | number> {
  if (disabled && option !== undefined) return usage(io, '--config and --no-config exclude each other');
  if (disabled) {
    if (debug) io.stderr('pvlint: configuration: none (--no-config)\n');
    return undefined;
  }
  let file: string | undefined;
  try {
    file = option !== undefined ? path.resolve(io.cwd, option) : findConfigForPaths(io.cwd, paths.length > 0 ? paths : ['.'])?.file;
  } catch (error) {
    if (error instanceof ConfigConflictError) return usage(io, error.message);
    throw error;
  }
  if (option !== undefined && !existsSync(file!)) return usage(io, `configuration file not found: ${option}`);
  if (debug) io.stderr(`pvlint: configuration: ${file ? describeConfig(io.cwd, file, option !== undefined) : 'none found (searched from the paths and the working directory up to the repository root)'}\n`);
  if (file === undefined) return undefined;
  try {
    // The resolver (and Ajv, and the TypeScript parser for .ts rules) load only when there is a configuration.
    const { readConfig } = await import('../config/resolve-config.js');
    return await readConfig(file, io.cwd, overrides);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(error.problems.map((problem) => `${formatProblem(problem)}\n`).join(''));
    return EXIT_ERROR;
  }
}

/** `pvlint init`: a commented starter `.pvlint.yaml` in the working directory; never overwrites one. */
async function init(io: CliIO, rest: string[]): Promise<number> {
  if (rest.length > 0) return usage(io, `'pvlint init' takes no arguments (got ${rest.join(' ')})`);
  const existing = configFileIn(io.cwd);
  if (existing) return usage(io, `${path.basename(existing)} already exists here; 'pvlint init' does not overwrite it`);
  const file = path.join(io.cwd, '.pvlint.yaml');
  const { schemaReference, starterConfig } = await import('../config/starter.js');
  try {
    writeFileSync(file, starterConfig(schemaReference(io.cwd, pvlintVersion())), { flag: 'wx' });
  } catch (error) {
    return usage(io, `cannot write .pvlint.yaml: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  io.stdout("wrote .pvlint.yaml: a commented starter configuration (see the README, section 'Configuration')\n");
  return EXIT_OK;
}

async function listRules(io: CliIO, format: Format, rest: string[], rules: readonly RuleDescription[]): Promise<number> {
  if (rest.length > 0) return usage(io, `'pvlint rules' takes no arguments (got ${rest.join(' ')})`);
  if (format !== 'text' && format !== 'json') return usage(io, "'pvlint rules' prints text or json");
  const { rulesJson, rulesTextTable } = await import('../docs/rules-table.js');
  io.stdout(format === 'json' ? rulesJson(rules) : rulesTextTable(rules));
  return EXIT_OK;
}

async function explain(io: CliIO, rest: string[], rules: readonly RuleDescription[]): Promise<number> {
  if (rest.length !== 1) return usage(io, "'pvlint explain' takes one rule id, e.g. 'pvlint explain rwo-claim-multi-node'");
  const rule = rules.find((r) => r.id === rest[0]) ?? rules.find((r) => r.meta.catalogueId?.toLowerCase() === rest[0].toLowerCase());
  if (!rule) {
    // pvlint's own diagnostics (pvlint/render, …): a report can contain them, so explain serves them too.
    const { diagnosticPageText, findDiagnosticDoc } = await import('../docs/diagnostic-page.js');
    const doc = findDiagnosticDoc(rest[0]);
    if (doc) {
      io.stdout(diagnosticPageText(doc));
      return EXIT_OK;
    }
    return usage(io, `unknown rule "${rest[0]}"; 'pvlint rules' lists them`);
  }
  const { rulePageText } = await import('../docs/rule-page.js');
  io.stdout(rulePageText(rule));
  return EXIT_OK;
}

function describeConfig(cwd: string, file: string, named: boolean): string {
  const shown = path.relative(cwd, file) || file;
  return named ? `${shown} (--config)` : shown;
}

/** The configuration file relative to the repository root, as finding paths are; absolute when outside it. */
function displayConfigPath(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

/** A warning on stderr for each ignore glob that matches nothing (a typo, or a glob relative to the wrong place). */
async function warnUnmatchedIgnores(io: CliIO, flags: readonly string[], fromConfig: readonly string[], paths: readonly string[], root: string): Promise<void> {
  if (flags.length === 0 && fromConfig.length === 0) return;
  const { unmatchedIgnores } = await import('../load/ignore-patterns.js');
  const directories: string[] = [];
  for (const argument of paths) {
    if (argument === '-') continue;
    const absolute = path.resolve(io.cwd, argument);
    directories.push(existsSync(absolute) && statSync(absolute).isDirectory() ? absolute : path.dirname(absolute));
  }
  for (const glob of await unmatchedIgnores(flags, directories, root)) {
    io.stderr(`pvlint: warning: --ignore '${glob}' matches no file (globs match paths relative to the repository root, as printed, or to each directory argument)\n`);
  }
  for (const glob of await unmatchedIgnores(fromConfig, directories, root)) {
    io.stderr(`pvlint: warning: the configuration's ignore '${path.relative(io.cwd, glob) || glob}' matches no file (its globs are relative to the configuration file)\n`);
  }
}
