// The command line: parse arguments, run lint(), print the report, return the exit code.
// Exit codes: 0 clean, 1 findings at or above --fail-level, 2 usage/configuration/rendering errors.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { rulePageText } from '../docs/rule-page.js';
import { rulesJson, rulesTextTable } from '../docs/rules-table.js';
import { UsageError } from '../load/discover.js';
import { lint } from '../lint.js';
import { BUILTIN_RULES, defaultRuleSettings, findRule } from '../registry.js';
import { FORMATS, formatResult, type Format } from '../report/index.js';
import { SEVERITIES, SEVERITY_RANK, type Severity } from '../types.js';
import { pvlintVersion } from '../version.js';
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
  quiet: { type: 'boolean', short: 'q' },
  'bundle-complete': { type: 'boolean' },
  'kustomize-command': { type: 'string' },
  'helm-values': { type: 'string', multiple: true },
  'helm-release': { type: 'string' },
  'helm-namespace': { type: 'string' },
  'render-timeout': { type: 'string' },
  'skip-missing-renderers': { type: 'boolean' },
  'enable-helm': { type: 'boolean' },
  'no-color': { type: 'boolean' },
  color: { type: 'boolean' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
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
  const format = (values.format ?? 'text') as Format;
  if (!(FORMATS as readonly string[]).includes(format)) {
    return usage(io, `unknown format "${values.format}" (expected one of: ${FORMATS.join(', ')})`);
  }
  const failLevel = (values['fail-level'] ?? 'error') as Severity;
  if (!SEVERITIES.includes(failLevel)) {
    return usage(io, `unknown fail level "${values['fail-level']}" (expected one of: error, warning, note)`);
  }
  const category = values['sarif-category'];
  if (category !== undefined && (format !== 'sarif' || category.replace(/\/+$/, '') === '')) {
    return usage(io, format !== 'sarif' ? '--sarif-category needs --format sarif' : '--sarif-category needs a non-empty category');
  }
  const [command, ...rest] = positionals;
  if (command === 'rules') return listRules(io, format, rest);
  if (command === 'explain') return explain(io, rest);

  const paths = positionals.length > 0 ? positionals : ['.'];
  const timeoutText = values['render-timeout'];
  const renderTimeoutSeconds = timeoutText === undefined ? 60 : Number(timeoutText);
  if (!(renderTimeoutSeconds > 0) || !Number.isFinite(renderTimeoutSeconds)) {
    return usage(io, `--render-timeout takes a number of seconds greater than 0 (got "${timeoutText}")`);
  }
  const progress = progressReporter(io);
  if (paths.filter((p) => p === '-').length > 1) return usage(io, '"-" (stdin) may be given only once');
  let result;
  try {
    result = await lint({
      paths,
      cwd: io.cwd,
      ignore: values.ignore,
      stdin: paths.includes('-') ? await io.readStdin() : undefined,
      rules: defaultRuleSettings(),
      bundleComplete: values['bundle-complete'],
      kustomizeCommand: values['kustomize-command'],
      helmValues: values['helm-values'],
      helmRelease: values['helm-release'],
      helmNamespace: values['helm-namespace'],
      renderTimeoutMs: renderTimeoutSeconds * 1000,
      skipMissingRenderers: values['skip-missing-renderers'],
      enableHelm: values['enable-helm'],
      onProgress: progress.update,
    });
    progress.done();
  } catch (error) {
    progress.done();
    if (error instanceof UsageError) return usage(io, error.message);
    io.stderr(`pvlint: internal error: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT_ERROR;
  }

  const toFile = values.output !== undefined;
  const color =
    format === 'text' && !toFile && !values['no-color'] && io.env.NO_COLOR === undefined &&
    (values.color === true || io.stdoutIsTTY);
  const report = formatResult(format, result, {
    rules: BUILTIN_RULES,
    toolVersion: pvlintVersion(),
    color,
    quiet: values.quiet ?? false,
    category,
    readFile: (repoPath: string) => {
      try {
        return readFileSync(path.join(result.root, repoPath), 'utf8');
      } catch {
        return undefined;
      }
    },
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

function listRules(io: CliIO, format: Format, rest: string[]): number {
  if (rest.length > 0) return usage(io, `'pvlint rules' takes no arguments (got ${rest.join(' ')})`);
  if (format !== 'text' && format !== 'json') return usage(io, "'pvlint rules' prints text or json");
  io.stdout(format === 'json' ? rulesJson(BUILTIN_RULES) : rulesTextTable(BUILTIN_RULES));
  return EXIT_OK;
}

function explain(io: CliIO, rest: string[]): number {
  if (rest.length !== 1) return usage(io, "'pvlint explain' takes one rule id, e.g. 'pvlint explain rwo-claim-multi-node'");
  const rule = findRule(rest[0]) ?? BUILTIN_RULES.find((r) => r.meta.catalogueId?.toLowerCase() === rest[0].toLowerCase());
  if (!rule) return usage(io, `unknown rule "${rest[0]}"; 'pvlint rules' lists them`);
  io.stdout(rulePageText(rule));
  return EXIT_OK;
}
