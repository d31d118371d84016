// Loads the custom rules that `ruleFiles` names: modules of the same shape as built-in rules (a default export made
// by `defineRule` from 'pvlint'). `.js`/`.mjs` load as they are; `.ts`/`.mts` load without a build step, their types
// erased (erase-types.ts) by module hooks that also make `import ... from 'pvlint'` resolve to this running pvlint,
// so a repo needs no pvlint install of its own. Modules are imported in the custom rules' worker thread, never on the
// main thread, so top-level code that never ends is stopped at the deadline. Any problem is a configuration error
// naming the file and line.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessageMap } from '../types.js';
import type { RuleModule } from '../engine/rule-module.js';
import type { ConfigProblem } from './problems.js';
import { ERASE_ERROR_PREFIX, RULE_QUERY, TS_FILE } from './ts-hooks.js';
import { DEFAULT_CUSTOM_RULE_TIMEOUT_MS, isolatedCheck, RenderedMessages, RuleTimeout, RuleWorkerPool } from './isolated-rule.js';
import { ruleData, shapeProblem, type RuleData } from './rule-shape.js';

export const RULE_FILE = /\.(?:m?ts|m?js)$/;
const SKIPPED = /\.d\.m?ts$|\.(?:test|spec)\.m?[jt]s$/;

let hooksRegistered = false;
let generation = 0;

/** False on Node.js older than 20.6, which has no module.register(). */
const PVLINT_URL = new URL('../index.js', import.meta.url).href;

function registerHooks(): boolean {
  if (hooksRegistered) return true;
  // A namespace import: a named import of `register` would fail to link on older Node versions, configuration or not.
  const register = (nodeModule as { register?: typeof nodeModule.register }).register;
  if (typeof register !== 'function') return false;
  register(new URL('./ts-hooks.js', import.meta.url), { data: { pvlintUrl: PVLINT_URL } });
  hooksRegistered = true;
  return true;
}

export interface RuleFileRequest {
  /** As written in the configuration. */
  entry: string;
  /** Absolute. */
  path: string;
  /** Where the entry is written, for problems about the entry itself. */
  at: (message: string) => ConfigProblem;
}

export interface LoadedRule {
  rule: RuleModule;
  /** Absolute path of the module. */
  file: string;
}

/** Files a `ruleFiles` entry stands for: the file, or the rule modules directly inside a directory. */
export function expandRuleFiles(request: RuleFileRequest): { files: string[] } | { problem: ConfigProblem } {
  let info;
  try {
    info = statSync(request.path);
  } catch {
    return { problem: request.at(`rule file or directory "${request.entry}" does not exist`) };
  }
  if (info.isFile()) {
    if (!RULE_FILE.test(request.path)) return { problem: request.at(`"${request.entry}" is not a .ts, .mts, .js or .mjs file`) };
    return { files: [request.path] };
  }
  const files = readdirSync(request.path)
    .filter((name) => RULE_FILE.test(name) && !SKIPPED.test(name))
    .map((name) => path.join(request.path, name))
    .filter((file) => statSync(file).isFile())
    .sort();
  if (files.length === 0) return { problem: request.at(`directory "${request.entry}" holds no .ts, .mts, .js or .mjs rule files`) };
  return { files };
}

/** Line and column of `needle` in a file's text, for pointing at e.g. `id: 'x'`; 1:1 when absent. */
function positionOf(text: string, needle: RegExp): { line: number; column: number } {
  const match = needle.exec(text);
  if (!match) return { line: 1, column: 1 };
  const before = text.slice(0, match.index).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** The first stack frame inside `file`, as `line:column`. */
export function frameIn(error: unknown, file: string): { line: number; column: number } | undefined {
  const stack = (error as Error | undefined)?.stack ?? '';
  const href = pathToFileURL(file).href;
  for (const line of stack.split('\n')) {
    const at = line.indexOf(href);
    if (at === -1) continue;
    // `file:///x.ts?pvlint-rule=1:12:7` in a stack frame; a syntax error names `file:///x.mjs:12` alone.
    const match = /^(?:\?[^:]*)?:(\d+)(?::(\d+))?/.exec(line.slice(at + href.length));
    if (match) return { line: Number(match[1]), column: match[2] ? Number(match[2]) : 1 };
  }
  return undefined;
}

/** How custom rules run: in a worker thread with a deadline per rule and scope (the default), or in-process. */
export interface CustomRuleRunning {
  /** How long one rule may run on one scope; default 10 s. */
  timeoutMs?: number;
  /** False runs check() on the main thread, with no deadline (how custom rules ran before isolation; for measuring). */
  isolate?: boolean;
}

/**
 * The rule with the documentation fields reports need filled in, and check() wrapped so that a crash names the
 * custom rule's file and line (the engine reports it as pvlint/rule-crash and runs the other rules). `rule` is the
 * data the worker sent and `check` runs the rule there (isolated-rule.ts), or both are the module's own when
 * custom rules run in-process.
 */
function normalise(rule: RuleData, messages: MessageMap, ruleCheck: RuleModule['check'], file: string, display: string): RuleModule {
  const meta = rule.meta;
  const summary = typeof meta.summary === 'string' && meta.summary !== '' ? meta.summary : `Custom rule ${rule.id} (${display}).`;
  const text = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
  return {
    id: rule.id,
    meta: {
      ...(typeof meta.catalogueId === 'string' ? { catalogueId: meta.catalogueId } : {}),
      severity: meta.severity,
      kinds: meta.kinds ?? [],
      summary,
      why: text(meta.why, summary),
      trigger: text(meta.trigger),
      exceptions: text(meta.exceptions),
      fix: text(meta.fix),
      reportsAt: text(meta.reportsAt),
      references: Array.isArray(meta.references) ? meta.references : [],
      messages,
      examples: meta.examples && typeof meta.examples === 'object' ? (meta.examples as RuleModule['meta']['examples']) : { invalid: [], valid: [] },
      ...(meta.options ? { options: { schema: meta.options.schema, defaults: (meta.options.defaults ?? {}) as Record<string, unknown> } } : {}),
    },
    check(context) {
      try {
        const returned: unknown = ruleCheck(context);
        if (returned !== null && typeof returned === 'object' && typeof (returned as PromiseLike<unknown>).then === 'function') {
          // What an async check() reports after its first await would be lost, and a rejection would surface as an
          // unhandled one: refused, with a reason, and the promise's outcome is swallowed.
          (returned as Promise<unknown>).then(undefined, () => undefined);
          throw new Error('check() returned a Promise: custom rules must report synchronously (async check() is not supported; read what you need from context.model)');
        }
      } catch (error) {
        const frame = frameIn(error, file);
        const message = error instanceof RuleTimeout ? `custom rule ${rule.id} ${error.message}` : error instanceof Error ? error.message : String(error);
        throw new Error(`${message} (custom rule in ${display}${frame ? `:${frame.line}:${frame.column}` : ''})`);
      }
    },
  };
}

/**
 * `promise`, or a rejection with `message` after `ms`. The timer also keeps the process alive: a module whose
 * top-level await never settles would otherwise let Node exit at once, with status 0 and no output.
 */
function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** A module's default export, checked: the rule's data, messages and check(), or why it is not a rule. */
type Loaded = { rule: RuleData; messages: MessageMap; check: RuleModule['check'] } | { shape: string } | { error: { message: string; stack?: string } };

/** Imports the module on this thread (custom rules in-process, for measuring): its top-level code is not stopped. */
async function loadInProcess(url: string, timeoutMs: number): Promise<Loaded> {
  let module: any;
  try {
    module = await withDeadline(import(url), timeoutMs, `the rule module did not finish loading within ${timeoutMs / 1000} s (a top-level await that never settles?)`);
  } catch (error) {
    return { error: { message: error instanceof Error ? error.message : String(error), ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) } };
  }
  const rule = module?.default;
  const shape = shapeProblem(rule);
  if (shape) return { shape };
  return { rule: ruleData(rule), messages: rule.meta.messages, check: (context) => rule.check.call(rule, context) };
}

