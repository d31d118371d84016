// Stage 3: the loose manifests of each argument are read within the limits and parsed (through the cache, by worker
// threads when an argument has many files). Loose manifests of one argument are one environment; a committed or piped
// `helm template` stream is an environment of its own (several renders of one chart side by side must not see each
// other), and `helm template --output-dir` writes one file per template, so such files group by directory.
import path from 'node:path';
import { parseWithCache } from '../cache/cached-parse.js';
import { diagnostic } from '../engine/diagnostic.js';
import { appendAll } from '../engine/append.js';
import type { DiscoveredInput } from '../load/discover.js';
import { formatBytes } from '../load/limits.js';
import { overNodeBudget, remainingNodes, type NodeBudget } from '../load/node-budget.js';
import { defaultWorkerCount, ParsePool, POOL_MIN_FILES } from '../load/parse-pool.js';
import type { ParsedFile } from '../load/parse-resources.js';
import { readManifest, type ReadBudget } from '../load/read-source.js';
import { makeSourceFile, toDisplayPath } from '../load/source-file.js';
import { attachHelmLocators, findChart } from '../render/helm-stream.js';
import type { Finding, SourceFile } from '../types.js';
import { BatchParser } from './batch-parser.js';
import type { RunContext } from './run-context.js';
import { fileStart, type Scope } from './scope.js';
import type { ReadSettings } from './stage-settings.js';

/** How long the reader parses before the event loop gets a turn. */
const YIELD_EVERY_MS = 4;

/** What reading one argument gave: its findings in report order, and its scopes (Helm streams first, then the loose manifests). */
export interface ReadArgument {
  findings: Finding[];
  scopes: Scope[];
}

/** Reads the arguments of one run in turn; the byte and node budgets, the worker pool and the counts span them all. */
export class ManifestReader {
  documents = 0;
  readonly templateFiles: string[] = [];
  private readonly budget: ReadBudget;
  private readonly nodeBudget: NodeBudget;
  private readonly lazyAfter: number;
  private pool: ParsePool | undefined;

  constructor(
    private readonly run: RunContext,
    private readonly settings: ReadSettings,
    /** Files already claimed (by a GitOps cluster, or an earlier argument): not read again. */
    private readonly claimed: Set<string>,
    lazyPositionsAfterBytes = 8 * 1024 * 1024,
  ) {
    this.budget = { limits: run.limits, used: 0 };
    this.nodeBudget = run.nodeBudget;
    this.lazyAfter = lazyPositionsAfterBytes;
  }

  /** An argument this run does not lint still claims its files first, as in a run of every environment. */
  claim(input: DiscoveredInput): void {
    input.files.forEach((file) => this.claimed.add(file));
  }

