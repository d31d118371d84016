// Where do worker threads for parsing pay off? A standalone probe (not part of `npm run bench` or the tests).
//
// Compares, on the same file lists:
//   main  read + parseResources(file, limits, kindPlan(BUILTIN_RULES)) for every file on the main thread (pvlint today);
//   lean  the same on the main thread, keeping only the plain records a worker would post (the yaml Documents are
//         dropped file by file): separates what workers save by not keeping yaml nodes alive from what they save
//         by running in parallel;
//   wN    N worker threads, each given a byte-balanced share of the files, doing the same and posting back plain
//         records (bench/worker-probe-worker.ts); the clock includes starting the workers and their imports.
// and the fixed cost of one worker: bare, and importing the parse modules. Before and after each input, the parallel
// capacity the machine has left (how many cores two busy threads get) says how much a second worker could get.
//
// Every sample is a fresh child process (so JIT and heap start alike), configurations alternate within a
// repetition in a rotated order (a noisy neighbour hits all of them), and the tables show medians. The clock runs
// inside the child from just before the files are read to the last result being on the main thread: node start-up
// and the parse modules' import on the main thread are outside it, since pvlint pays both either way. CPU is
// process.cpuUsage() (user + system of every thread of the process).
//
//   npm run build && node dist/bench/worker-probe.js [--reps 5] [--sizes 100,300,1000,3000,10000,30000]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { splitDocuments } from '../src/load/document-scan.js';
import { resolveLimits } from '../src/load/limits.js';
import { parseResources, type KindPlan, type ParsedFile } from '../src/load/parse-resources.js';
import { readManifest } from '../src/load/read-source.js';
import { makeSourceFile } from '../src/load/source-file.js';
import type { SourceFile } from '../src/types.js';
import { manifestFiles } from './walk.js';
import { toFileResult, type FileResult, type PlainPlan, type WorkerJob, type WorkerMessage } from './worker-probe-worker.js';

const SELF = fileURLToPath(import.meta.url);
const WORKER_URL = new URL('./worker-probe-worker.js', import.meta.url);
const BATCH_CHARS = 1 << 20;
const RUN_CONFIGS = ['main', 'lean', 'w1', 'w2', 'w3'] as const;
const STARTUP_CONFIGS = ['start-bare', 'start'] as const;

interface ListedFile {
  path: string;
  bytes: number;
}

/** What a child prints: its own measurement of the parse phase, and what it produced (to check the variants agree). */
interface Sample {
  config: string;
  wallMs: number;
  cpuMs: number;
  /** Per worker, ms from the first `new Worker` to its `ready` (parse modules imported). */
  readyMs: number[];
  files: number;
  documents: number;
  parsed: number;
  resources: number;
  digest: string;
  maxRssMb: number;
  /** Spawn to exit, measured by the parent: node start-up and imports included. */
  processMs?: number;
}

// ---------------------------------------------------------------- child: one measurement

/** Longest-processing-time split: the biggest files first, each to the share with the fewest bytes so far. */
function balance(files: ListedFile[], n: number): { index: number; path: string }[][] {
  const shares = Array.from({ length: n }, () => ({ bytes: 0, files: [] as { index: number; path: string }[] }));
  const order = files.map((f, index) => ({ ...f, index })).sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  for (const f of order) {
    const share = shares.reduce((min, s) => (s.bytes < min.bytes ? s : min));
    share.bytes += f.bytes;
    share.files.push({ index: f.index, path: f.path });
  }
  // Reading order within a share stays the sorted-path order, as on the main thread.
  return shares.map((s) => s.files.sort((a, b) => a.index - b.index));
}

async function onMainThread(files: ListedFile[], plan: KindPlan | undefined): Promise<ParsedFile[]> {
  const limits = resolveLimits(undefined);
  const budget = { limits, used: 0 };
  // Kept to the end, as pvlint keeps every Resource (and its yaml node) for the whole run: the GC pays for it.
  const kept: ParsedFile[] = [];
  for (const f of files) {
    const read = await readManifest(f.path, f.path, budget);
    if ('file' in read) kept.push(parseResources(read.file, limits, plan));
  }
  return kept;
}

async function onMainThreadLean(files: ListedFile[], plan: KindPlan | undefined): Promise<WorkerRun> {
  const limits = resolveLimits(undefined);
  const budget = { limits, used: 0 };
  const results: FileResult[] = [];
  const sources: SourceFile[] = [];
  for (const [index, f] of files.entries()) {
    const read = await readManifest(f.path, f.path, budget);
    if (!('file' in read)) continue;
    results.push(toFileResult(index, read.file.text, parseResources(read.file, limits, plan)));
    sources.push(read.file);
  }
  return { results, sources, readyMs: [] };
}