/** Imports the module in the worker: the rule's data, with check() and its messages proxied to the worker. */
async function loadIsolated(pool: RuleWorkerPool, url: string, timeoutMs: number): Promise<Loaded> {
  const reply = await pool.load(url, timeoutMs);
  if (!reply.rule) return reply.shape !== undefined ? { shape: reply.shape } : { error: reply.error ?? { message: 'the worker gave no answer (a bug in pvlint)' } };
  const rendered = new RenderedMessages();
  return {
    rule: reply.rule,
    messages: rendered.messages(reply.rule.meta.messageIds),
    check: isolatedCheck(pool, url, reply.rule.meta.kinds ?? [], timeoutMs, rendered),
  };
}

/**
 * Imports each file and returns its rule, or the problems: a .ts file whose types cannot be erased, a module that
 * fails to load or does not finish loading within the rule timeout, a default export that is not a rule.
 * `display` turns an absolute path into what the user sees.
 */
export async function loadRuleFiles(
  files: readonly string[], display: (file: string) => string, running: CustomRuleRunning = {},
): Promise<{ rules: LoadedRule[]; problems: ConfigProblem[] }> {
  const rules: LoadedRule[] = [];
  const problems: ConfigProblem[] = [];
  if (files.length === 0) return { rules, problems };
  if (!registerHooks()) {
    const version = process.versions.node;
    return { rules, problems: files.map((file) => ({ file: display(file), line: 1, column: 1, message: `custom rules need Node.js 20.6 or later (module hooks); this is Node.js ${version}` })) };
  }
  generation++;
  const pool = running.isolate === false ? undefined : new RuleWorkerPool(PVLINT_URL, files.some((file) => TS_FILE.test(file)));
  const timeoutMs = running.timeoutMs ?? DEFAULT_CUSTOM_RULE_TIMEOUT_MS;
  for (const file of files) {
    const shown = display(file);
    const url = `${pathToFileURL(file).href}?${RULE_QUERY}=${generation}`;
    const loaded = pool ? await loadIsolated(pool, url, timeoutMs) : await loadInProcess(url, timeoutMs);
    if ('error' in loaded) {
      const { message } = loaded.error;
      if (message.startsWith(ERASE_ERROR_PREFIX)) {
        const erase = JSON.parse(message.slice(ERASE_ERROR_PREFIX.length)) as { file: string; problems: { line: number; column: number; message: string }[] };
        for (const p of erase.problems) problems.push({ file: display(erase.file), line: p.line, column: p.column, message: p.message });
        continue;
      }
      const frame = frameIn(loaded.error, file);
      problems.push({ file: shown, line: frame?.line ?? 1, column: frame?.column ?? 1, message: `cannot load the rule module: ${message.split('\n')[0]}` });
      continue;
    }
    if ('shape' in loaded) {
      problems.push({ file: shown, ...positionOf(safeRead(file), /export\s+default\b/), message: loaded.shape });
      continue;
    }
    rules.push({ rule: normalise(loaded.rule, loaded.messages, loaded.check, file, shown), file });
  }
  return { rules, problems };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Where a rule's `id` is written in its file, for "id clashes" problems. */
export function idPosition(file: string, id: string): { line: number; column: number } {
  const escaped = id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return positionOf(safeRead(file), new RegExp(`\\bid\\s*:\\s*['"\`]${escaped}['"\`]`));
}
