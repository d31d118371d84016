// The fuzz harness: mutated manifests (from examples/ and, when given, a corpus of real manifests) are linted next
// to a known-good directory, and every run must keep pvlint's promises:
//   - lint() never throws, no rule crashes, nothing is fatal (plain files only: no renderer runs);
//   - the good directory's findings are exactly those of linting it alone;
//   - an input that is not readable text, or does not parse as YAML, has a pvlint/read|parse|limit finding at its
//     path, and every finding points at a line that exists;
//   - the time stays within a bound linear in the input size;
//   - the findings are identical whatever the order of the arguments (checked every `orderEvery` cases);
//   - the spawned binary (every `spawnEvery` cases) exits 0, 1 or 2 with no stack trace, and reports the same.
// Cases run in worker threads under a watchdog, so an input that hangs pvlint is a failure, not a hung run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { parseAllDocuments } from 'yaml';
import { lint, type LintResult } from '../../src/lint.js';
import type { Finding } from '../../src/types.js';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';
import { caseRandom, mutate } from './mutate.js';

export const DEFAULT_CORPUS = '/work/shared/corpus';

export interface FuzzOptions {
  seed: number;
  count: number;
  /** First case index (cases are numbered from 0). */
  start?: number;
  workers?: number;
  /** Extra seed manifests (a directory); examples/ is always used. */
  corpus?: string;
  /** Spawn the real binary for every n-th case (0: never). */
  spawnEvery?: number;
  /** Lint with the arguments reversed for every n-th case. */
  orderEvery?: number;
  /** A case that runs longer than this is a hang: its worker is stopped and the run goes on. */
  hangMs?: number;
  /** Seed files larger than this are left out (they make cases slow, not more interesting). */
  maxSeedBytes?: number;
  onProgress?: (done: number, total: number, failures: number) => void;
}

export interface CaseOutcome {
  index: number;
  source: string;
  mutations: string[];
  bytes: number;
  ms: number;
  failures: string[];
  /** What an independent YAML reader made of the input. */
  verdict?: 'unreadable' | 'unparsable' | 'fine';
}

export interface FuzzReport {
  seed: number;
  start: number;
  count: number;
  seeds: number;
  outcomes: CaseOutcome[];
  failures: CaseOutcome[];
  ms: number;
  spawned: number;
  /** The slowest case relative to its size. */
  worstMsPerKiB: number;
}

/** Manifests to mutate: examples/ (always) and the corpus, sorted, so a seed number means the same inputs. */
export function loadSeeds(corpus?: string, maxSeedBytes = 128 * 1024): string[] {
  const roots = [path.join(PROJECT_ROOT, 'examples'), ...(corpus && existsSync(corpus) ? [corpus] : [])];
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && /\.ya?ml$/.test(entry.name) && statSync(full).size <= maxSeedBytes) found.push(full);
    }
  };
  for (const root of roots) walk(root);
  return found.sort();
}

export function makeCase(seeds: readonly string[], seed: number, index: number, read: (file: string) => Buffer = (f) => readFileSync(f)) {
  const random = caseRandom(seed, index);
  const source = seeds[Math.floor(random() * seeds.length)];
  const { bytes, mutations } = mutate(read(source), random);
  return { source, bytes, mutations };
}

const GOOD_FILES = ['good.yaml', 'list-of-lists.yaml'];
const INPUT = 'case/input.yaml';

function key(f: Finding): string {
  const r = f.location.region;
  return `${f.ruleId}|${f.severity}|${f.location.file}:${r.startLine}:${r.startColumn}-${r.endLine}:${r.endColumn}|${f.message}`;
}

/**
 * `key`, except that a syntax or limit finding is identified by its document: parsed alone, a document with an
 * unclosed quote is reported where its text ends, parsed with the next one where that one starts.
 */
function scanKey(f: Finding): string {
  if (f.ruleId !== 'pvlint/parse' && f.ruleId !== 'pvlint/limit') return key(f);
  return `${f.ruleId}|${f.location.file}|${/document \d+/.exec(f.message)?.[0] ?? f.message}`;
}