interface WorkerRun {
  results: FileResult[];
  sources: SourceFile[];
  readyMs: number[];
}

function inWorkers(files: ListedFile[], n: number, plan: PlainPlan | null, bare = false): Promise<WorkerRun> {
  const results: FileResult[] = new Array(files.length);
  const sources: SourceFile[] = new Array(files.length);
  const readyMs: number[] = [];
  const t0 = performance.now();
  // A worker per non-empty share, but always one: with no files the run measures a worker's fixed cost.
  const shares = n === 1 ? [files.map((f, index) => ({ index, path: f.path }))] : balance(files, n).filter((s) => s.length > 0);
  return Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolve, reject) => {
          const job: WorkerJob = { files: share, plan, batchChars: BATCH_CHARS, bare };
          const worker = new Worker(WORKER_URL, { workerData: job });
          worker.on('message', (message: WorkerMessage) => {
            if (message.type === 'ready') readyMs.push(performance.now() - t0);
            else if (message.type === 'batch') {
              for (const result of message.files) {
                results[result.index] = result;
                // The main thread needs the line index to place findings; a worker cannot send its LineCounter.
                if ('text' in result) sources[result.index] = makeSourceFile(files[result.index].path, files[result.index].path, result.text);
              }
            }
          });
          worker.on('error', reject);
          worker.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with ${code}`))));
        }),
    ),
  ).then(() => ({ results, sources, readyMs }));
}

/** Resource identities, document indices and objects in file order: equal digests mean the variants produced the same. */
function digestOf(entries: Iterable<{ kind: string; namespace: string | undefined; name: string; docIndex: number; object: unknown }>): string {
  const hash = createHash('sha256');
  for (const e of entries) hash.update(`${e.kind}/${e.namespace ?? ''}/${e.name}#${e.docIndex}\n${JSON.stringify(e.object)}\n`);
  return hash.digest('hex').slice(0, 12);
}

async function child(config: string, listFile: string, planArg: string): Promise<void> {
  const files: ListedFile[] = readFileSync(listFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [p, bytes] = line.split('\t');
      return { path: p, bytes: Number(bytes) };
    });
  const plain = JSON.parse(planArg) as PlainPlan | null;
  const plan = plain ? { parse: new Set(plain.parse), defer: new Set(plain.defer) } : undefined;

  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let main: ParsedFile[] | undefined;
  let run: WorkerRun | undefined;
  if (config === 'main') main = await onMainThread(files, plan);
  else if (config === 'lean') run = await onMainThreadLean(files, plan);
  else if (config === 'start-bare') run = await inWorkers([], 1, plain, true);
  else if (config === 'start') run = await inWorkers([], 1, plain);
  else if (/^w\d+$/.test(config)) run = await inWorkers(files, Number(config.slice(1)), plain);
  else throw new Error(`unknown configuration ${config}`);
  const c1 = process.cpuUsage(c0);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;

  const sample: Sample = {
    config, wallMs, cpuMs: (c1.user + c1.system) / 1000, readyMs: run?.readyMs ?? [],
    files: files.length, documents: 0, parsed: 0, resources: 0, digest: '', maxRssMb: 0,
  };
  if (main) {
    for (const p of main) {
      sample.documents += p.documentCount;
      sample.parsed += p.documentCount - p.skipped;
      sample.resources += p.resources.length;
    }
    sample.digest = digestOf(main.flatMap((p) => p.resources));
  } else if (run) {
    const done = run.results.filter((r) => r && 'records' in r) as Extract<FileResult, { records: unknown }>[];
    for (const r of done) {
      sample.documents += r.documentCount;
      sample.parsed += r.documentCount - r.skipped;
      sample.resources += r.records.length;
    }
    sample.digest = digestOf(done.flatMap((r) => r.records));
  }
  sample.maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

// ---------------------------------------------------------------- parent: inputs, rotation, tables

interface Input {
  name: string;
  files: ListedFile[];
  documents: number;
  bytes: number;
}

interface CountedFile extends ListedFile {
  documents: number;
}

const MANIFEST = /\.(?:ya?ml|json)$/;