  async readArgument(name: string, input: DiscoveredInput): Promise<ReadArgument> {
    const { run, budget, nodeBudget } = this;
    const { root, cwd, limits } = run;
    const findings: Finding[] = [];
    const scopes: Scope[] = [];
    for (const problem of input.problems) {
      const display = toDisplayPath(problem.file, root);
      const finding = diagnostic(problem.ruleId, `${display}: ${problem.message}`, { file: display, region: fileStart() }, problem.severity);
      findings.push(problem.fix ? { ...finding, fix: problem.fix } : finding);
    }
    const loose: Scope = { name, kind: 'manifests', files: 0, resources: [], deferred: [] };
    const streams = new Map<string, Scope>();
    // Each file is parsed as soon as it is read (its text can go once nothing refers to it); read problems still
    // come before parse problems, as they always have.
    const parseFindings: Finding[] = [];
    const take = (file: SourceFile, given?: ParsedFile) => {
      const parsed = given ?? parseWithCache(file, remainingNodes(nodeBudget), run.plan, run.lintCache, budget.used > this.lazyAfter);
      if (parsed.template !== undefined) {
        this.templateFiles.push(file.path);
        return;
      }
      this.documents += parsed.documentCount;
      if (overNodeBudget(parsed, nodeBudget, file, parseFindings)) return;
      let scope = loose;
      if (parsed.helm) {
        const start = file.absPath === '<stdin>' ? cwd : path.dirname(file.absPath);
        const helm = attachHelmLocators(run.sources, file, parsed.documents, parsed.resources, (chart) => findChart(run.sources, start, chart, root));
        if (helm.mapped > 0) {
          const streamName = helm.templates.size === 1 && file.absPath !== '<stdin>' ? path.posix.dirname(file.path) : file.path;
          scope = streams.get(streamName) ?? { name: streamName, kind: 'helm', files: 0, resources: [], deferred: [] };
          if (!streams.has(streamName)) {
            streams.set(streamName, scope);
            scopes.push(scope);
          }
        }
      }
      scope.files++;
      for (const r of parsed.resources) scope.resources.push(r);
      for (const d of parsed.deferred) scope.deferred.push(d);
      for (const d of parsed.diagnostics) parseFindings.push(diagnostic(d.ruleId, d.message, d.location, 'error', [scope.name]));
    };
    if (input.stdin) {
      const text = this.settings.stdin ?? '';
      const bytes = Buffer.byteLength(text);
      if (bytes > limits.maxFileBytes) {
        findings.push(diagnostic('pvlint/limit', `<stdin>: standard input is larger than the ${formatBytes(limits.maxFileBytes)} limit (maxFileBytes); it is not read`, { file: '<stdin>', region: fileStart() }, 'error'));
      } else {
        budget.used += bytes;
        take(makeSourceFile('<stdin>', '<stdin>', text.replace(/^\uFEFF/, '')));
      }
    }
    // Many files and a second core: worker threads parse batches while this thread reads the next one.
    const workers = this.settings.parseWorkers ?? defaultWorkerCount();
    const batches = workers > 0 && input.files.length >= (this.settings.parseWorkersMinFiles ?? POOL_MIN_FILES) ? new BatchParser(() => (this.pool ??= new ParsePool(workers)), limits, run.plan, run.lintCache, take, () => remainingNodes(this.nodeBudget)) : undefined;
    let lastYield = performance.now();
    try {
      for (const absPath of input.files) {
        if (this.claimed.has(absPath)) continue;
        this.claimed.add(absPath);
        // Reads and parses are synchronous: every few milliseconds the event loop gets a turn, so a renderer that
        // ended is seen and the next one starts, and output pipes drain. A render waits for such a turn at every
        // step (its exit, its pipes' end, the start of the next), so turns a file count apart (64 files, tens of
        // milliseconds) left the renderers idle for a tenth of a second between renders.
        if (performance.now() - lastYield > YIELD_EVERY_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          lastYield = performance.now();
        }
        const read = readSource(absPath, root, budget);
        if ('finding' in read) findings.push(read.finding);
        else if (batches) await batches.add(read.file);
        else take(read.file);
      }
      await batches?.finish();
    } catch (error) {
      // Live worker threads would keep the process running after the error is reported.
      await this.close();
      throw error;
    }
    appendAll(findings, parseFindings);
    if (loose.files > 0) scopes.push(loose);
    return { findings, scopes };
  }

  /** Stops the worker threads, if any started. */
  async close(): Promise<void> {
    await this.pool?.close();
  }
}

/** A file as text, or the finding that says why it was not read (at its line when the problem has one). */
function readSource(absPath: string, root: string, budget: ReadBudget): { file: SourceFile } | { finding: Finding } {
  const display = toDisplayPath(absPath, root);
  const read = readManifest(absPath, display, budget);
  if ('file' in read) return read;
  const { ruleId, severity, message, line = 1, column = 1 } = read.problem;
  const region = { startLine: line, startColumn: column, endLine: line, endColumn: column };
  return { finding: diagnostic(ruleId, `${display}: ${message}`, { file: display, region }, severity) };
}