/** What an independent reader says about the bytes: unreadable, unparsable, or fine. */
function oracle(bytes: Buffer): 'unreadable' | 'unparsable' | 'fine' {
  if (bytes.includes(0) || !isUtf8(bytes) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return 'unreadable';
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  try {
    const docs = parseAllDocuments(text, { merge: true, uniqueKeys: true, logLevel: 'silent' });
    if (!Array.isArray(docs)) return 'fine';
    return docs.some((d) => d.errors.length > 0) ? 'unparsable' : 'fine';
  } catch {
    return 'unparsable';
  }
}

/** Runs the invariants on one input in a work directory of its own (one per worker). */
export class CaseChecker {
  private baseline: string[] = [];
  private readonly goodFiles = GOOD_FILES.map((f) => `good/${f}`);

  constructor(
    readonly workDir: string,
    readonly spawnEvery: number,
    readonly orderEvery: number,
  ) {}

  spawned = 0;

  async init(): Promise<void> {
    mkdirSync(path.join(this.workDir, 'good'), { recursive: true });
    mkdirSync(path.join(this.workDir, 'case'), { recursive: true });
    for (const name of GOOD_FILES) writeFileSync(path.join(this.workDir, 'good', name), readFileSync(path.join(PROJECT_ROOT, 'test', 'hostile', 'fixtures', name)));
    const alone = await this.lint(['good']);
    this.baseline = alone.findings.map(key);
    if (this.baseline.length < 3) throw new Error(`the good directory should have findings, got ${this.baseline.length}`);
  }

  /** The default run lets every parsed document go (lazy positions); the full run keeps them: both must agree. */
  private lint(paths: string[], parseAllDocuments = false): Promise<LintResult> {
    return lint({ paths, cwd: this.workDir, root: this.workDir, parseAllDocuments, ...(parseAllDocuments ? {} : { lazyPositionsAfterBytes: 0 }) });
  }

  async check(index: number, bytes: Buffer): Promise<{ failures: string[]; ms: number; verdict: ReturnType<typeof oracle> }> {
    const failures: string[] = [];
    writeFileSync(path.join(this.workDir, INPUT), bytes);
    const started = performance.now();
    let result: LintResult;
    try {
      result = await this.lint(['good', INPUT]);
    } catch (error) {
      return { failures: [`lint() threw: ${(error as Error)?.stack ?? String(error)}`], ms: performance.now() - started, verdict: oracle(bytes) };
    }
    const ms = performance.now() - started;
    const kib = bytes.length / 1024;
    if (ms > 10_000 + 100 * kib) failures.push(`slow: ${Math.round(ms)} ms for ${kib.toFixed(1)} KiB`);
    if (result.fatal) failures.push(`fatal: ${result.findings.filter((f) => f.ruleId === 'pvlint/rule-crash' || f.ruleId === 'pvlint/render').map((f) => f.message).join('; ')}`);
    for (const f of result.findings.filter((f) => f.ruleId === 'pvlint/rule-crash')) failures.push(`rule crash: ${f.message}`);
    const good = result.findings.filter((f) => this.goodFiles.includes(f.location.file)).map(key);
    if (JSON.stringify(good) !== JSON.stringify(this.baseline)) failures.push(`good findings changed:\n  ${good.join('\n  ')}\nvs\n  ${this.baseline.join('\n  ')}`);
    const text = bytes.toString('utf8');
    const lineCount = text.split('\n').length;
    for (const f of result.findings) {
      if (!this.goodFiles.includes(f.location.file) && f.location.file !== INPUT) failures.push(`finding in an unexpected file: ${key(f)}`);
      const r = f.location.region;
      if (f.location.file === INPUT && (r.startLine < 1 || r.startLine > lineCount + 1 || r.startColumn < 1 || r.endLine < r.startLine)) failures.push(`finding outside the file: ${key(f)}`);
    }
    // The kind pre-scan skips documents of kinds no rule reads, syntax errors and all; with parseAllDocuments every
    // document is parsed. The two runs may differ only by syntax and limit findings of skipped documents.
    const full = await this.lint(['good', INPUT], true).catch((error) => error as Error);
    if (full instanceof Error) return { failures: [...failures, `lint({ parseAllDocuments }) threw: ${full.stack ?? full.message}`], ms, verdict: oracle(bytes) };
    const fullKeys = new Set(full.findings.map(scanKey));
    const defaultKeys = new Set(result.findings.map(scanKey));
    for (const k of defaultKeys) if (!fullKeys.has(k)) failures.push(`a finding only with the kind pre-scan: ${k}`);
    for (const f of full.findings) {
      if (!defaultKeys.has(scanKey(f)) && f.ruleId !== 'pvlint/parse' && f.ruleId !== 'pvlint/limit') failures.push(`the kind pre-scan lost a finding: ${key(f)}`);
    }
    if (full.stats.documents !== result.stats.documents) failures.push(`document counts differ: ${result.stats.documents} with the pre-scan, ${full.stats.documents} without`);
    const own = full.findings.filter((f) => f.location.file === INPUT);
    const verdict = oracle(bytes);
    if (verdict === 'unreadable' && !own.some((f) => f.ruleId === 'pvlint/read')) failures.push('unreadable input without a pvlint/read finding');
    // A template for another tool (Go/sed markers where YAML structure belongs) is counted as one, not parsed.
    const template = full.templateFiles?.includes(INPUT) ?? false;
    if (verdict === 'unparsable' && !template && !own.some((f) => ['pvlint/parse', 'pvlint/limit', 'pvlint/read'].includes(f.ruleId))) failures.push('unparsable input without a pvlint/parse or pvlint/limit finding (parseAllDocuments)');
    if (this.orderEvery > 0 && index % this.orderEvery === 0) {
      const reversed = await this.lint([INPUT, 'good']).catch((error) => error as Error);
      if (reversed instanceof Error) failures.push(`lint() threw with the arguments reversed: ${reversed.message}`);
      else if (JSON.stringify(reversed.findings) !== JSON.stringify(result.findings)) failures.push('findings differ when the arguments are reversed');
    }
    if (this.spawnEvery > 0 && index % this.spawnEvery === 0) failures.push(...this.spawnCheck(result));
    return { failures, ms, verdict };
  }

  private spawnCheck(result: LintResult): string[] {
    this.spawned++;
    const run = spawnSync(process.execPath, [BIN, '--no-config', '--format', 'json', 'good', INPUT], {
      cwd: this.workDir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 120_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    const failures: string[] = [];
    if (run.status === null) return [`binary did not finish (${run.signal ?? run.error?.message})`];
    if (![0, 1, 2].includes(run.status)) failures.push(`binary exited ${run.status}`);
    if (/^\s+at .+:\d+:\d+\)?$/m.test(run.stderr) || /internal error/.test(run.stderr)) failures.push(`stack trace or internal error on stderr: ${run.stderr.slice(0, 500)}`);
    const expectedCode = result.fatal ? 2 : result.findings.some((f) => f.severity === 'error') ? 1 : 0;
    if (run.status !== expectedCode) failures.push(`binary exited ${run.status}, in-process result says ${expectedCode}`);
    try {
      const report = JSON.parse(run.stdout);
      const cli = report.findings.map((f: any) => `${f.ruleId}|${f.location.file}:${f.location.startLine}:${f.location.startColumn}|${f.message}`);
      const inProcess = result.findings.map((f) => `${f.ruleId}|${f.location.file}:${f.location.region.startLine}:${f.location.region.startColumn}|${f.message}`);
      if (JSON.stringify(cli) !== JSON.stringify(inProcess)) failures.push(`binary and lint() disagree:\n  ${cli.join('\n  ')}\nvs\n  ${inProcess.join('\n  ')}`);
    } catch (error) {
      failures.push(`binary printed no JSON report: ${(error as Error).message}; stderr: ${run.stderr.slice(0, 300)}`);
    }
    return failures;
  }
}

interface WorkerMessage {
  type: 'start' | 'done' | 'ready' | 'error';
  index?: number;
  outcome?: CaseOutcome;
  spawned?: number;
  message?: string;
}

/** Runs cases [start, start + count) in worker threads; a case that hangs is recorded and its worker replaced. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const start = options.start ?? 0;
  const end = start + options.count;
  const seeds = loadSeeds(options.corpus, options.maxSeedBytes);
  const workers = Math.max(1, Math.min(options.workers ?? 1, options.count));
  const hangMs = options.hangMs ?? 120_000;
  const outcomes: CaseOutcome[] = [];
  let spawned = 0;
  const began = performance.now();
  // Cases are dealt out by index: worker w takes start + w, start + w + workers, ...
  const queue = Array.from({ length: options.count }, (_, i) => start + i);
  let next = 0;
  const takeBatch = (): number[] => {
    const batch = queue.slice(next, next + 100);
    next += batch.length;
    return batch;
  };
  const runWorker = async (): Promise<void> => {
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-fuzz-'));
    try {
      for (let batch = takeBatch(); batch.length > 0; batch = takeBatch()) {
        let pending = [...batch];
        while (pending.length > 0) {
          pending = await runBatch(pending, workDir);
        }
      }
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };
  /** Runs the batch in one worker; returns the indices still to run when the worker had to be stopped. */
  const runBatch = (batch: number[], workDir: string): Promise<number[]> =>
    new Promise((resolve) => {
      const worker = new Worker(new URL('./worker.js', import.meta.url), {
        workerData: { seed: options.seed, indices: batch, seeds, workDir, spawnEvery: options.spawnEvery ?? 0, orderEvery: options.orderEvery ?? 1 },
      });
      let current: number | undefined;
      const finished = new Set<number>();
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          const index = current ?? batch.find((i) => !finished.has(i))!;
          const { source, bytes, mutations } = makeCase(seeds, options.seed, index);
          outcomes.push({ index, source, mutations, bytes: bytes.length, ms: hangMs, failures: [`hang: no result within ${hangMs / 1000} s`] });
          finished.add(index);
          void worker.terminate();
          resolve(batch.filter((i) => !finished.has(i)));
        }, hangMs);
      };
      arm();
      worker.on('message', (message: WorkerMessage) => {
        if (message.type === 'start') {
          current = message.index;
          arm();
        } else if (message.type === 'done' && message.outcome) {
          outcomes.push(message.outcome);
          finished.add(message.outcome.index);
          spawned += message.spawned ?? 0;
          options.onProgress?.(outcomes.length, options.count, outcomes.filter((o) => o.failures.length > 0).length);
        }
      });
      worker.on('error', (error) => {
        // The worker itself died (out of memory, a crash): the case it was on fails, the others run again.
        const index = current ?? batch.find((i) => !finished.has(i));
        if (index !== undefined && !finished.has(index)) {
          const { source, bytes, mutations } = makeCase(seeds, options.seed, index);
          outcomes.push({ index, source, mutations, bytes: bytes.length, ms: 0, failures: [`worker died: ${error.message}`] });
          finished.add(index);
        }
      });
      worker.on('exit', () => {
        if (timer) clearTimeout(timer);
        resolve(batch.filter((i) => !finished.has(i)));
      });
    });
  await Promise.all(Array.from({ length: workers }, runWorker));
  outcomes.sort((a, b) => a.index - b.index);
  const failures = outcomes.filter((o) => o.failures.length > 0);
  const worstMsPerKiB = Math.max(0, ...outcomes.map((o) => o.ms / Math.max(1, o.bytes / 1024)));
  return { seed: options.seed, start, count: end - start, seeds: seeds.length, outcomes, failures, ms: performance.now() - began, spawned, worstMsPerKiB };
}