/** The manifest files under `root`, sorted, `kustomize/` subtrees left out (pvlint renders those, it does not read them loose). */
function listRepo(root: string, skipKustomize: boolean): CountedFile[] {
  return manifestFiles(root)
    .filter((f) => MANIFEST.test(f) && !(skipKustomize && path.relative(root, f).split(path.sep).includes('kustomize')))
    .map((f) => {
      const text = readFileSync(f, 'utf8');
      return { path: f, bytes: Buffer.byteLength(text), documents: splitDocuments(text)?.spans.length ?? 1 };
    });
}

/**
 * About `target` documents of `repo`: every k-th file of the sorted list rather than the first files, so a subset
 * holds the repo's mix (the first files in path order are all `apps/`, the CRDs all sit in `crds/`).
 */
function subset(name: string, repo: CountedFile[], target: number): Input {
  const total = repo.reduce((s, f) => s + f.documents, 0);
  const k = Math.max(1, Math.min(repo.length, Math.round((target / total) * repo.length)));
  const picked = Array.from({ length: k }, (_, i) => repo[Math.floor((i * repo.length) / k)]);
  return { name, files: picked, documents: picked.reduce((s, f) => s + f.documents, 0), bytes: picked.reduce((s, f) => s + f.bytes, 0) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function runChild(config: string, listFile: string, plan: string): Sample {
  const t0 = process.hrtime.bigint();
  const out = spawnSync(process.execPath, [SELF, '--child', config, listFile, plan], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const processMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (out.status !== 0) throw new Error(`${config} on ${listFile} failed (${out.status}): ${out.stderr}`);
  const lines = out.stdout.trim().split('\n');
  return { ...(JSON.parse(lines[lines.length - 1]) as Sample), processMs };
}

/** Every repetition runs each configuration once, the order rotated per repetition. */
function measure(input: Input, configs: readonly string[], reps: number, scratch: string, plan: string): Map<string, Sample[]> {
  const listFile = path.join(scratch, `${input.name}.list`);
  writeFileSync(listFile, input.files.map((f) => `${f.path}\t${f.bytes}\n`).join(''));
  // Page cache warm for every configuration alike.
  for (const f of input.files) readFileSync(f.path);
  const samples = new Map<string, Sample[]>(configs.map((c) => [c, []]));
  for (let rep = 0; rep < reps; rep++) {
    for (let i = 0; i < configs.length; i++) {
      const config = configs[(i + rep) % configs.length];
      const sample = runChild(config, listFile, plan);
      samples.get(config)!.push(sample);
      process.stderr.write(`  ${input.name} rep ${rep + 1} ${config}: ${sample.wallMs.toFixed(0)} ms wall, ${sample.cpuMs.toFixed(0)} ms CPU\n`);
    }
  }
  return samples;
}

/**
 * How many cores two busy threads get right now (CPU time over wall time; 2 = a second core is free, 1 = other
 * sessions take it). CPU over wall rather than a speed-up: it does not depend on how fast each spinner happened to JIT.
 */
async function parallelCapacity(): Promise<number> {
  const spin = `function spin(n) { let x = 0; for (let i = 0; i < n; i++) x = (x + Math.imul(i, 31)) | 0; return x; }
    require('node:worker_threads').parentPort.postMessage(spin(4e8));`;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(Array.from({ length: 2 }, () => new Promise((resolve, reject) => new Worker(spin, { eval: true }).once('message', resolve).once('error', reject))));
  const cpu = process.cpuUsage(c0);
  return (cpu.user + cpu.system) / 1000 / (performance.now() - t0);
}

const fmtS = (ms: number): string => (ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);
const fmtMb = (bytes: number): string => (bytes < 1e6 ? `${(bytes / 1e3).toFixed(0)} KB` : `${(bytes / 1e6).toFixed(1)} MB`);

interface Row {
  input: Input;
  parsed: number;
  resources: number;
  load: [number, number];
  capacity: [number, number];
  medians: Record<string, { wallMs: number; cpuMs: number; rssMb: number }>;
}

/** Where `wall(wN) / wall(main)` first drops below 1 for good, interpolated on a log scale of the x values. */
function breakEven(rows: Row[], config: string, x: (row: Row) => number): number | undefined {
  const ratio = (row: Row) => row.medians[config].wallMs / row.medians.main.wallMs;
  const sorted = [...rows].sort((a, b) => x(a) - x(b));
  for (let i = 0; i < sorted.length; i++) {
    if (!sorted.slice(i).every((row) => ratio(row) < 1)) continue;
    if (i === 0) return x(sorted[0]);
    const [lo, hi] = [sorted[i - 1], sorted[i]];
    const t = (ratio(lo) - 1) / (ratio(lo) - ratio(hi));
    return Math.exp(Math.log(x(lo)) + t * (Math.log(x(hi)) - Math.log(x(lo))));
  }
  return undefined;
}

async function parent(): Promise<void> {
  const tmp = path.join(os.tmpdir(), 'pvlint-bench');
  const { values } = parseArgs({
    options: {
      reps: { type: 'string', default: '5' },
      'startup-reps': { type: 'string', default: '10' },
      sizes: { type: 'string', default: '100,300,1000,3000,10000,30000' },
      configs: { type: 'string', default: RUN_CONFIGS.join(',') },
      small: { type: 'string', default: path.join(tmp, 'gen3-seed42-10k') },
      large: { type: 'string', default: path.join(tmp, 'gen3-seed42-100k') },
      corpus: { type: 'string', default: path.resolve('../shared/corpus') },
      out: { type: 'string', default: path.join(os.tmpdir(), 'pvlint-worker-probe.json') },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`node dist/bench/worker-probe.js [options]
  --reps N            repetitions per input (default 5)
  --startup-reps N    repetitions of the worker start-up measurement (default 10; 0 skips it)
  --sizes LIST        document counts to sample (default 100,300,1000,3000,10000,30000; '' for none)
  --configs LIST      main,lean,w1,w2,w3 (main is always kept: it is the reference)
  --small DIR         synthetic repo for sizes it holds (default $TMPDIR/pvlint-bench/gen3-seed42-10k)
  --large DIR         synthetic repo for larger sizes (default $TMPDIR/pvlint-bench/gen3-seed42-100k)
  --corpus DIR        real repos, measured whole (default ../shared/corpus; skipped when absent or '')
  --out FILE          every sample as JSON (default $TMPDIR/pvlint-worker-probe.json)
The synthetic repos are the bench's: \`npm run bench -- --only 10k,100k --contenders ''\` generates them (and times floor B' once).
`);
    return;
  }
  const reps = Number(values.reps);
  const configs = [...new Set(['main', ...values.configs.split(',').filter(Boolean)])];
  const sizes = values.sizes.split(',').filter(Boolean).map(Number);
  const { kindPlan } = await import('../src/engine/relevant-kinds.js');
  const { BUILTIN_RULES, CHANGE_RULES } = await import('../src/registry.js');
  const kindPlanned = kindPlan(BUILTIN_RULES, CHANGE_RULES);
  const plan = JSON.stringify(kindPlanned ? { parse: [...kindPlanned.parse].sort(), defer: [...(kindPlanned.defer ?? [])].sort() } : null);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'pvlint-worker-probe-'));

  const report: Record<string, unknown> = {
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, memoryGb: os.totalmem() / 2 ** 30 },
    options: values,
    plan: JSON.parse(plan),
  };

  if (Number(values['startup-reps']) > 0) {
    process.stderr.write('worker start-up\n');
    const empty: Input = { name: 'startup', files: [], documents: 0, bytes: 0 };
    const samples = measure(empty, STARTUP_CONFIGS, Number(values['startup-reps']), scratch, plan);
    const startup = Object.fromEntries(
      STARTUP_CONFIGS.map((c) => {
        const s = samples.get(c)!;
        return [c, { readyMs: median(s.map((x) => x.readyMs[0])), wallMs: median(s.map((x) => x.wallMs)), cpuMs: median(s.map((x) => x.cpuMs)), samples: s }];
      }),
    );
    report.startup = startup;
    process.stdout.write(`\n| worker | ready (median) | until exited: wall | CPU |\n|---|---|---|---|\n`);
    for (const c of STARTUP_CONFIGS) {
      const s = startup[c];
      const label = c === 'start' ? 'importing the parse modules' : 'bare (imports nothing)';
      process.stdout.write(`| ${label} | ${s.readyMs.toFixed(1)} ms | ${s.wallMs.toFixed(1)} ms | ${s.cpuMs.toFixed(1)} ms |\n`);
    }
  }

  const inputs: Input[] = [];
  if (sizes.length > 0) {
    if (!existsSync(values.small)) throw new Error(`${values.small} is missing: generate it with: npm run bench -- --only 10k --contenders ''`);
    const small = listRepo(values.small, true);
    const smallDocs = small.reduce((s, f) => s + f.documents, 0);
    let large: CountedFile[] | undefined;
    for (const size of sizes) {
      // A size the small repo holds comes from it; larger ones need the 100k repo.
      if (size <= smallDocs * 1.05) inputs.push(subset(`${size}`, small, size));
      else {
        if (!existsSync(values.large)) throw new Error(`${values.large} is missing (needed for ${size} documents)`);
        large ??= listRepo(values.large, true);
        inputs.push(subset(`${size}`, large, size));
      }
    }
  }
  if (values.corpus !== '' && existsSync(values.corpus)) {
    const files = listRepo(values.corpus, false);
    inputs.push({ name: 'corpus', files, documents: files.reduce((s, f) => s + f.documents, 0), bytes: files.reduce((s, f) => s + f.bytes, 0) });
  } else {
    process.stderr.write(`no corpus at ${values.corpus}: skipped\n`);
  }

  const rows: Row[] = [];
  const inputReports: unknown[] = [];
  report.inputs = inputReports;
  for (const input of inputs) {
    process.stderr.write(`${input.name}: ${input.files.length} files, ${input.documents} documents, ${fmtMb(input.bytes)}\n`);
    const before = os.loadavg()[0];
    const capacity = await parallelCapacity();
    process.stderr.write(`  two busy threads got ${capacity.toFixed(2)} cores\n`);
    const samples = measure(input, configs, reps, scratch, plan);
    const after = os.loadavg()[0];
    const capacityAfter = await parallelCapacity();
    const first = samples.get('main')![0];
    for (const [config, list] of samples) {
      const bad = list.find((s) => s.digest !== first.digest || s.resources !== first.resources);
      if (bad) throw new Error(`${config} on ${input.name} produced other resources than main (${bad.digest} vs ${first.digest})`);
    }
    const medians = Object.fromEntries(
      [...samples].map(([c, s]) => [c, { wallMs: median(s.map((x) => x.wallMs)), cpuMs: median(s.map((x) => x.cpuMs)), rssMb: median(s.map((x) => x.maxRssMb)) }]),
    );
    rows.push({ input, parsed: first.parsed, resources: first.resources, load: [before, after], capacity: [capacity, capacityAfter], medians });
    inputReports.push({ name: input.name, files: input.files.length, documents: input.documents, parsed: first.parsed, bytes: input.bytes, load: [before, after], capacity: [capacity, capacityAfter], medians, samples: Object.fromEntries(samples) });
  }

  const others = configs.filter((c) => c !== 'main');
  const workers = others.filter((c) => c !== 'lean');
  const head = ['input', 'files', 'docs', 'parsed docs', 'bytes', 'main wall / CPU', ...others.map((c) => `${c} wall / CPU (÷ main)`), 'load', 'cores for 2 threads (before, after)'];
  process.stdout.write(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|\n`);
  for (const row of rows) {
    const m = row.medians.main;
    const cells = [
      row.input.name, `${row.input.files.length}`, `${row.input.documents}`, `${row.parsed}`, fmtMb(row.input.bytes),
      `${fmtS(m.wallMs)} / ${fmtS(m.cpuMs)}`,
      ...others.map((c) => {
        const w = row.medians[c];
        return `${fmtS(w.wallMs)} / ${fmtS(w.cpuMs)} (${(w.wallMs / m.wallMs).toFixed(2)} / ${(w.cpuMs / m.cpuMs).toFixed(2)})`;
      }),
      `${row.load[0].toFixed(1)}–${row.load[1].toFixed(1)}`,
      `${row.capacity[0].toFixed(2)}, ${row.capacity[1].toFixed(2)}`,
    ];
    process.stdout.write(`| ${cells.join(' | ')} |\n`);
  }
  const synthetic = rows.filter((r) => r.input.name !== 'corpus');
  if (synthetic.length > 1) {
    process.stdout.write('\nBreak-even (wall, synthetic inputs; where wN / main stays below 1):\n');
    const breaks: Record<string, { parsedDocs?: number; bytes?: number }> = {};
    for (const c of workers) {
      const docs = breakEven(synthetic, c, (r) => r.parsed);
      const bytes = breakEven(synthetic, c, (r) => r.input.bytes);
      breaks[c] = { parsedDocs: docs, bytes };
      process.stdout.write(`  ${c}: ${docs === undefined ? 'not reached' : `≈ ${Math.round(docs)} parsed documents, ≈ ${fmtMb(bytes ?? 0)}`}\n`);
    }
    report.breakEven = breaks;
  }
  writeFileSync(values.out, `${JSON.stringify(report, null, 1)}\n`);
  process.stderr.write(`samples written to ${values.out}\n`);
  rmSync(scratch, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], process.argv[5]);
else await parent();
