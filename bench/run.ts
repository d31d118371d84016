// `npm run bench`: pvlint against two floors, the relevant-documents floor and a peer, in one run.
// See bench/README.md. Every contender is its own child process (timed start to exit by this process,
// peak RSS from `/usr/bin/time`, else from the child's own report); contenders alternate round-robin
// within each repetition, and the table shows medians.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateRepo, type GeneratedRepo } from './generate.js';
import { manifestFiles } from './walk.js';

const HERE = path.dirname(fileURLToPath(import.meta.url)); // dist/bench
const REPO = path.resolve(HERE, '..', '..');
const GENERATOR_VERSION = 3;
const PEER = '@monokle/validation';
const PEER_VERSION = '0.33.0';
const SIZES: Record<string, number> = { '1k': 1_000, '10k': 10_000, '100k': 100_000 };
const ALL_INPUTS = ['startup', 'plain', '1k', '10k', '100k', 'corpus', 'gitops'];
/** The plain-manifest input: loose manifests only (no Kustomize root, no chart), ~3,000 documents, from the corpus. */
const PLAIN_REPOS = ['kubernetes__examples', 'awslabs__data-on-eks', 'kubernetes-sigs__azuredisk-csi-driver'];

interface Sample {
  /** Wall time, spawn to exit. */
  seconds: number;
  /** User + system CPU time of the process and its children (less sensitive than wall time to a busy machine). */
  cpuSeconds: number | null;
  rssMb: number | null;
  exitCode: number | null;
  status: 'ok' | 'timeout' | 'oom' | 'error';
  note?: string;
  /** gitops: renderer processes (kubectl, kustomize, helm) the run started, and their summed wall time. */
  renders?: number;
  renderSeconds?: number;
}

interface ContenderResult {
  name: string;
  description: string;
  command: string;
  samples: Sample[];
  medianSeconds: number | null;
  medianCpuSeconds: number | null;
  peakRssMb: number | null;
  status: string;
  ratioToReference: number | null;
  /**
   * The median over repetitions of this run's time divided by the reference's in the same repetition (they
   * alternate within a repetition, so a busy spell hits both): steadier than the ratio of medians on a shared machine.
   */
  pairRatioToReference?: number | null;
  pairCpuRatioToReference?: number | null;
  /** gitops: median renders and render seconds per run. */
  medianRenders?: number | null;
  medianRenderSeconds?: number | null;
}

interface Contender {
  name: string;
  description: string;
  command: string;
  run: () => Promise<Sample>;
  /** Untimed, once before the first repetition (e.g. priming a cache); returns a note for the results when it failed. */
  prepare?: () => Promise<string | undefined>;
  /** Contenders that run whenever this one runs (`--contenders`): the denominators of its targets. */
  companions?: string[];
  /** Set after a timeout, an out-of-memory or a first run slower than --slow: no more repetitions. */
  stopped?: boolean;
}

const { values: opts } = parseArgs({
  options: {
    only: { type: 'string' },
    contenders: { type: 'string' },
    reps: { type: 'string', default: '5' },
    seed: { type: 'string', default: '42' },
    timeout: { type: 'string', default: '600' },
    'peer-timeout': { type: 'string', default: '300' },
    'peer-heap': { type: 'string', default: '4096' },
    slow: { type: 'string', default: '60' },
    corpus: { type: 'string', default: process.env.PVLINT_BENCH_CORPUS ?? path.resolve(REPO, '..', 'shared', 'corpus') },
    gitops: { type: 'string', default: path.join(REPO, 'test', 'fixtures', 'gitops') },
    out: { type: 'string', default: path.join(REPO, 'bench', 'results.json') },
    tmp: { type: 'string', default: path.join(os.tmpdir(), 'pvlint-bench') },
    'peer-dir': { type: 'string', default: process.env.PVLINT_BENCH_PEER_DIR ?? path.join(os.homedir(), '.cache', 'pvlint-bench', `peer-${PEER_VERSION}`) },
    'no-peer': { type: 'boolean', default: false },
    regen: { type: 'boolean', default: false },
    merge: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
  allowPositionals: false,
});

if (opts.help) {
  process.stdout.write(`npm run bench -- [options]
  --only LIST        inputs, comma-separated: ${ALL_INPUTS.join(',')} (default: all)
  --contenders LIST  only contenders whose name contains one of these words, comma-separated (e.g. peer,pvlint)
                     the reference (floor B' / node -e 0) always runs, so ratios stay defined
                     (cache: the two --cache contenders, with pvlint (text), the denominator of their target)
  --reps N           repetitions per contender (default 5)
  --seed N           generator seed (default 42)
  --timeout S        per-run timeout in seconds (default 600)
  --peer-timeout S   the peer's timeout in seconds (default 300; it is super-linear)
  --peer-heap MB     --max-old-space-size for the peer (default 4096)
  --slow S           a contender whose first run takes longer than S seconds is not repeated (default 60)
  --corpus DIR       the real-world corpus (default $PVLINT_BENCH_CORPUS, else ../shared/corpus; corpus and plain
                     are skipped when it is absent); plain: the loose manifests of ${PLAIN_REPOS.join(', ')}
  --gitops DIR       GitOps fixtures, one repository per directory (default test/fixtures/gitops; skipped when absent)
  --out FILE         results file (default bench/results.json; other inputs already in it are kept)
  --tmp DIR          where generated repos live (default $TMPDIR/pvlint-bench; reused across runs)
  --peer-dir DIR     where ${PEER}@${PEER_VERSION} is installed (default ~/.cache/pvlint-bench/peer-${PEER_VERSION})
  --no-peer          skip the peer
  --regen            regenerate the synthetic repos
  --merge FILE       also take the inputs of another run's results file into --out (with --only '' to measure nothing)
`);
  process.exit(0);
}

const reps = Math.max(1, Number(opts.reps));
const timeoutMs = Number(opts.timeout) * 1000;
const slowSeconds = Number(opts.slow);
const inputs = (opts.only ?? ALL_INPUTS.join(',')).split(',').map((s) => s.trim()).filter(Boolean);
for (const input of inputs) {
  if (!ALL_INPUTS.includes(input)) {
    process.stderr.write(`bench: unknown input "${input}" (expected ${ALL_INPUTS.join(', ')})\n`);
    process.exit(2);
  }
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'pvlint-bench-run-'));
/** Files a contender has changed for one run (path -> original bytes, journal): put back on exit, whatever ended the run. */
const touched = new Map<string, { original: Buffer; journal: string }>();
function restoreTouched(): void {
  for (const [file, { original, journal }] of touched) {
    try {
      writeFileSync(file, original);
      rmSync(journal, { force: true });
    } catch {
      /* nothing more to do on the way out */
    }
  }
  touched.clear();
}
process.on('exit', () => {
  restoreTouched();
  rmSync(scratch, { recursive: true, force: true });
});
// Ctrl-C / kill: leave through 'exit', so the handler above runs. (A SIGKILL leaves a journal: see touchJournal.)
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) process.on(signal, () => process.exit(code));

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** pvlint exits 2 on a render failure (e.g. a remote base without network): timed all the same. */
function usableSample(contender: string, s: Sample): boolean {
  return s.status === 'ok' || (s.status === 'error' && s.exitCode === 2 && contender.startsWith('pvlint'));
}

let runCounter = 0;

/**
 * Runs one command as its own process group under `/usr/bin/time` and measures wall time here, from spawn
 * to exit. A run past the timeout is killed (the whole group); a V8 heap exhaustion is reported as "oom".
 */
function runChild(command: string, args: readonly string[], options: { cwd?: string; okCodes?: readonly number[]; stdout?: 'null' | 'pipe'; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<Sample> {
  const okCodes = options.okCodes ?? [0];
  const timeFile = path.join(scratch, `time-${runCounter++}.txt`);
  const argv = TIME ? [TIME, '-f', '%M %U %S', '-o', timeFile, command, ...args] : [command, ...args];
  const devnull = options.stdout === 'pipe' ? undefined : openSync('/dev/null', 'w');
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      detached: true,
      stdio: ['ignore', devnull ?? 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-4096);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8192);
    });
    let timedOut = false;
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      if (!TIME) return killGroup();
      // Kill what /usr/bin/time runs, so that time still reports the CPU and RSS it used; then the rest of the group.
      try {
        for (const pid of execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
      } catch {
        /* no pgrep, or nothing left */
      }
      setTimeout(killGroup, 2000).unref();
    }, options.timeoutMs ?? timeoutMs);
    child.on('close', (code, signal) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      clearTimeout(timer);
      if (devnull !== undefined) closeSync(devnull);
      let rssKb: number | undefined;
      let cpuSeconds: number | null = null;
      if (TIME && existsSync(timeFile)) {
        const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
        const [rss, user, sys] = lines[lines.length - 1].split(' ').map(Number);
        if (Number.isFinite(rss) && rss > 0) rssKb = rss;
        if (Number.isFinite(user) && Number.isFinite(sys)) cpuSeconds = Math.round((user + sys) * 100) / 100;
      }
      if (rssKb === undefined) {
        const line = stdout.trim().split('\n').pop();
        try {
          rssKb = JSON.parse(line ?? '').maxRssKb;
        } catch {
          /* no report */
        }
      }
      const rssMb = rssKb === undefined ? null : Math.round(rssKb / 102.4) / 10;
      // /usr/bin/time exits 128+N when the child died of signal N.
      const oom = /heap out of memory|Allocation failed|Reached heap limit/.test(stderr);
      const status: Sample['status'] = timedOut ? 'timeout' : oom ? 'oom' : code !== null && okCodes.includes(code) ? 'ok' : 'error';
      const note = status === 'error' ? `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300)}` : undefined;
      resolve({ seconds: Math.round(seconds * 1e4) / 1e4, cpuSeconds, rssMb, exitCode: code, status, ...(note ? { note } : {}) });
    });
  });
}

/** Paths in commands as a reader can rerun them: the pvlint snapshot as dist/..., bench scripts and inputs as they are. */
function displayArg(arg: string): string {
  if (!path.isAbsolute(arg)) return arg;
  if (PVLINT && arg.startsWith(PVLINT + path.sep)) return path.relative(PVLINT, arg);
  return arg.startsWith(REPO + path.sep) ? path.relative(REPO, arg) : arg;
}

function nodeContender(name: string, description: string, script: string, args: readonly string[], extra: { nodeFlags?: string[]; okCodes?: number[]; cwd?: string; stdout?: 'null' | 'pipe'; timeoutMs?: number } = {}): Contender {
  const argv = [...(extra.nodeFlags ?? []), script, ...args];
  return {
    name,
    description,
    command: `node ${argv.map(displayArg).join(' ')}`,
    run: () => runChild(process.execPath, argv, { cwd: extra.cwd, okCodes: extra.okCodes, stdout: extra.stdout ?? 'pipe', timeoutMs: extra.timeoutMs }),
  };
}

function kustomizeArgv(): string[] | undefined {
  const has = (cmd: string): boolean => {
    try {
      execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (has('kustomize')) return ['kustomize', 'build'];
  if (has('kubectl')) return ['kubectl', 'kustomize'];
  return undefined;
}

/**
 * Floor R (bench/floor-r.ts): floor B' plus the renders it cannot avoid, run with the same tool and as many at a time as
 * pvlint, overlapped with the parse; the reference of inputs whose roots pvlint renders.
 */
const FLOOR_R_RELEVANT = 'floor R (parse relevant + renders)';
const FLOOR_R_ALL = 'floor R (parse all + renders)';

function floorR(dir: string, kindsFile: string | undefined, roots: readonly string[], argv: readonly string[]): Contender {
  const rootsFile = path.join(scratch, `roots-${path.basename(dir)}.json`);
  writeFileSync(rootsFile, JSON.stringify(roots));
  const renders = `while \`${argv.join(' ')} ROOT\` renders the ${roots.length} roots pvlint renders (one shell loop per core)`;
  return kindsFile
    ? nodeContender(FLOOR_R_RELEVANT, `floor B' on the files outside the roots ${renders}, then the relevant documents of their output`, path.join(HERE, 'floor-r.js'), [dir, '--kinds', kindsFile, '--roots', rootsFile, '--render', argv.join(' ')])
    : nodeContender(FLOOR_R_ALL, `floor B on the files outside the roots ${renders}, then every document of their output`, path.join(HERE, 'floor-r.js'), [dir, '--roots', rootsFile, '--render', argv.join(' ')]);
}

/** Renders every root one after the other, as a user's script would: the sum of the wall times, the largest RSS. */
function kustomizeSum(roots: readonly string[], argv: readonly string[]): Contender {
  return {
    name: 'kustomize (sum)',
    description: `sum of sequential \`${argv.join(' ')} ROOT\` over the ${roots.length} roots pvlint renders`,
    command: `${argv.join(' ')} ROOT  (x${roots.length}, sequential)`,
    run: async () => {
      let seconds = 0;
      let cpu: number | null = null;
      let rss: number | null = null;
      let failed = 0;
      for (const root of roots) {
        const sample = await runChild(argv[0], [...argv.slice(1), root], { stdout: 'null' });
        seconds += sample.seconds;
        if (sample.cpuSeconds !== null) cpu = (cpu ?? 0) + sample.cpuSeconds;
        if (sample.rssMb !== null) rss = Math.max(rss ?? 0, sample.rssMb);
        if (sample.status !== 'ok') failed++;
        if (sample.status === 'timeout') return { ...sample, seconds };
      }
      return { seconds: Math.round(seconds * 1e4) / 1e4, cpuSeconds: cpu === null ? null : Math.round(cpu * 100) / 100, rssMb: rss, exitCode: 0, status: 'ok', ...(failed ? { note: `${failed} of ${roots.length} roots failed to render` } : {}) };
    },
  };
}

/**
 * A private copy of the built pvlint (dist/src, dist/rules, schemas, package.json; node_modules linked), so that a
 * `npm run build` elsewhere during a long run cannot swap files under the contenders. Checked with `--version`.
 */
function snapshotPvlint(): string {
  const root = path.join(scratch, 'pvlint');
  for (let attempt = 1; ; attempt++) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(path.join(root, 'dist'), { recursive: true });
    for (const part of ['dist/src', 'dist/rules', 'schemas', 'package.json']) {
      if (existsSync(path.join(REPO, part))) cpSync(path.join(REPO, part), path.join(root, part), { recursive: true });
    }
    symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    const bin = path.join(root, 'dist', 'src', 'bin.js');
    try {
      execFileSync(process.execPath, [bin, '--version'], { stdio: 'ignore', timeout: 60_000 });
      return root;
    } catch {
      if (attempt >= 5) throw new Error('the copy of dist/ does not run (`node dist/src/bin.js --version` fails): is a build in progress or broken?');
      log('bench: the copy of dist/ does not run yet (a build in progress?); retrying in 10 s');
      execFileSync('sleep', ['10']);
    }
  }
}

const PVLINT = existsSync(path.join(REPO, 'dist', 'src', 'bin.js')) ? snapshotPvlint() : undefined;
const BIN = path.join(PVLINT ?? REPO, 'dist', 'src', 'bin.js');

/** The kinds floor B' parses: pvlint's own answer (src/engine/relevant-kinds.ts), from the snapshot being measured. */
async function relevantKinds(): Promise<string[]> {
  const registry = await import(pathToFileURL(path.join(PVLINT!, 'dist', 'src', 'registry.js')).href);
  const planning = await import(pathToFileURL(path.join(PVLINT!, 'dist', 'src', 'engine', 'relevant-kinds.js')).href);
  return [...(planning.relevantKinds(registry.BUILTIN_RULES, registry.CHANGE_RULES) as ReadonlySet<string>)].sort();
}

function ensurePeer(dir: string): string | undefined {
  const marker = path.join(dir, 'node_modules', '@monokle', 'validation', 'package.json');
  if (existsSync(marker)) return dir;
  log(`bench: installing ${PEER}@${PEER_VERSION} into ${dir} (once; not a pvlint dependency)`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'pvlint-bench-peer', private: true }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', `${PEER}@${PEER_VERSION}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000 });
    return existsSync(marker) ? dir : undefined;
  } catch (error) {
    log(`bench: cannot install ${PEER} (${(error as Error).message.split('\n')[0]}): the peer is skipped`);
    return undefined;
  }
}

interface RepoInfo {
  files: number;
  documents: number | null;
  bytes: number;
  kinds?: Record<string, number>;
  kustomizeRoots: number;
}

function syntheticRepo(label: string): { dir: string; info: RepoInfo; repo: GeneratedRepo } {
  const documents = SIZES[label];
  const dir = path.join(opts.tmp!, `gen${GENERATOR_VERSION}-seed${opts.seed}-${label}`);
  const marker = path.join(dir, '.bench-repo.json');
  recoverTouched(dir);
  if (!opts.regen && existsSync(marker)) {
    const repo = JSON.parse(readFileSync(marker, 'utf8')) as GeneratedRepo;
    log(`bench: ${label}: reusing ${dir}`);
    return { dir, repo, info: { files: repo.files, documents: repo.documents, bytes: repo.bytes, kinds: repo.kinds, kustomizeRoots: repo.kustomizeRoots.length } };
  }
  log(`bench: ${label}: generating ${documents} documents into ${dir} ...`);
  const started = Date.now();
  const repo = generateRepo(dir, documents, Number(opts.seed));
  writeFileSync(marker, JSON.stringify(repo));
  log(`bench: ${label}: ${repo.files} files, ${(repo.bytes / 1e6).toFixed(1)} MB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { dir, repo, info: { files: repo.files, documents: repo.documents, bytes: repo.bytes, kinds: repo.kinds, kustomizeRoots: repo.kustomizeRoots.length } };
}

async function pvlintRoots(dir: string): Promise<string[]> {
  // The roots pvlint itself would render for this directory (roots included by another root are not rendered alone).
  const discover = await import(pathToFileURL(path.join(PVLINT!, 'dist', 'src', 'load', 'discover.js')).href);
  const found = await discover.discover(dir, { cwd: dir });
  return found.kustomizations as string[];
}

interface InputResult {
  name: string;
  path: string;
  measuredAt: string;
  /** The options of the run that measured this input (runs can be merged). */
  runOptions?: { reps: number; slowSeconds: number; timeoutSeconds: number; peerTimeoutSeconds: number; seed: number };
  reference: string;
  loadAverage: { before: number[]; after: number[] };
  repo?: RepoInfo;
  contenders: ContenderResult[];
  notes: string[];
}

async function measure(name: string, dir: string, all: Contender[], reference: string, notes: string[], repo?: RepoInfo): Promise<InputResult> {
  const wanted = opts.contenders?.split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
  const picked = wanted ? all.filter((c) => c.name === reference || wanted.some((w) => c.name.toLowerCase().includes(w))) : all;
  const contenders = all.filter((c) => picked.includes(c) || picked.some((p) => p.companions?.includes(c.name)));
  const before = os.loadavg().map((n) => Math.round(n * 100) / 100);
  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.name, []]));
  log(`bench: ${name}: ${contenders.length} contenders x ${reps} reps, round-robin`);
  const width = Math.max(26, ...contenders.map((c) => c.name.length));
  for (const c of contenders) {
    if (!c.prepare) continue;
    log(`  [prepare] ${c.name} (untimed)`);
    const failure = await c.prepare();
    if (failure) {
      c.stopped = true;
      notes.push(`${c.name}: not measured: ${failure}`);
      log(`  [prepare] ${c.name}: ${failure}`);
    }
  }
  for (let rep = 0; rep < reps; rep++) {
    // Rotate the order each repetition so no contender always runs right after the same neighbour.
    const order = contenders.map((_, i) => contenders[(i + rep) % contenders.length]);
    for (const c of order) {
      if (c.stopped) continue;
      const sample = await c.run();
      samples.get(c.name)!.push(sample);
      log(`  [${rep + 1}/${reps}] ${c.name.padEnd(width)} ${sample.status === 'ok' ? `${sample.seconds.toFixed(3)} s` : sample.status.toUpperCase()}${sample.cpuSeconds !== null ? `  cpu ${sample.cpuSeconds.toFixed(2)} s` : ''}${sample.rssMb !== null ? `  ${sample.rssMb} MB` : ''}${sample.note ? `  (${sample.note})` : ''}`);
      if (sample.status === 'timeout' || sample.status === 'oom') c.stopped = true;
      else if (sample.seconds > slowSeconds && rep === 0) {
        c.stopped = true;
        notes.push(`${c.name}: first run took ${sample.seconds.toFixed(1)} s (> --slow ${slowSeconds} s): not repeated`);
      }
    }
  }
  const results: ContenderResult[] = contenders.map((c) => {
    const list = samples.get(c.name)!;
    const usable = list.filter((s) => usableSample(c.name, s));
    const failed = list.find((s) => s.status === 'timeout' || s.status === 'oom');
    const rss = list.map((s) => s.rssMb).filter((v): v is number => v !== null);
    const status = usable.length > 0 ? (usable.length === list.length ? 'ok' : `ok (${usable.length}/${list.length})`) : failed ? failed.status : list.length === 0 ? 'skipped' : 'error';
    return {
      name: c.name,
      description: c.description,
      command: c.command,
      samples: list,
      medianSeconds: median(usable.map((s) => s.seconds)),
      medianCpuSeconds: median(usable.map((s) => s.cpuSeconds).filter((v): v is number => v !== null)),
      peakRssMb: rss.length ? Math.max(...rss) : null,
      status,
      ratioToReference: null,
    };
  });
  const ref = results.find((r) => r.name === reference)?.medianSeconds ?? null;
  for (const r of results) r.ratioToReference = ref && r.medianSeconds !== null ? Math.round((r.medianSeconds / ref) * 100) / 100 : null;
  const refSamples = samples.get(reference) ?? [];
  for (const r of results) {
    if (r.name === reference || refSamples.length === 0) continue;
    const pairs = (value: (s: Sample) => number | null) => {
      const ratios: number[] = [];
      r.samples.forEach((s, i) => {
        const base = refSamples[i];
        const a = value(s);
        const b = base && value(base);
        if (base && usableSample(r.name, s) && usableSample(reference, base) && a !== null && b) ratios.push(a / b);
      });
      const m = median(ratios);
      return m === null ? null : Math.round(m * 100) / 100;
    };
    r.pairRatioToReference = pairs((s) => s.seconds);
    r.pairCpuRatioToReference = pairs((s) => s.cpuSeconds);
  }
  for (const r of results) {
    const rendered = r.samples.filter((s) => s.renders !== undefined);
    if (rendered.length === 0) continue;
    r.medianRenders = median(rendered.map((s) => s.renders!));
    r.medianRenderSeconds = median(rendered.map((s) => s.renderSeconds!));
  }
  const runOptions = { reps, slowSeconds, timeoutSeconds: timeoutMs / 1000, peerTimeoutSeconds: Number(opts['peer-timeout']), seed: Number(opts.seed) };
  return { name, path: dir, measuredAt: new Date().toISOString(), runOptions, reference, loadAverage: { before, after: os.loadavg().map((n) => Math.round(n * 100) / 100) }, repo, contenders: results, notes };
}

/** Where the file a "1 file changed" run modifies is recorded with its original bytes, outside DIR, while it is modified. */
function touchJournal(dir: string): string {
  return `${dir}.bench-touched.json`;
}

/** Puts back a file a killed bench run (SIGKILL, power loss) left modified. */
function recoverTouched(dir: string): void {
  const journal = touchJournal(dir);
  if (!existsSync(journal)) return;
  const { file, original } = JSON.parse(readFileSync(journal, 'utf8')) as { file: string; original: string };
  writeFileSync(file, Buffer.from(original, 'base64'));
  rmSync(journal, { force: true });
  log(`bench: restored ${file}, left modified by an interrupted run`);
}

const KUSTOMIZATION = /^(?:kustomization\.ya?ml|Kustomization)$/;

/**
 * The file the "1 file changed" contender modifies: the first sorted `*.yaml`/`*.yml` under DIR that is a plain
 * manifest (top-level `apiVersion:` and `kind:`, not ending in a document marker), outside any `kustomize/` or
 * `templates/` directory, any directory holding a kustomization or a `Chart.yaml` (at or above the file, up to DIR),
 * and not named in a kustomization's list items: a change to it must invalidate its own parse and no render.
 */
function fileToTouch(dir: string): string | undefined {
  const all = manifestFiles(dir);
  const fenced = new Set<string>();
  const referenced = new Set<string>();
  for (const file of all) {
    const base = path.basename(file);
    if (base === 'Chart.yaml') fenced.add(path.dirname(file));
    if (!KUSTOMIZATION.test(base)) continue;
    fenced.add(path.dirname(file));
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*-\s*(?:path:\s*)?['"]?([^'"\s#]+)/gm)) referenced.add(path.resolve(path.dirname(file), match[1]));
  }
  const inside = (file: string): boolean => {
    for (let d = path.dirname(file); d.length >= dir.length; d = path.dirname(d)) {
      if (fenced.has(d)) return true;
      if (d === dir) break;
    }
    return false;
  };
  for (const file of all) {
    if (!/\.ya?ml$/.test(file) || referenced.has(file) || inside(file)) continue;
    const parts = path.relative(dir, file).split(path.sep);
    if (parts.includes('kustomize') || parts.includes('templates')) continue;
    const text = readFileSync(file, 'utf8');
    if (!/^apiVersion:\s*\S/m.test(text) || !/^kind:\s*\S/m.test(text) || /^(?:---|\.\.\.)\s*$/.test(text.trimEnd().split('\n').pop() ?? '')) continue;
    return file;
  }
  return undefined;
}

/** The cache contenders: a first run that writes the cache, and a repeat run with one file changed since the last. */
function cacheContenders(label: string, dir: string, notes: string[]): Contender[] {
  const coldDir = path.join(scratch, `cache-cold-${label}`);
  const warmDir = path.join(scratch, `cache-warm-${label}`);
  const argv = (cacheDir: string): string[] => [BIN, '--skip-missing-renderers', '--cache-location', cacheDir, dir];
  const pvlint = (cacheDir: string): Promise<Sample> => runChild(process.execPath, argv(cacheDir), { okCodes: [0, 1], cwd: dir, stdout: 'null' });
  const command = (cacheDir: string): string => `node ${argv(cacheDir).map(displayArg).join(' ')}`;
  const list: Contender[] = [
    {
      name: 'pvlint --cache (cold)',
      description: 'pvlint --cache-location on an empty cache (its directory deleted before each run, untimed): a first run that also writes the cache',
      command: command(coldDir),
      companions: ['pvlint (text)'],
      run: () => {
        rmSync(coldDir, { recursive: true, force: true });
        return pvlint(coldDir);
      },
    },
  ];
  const file = fileToTouch(dir);
  if (!file) {
    notes.push('pvlint --cache (1 file changed): no plain manifest outside kustomize roots and charts to change: not measured');
    return list;
  }
  const journal = touchJournal(dir);
  const relative = path.relative(dir, file);
  let touches = 0;
  list.push({
    name: 'pvlint --cache (1 file changed)',
    description: `pvlint --cache-location on a cache primed once (untimed); before each run ${relative} gets a new comment line (\`# pvlint-bench touch N\`, N new every run), restored after it: the pre-commit case`,
    companions: ['pvlint (text)'],
    command: `${command(warmDir)}  (after appending \`# pvlint-bench touch N\` to ${relative})`,
    prepare: async () => {
      rmSync(warmDir, { recursive: true, force: true });
      const sample = await pvlint(warmDir);
      const usable = sample.status === 'ok' || (sample.status === 'error' && sample.exitCode === 2);
      const cacheFile = path.join(warmDir, 'cache.bin');
      if (usable && existsSync(cacheFile)) notes.push(`pvlint --cache: the primed cache.bin holds ${(statSync(cacheFile).size / 2 ** 20).toFixed(1)} MB (priming run ${sample.seconds.toFixed(2)} s)`);
      return usable ? undefined : `the priming run failed (${sample.status}${sample.note ? `: ${sample.note}` : ''})`;
    },
    run: async () => {
      const original = readFileSync(file);
      const separator = original.length === 0 || original[original.length - 1] === 0x0a ? '' : '\n';
      writeFileSync(journal, JSON.stringify({ file, original: original.toString('base64') }));
      touched.set(file, { original, journal });
      try {
        writeFileSync(file, Buffer.concat([original, Buffer.from(`${separator}# pvlint-bench touch ${++touches}\n`)]));
        return await pvlint(warmDir);
      } finally {
        writeFileSync(file, original);
        touched.delete(file);
        rmSync(journal, { force: true });
      }
    },
  });
  notes.push(`pvlint --cache (1 file changed): changes ${relative} (${readFileSync(file).length} bytes) before each run`);
  return list;
}

function repoContenders(label: string, dir: string, kindsFile: string, peerDir: string | undefined, notes: string[]): Contender[] {
  const bench = (file: string): string => path.join(HERE, file);
  const list: Contender[] = [
    nodeContender('floor A (read + kind scan)', 'list the manifest files, read each, count top-level `kind:` lines', bench('floor-a.js'), [dir]),
    nodeContender('floor B (parse all)', 'read every file, yaml parseAllDocuments on every document, nothing else', bench('floor-b.js'), [dir]),
    nodeContender("floor B' (parse relevant)", "kind scan, then parseAllDocuments only on documents of a kind pvlint reads", bench('floor-b.js'), [dir, '--kinds', kindsFile]),
  ];
  if (peerDir) {
    list.push(nodeContender(`peer (${PEER})`, 'Monokle resource-links + yaml-syntax plugins, processRefs + validate, in one node process', bench('peer.js'), [dir, peerDir], { nodeFlags: [`--max-old-space-size=${opts['peer-heap']}`], timeoutMs: Number(opts['peer-timeout']) * 1000 }));
  }
  list.push(
    nodeContender('pvlint (text)', 'pvlint end to end, process start to exit, text report to /dev/null', BIN, ['--skip-missing-renderers', dir], { okCodes: [0, 1], cwd: dir, stdout: 'null' }),
    nodeContender('pvlint (sarif)', 'pvlint end to end, SARIF report to /dev/null', BIN, ['--skip-missing-renderers', '-f', 'sarif', dir], { okCodes: [0, 1], cwd: dir, stdout: 'null' }),
    ...cacheContenders(label, dir, notes),
  );
  // The synthetic sets' Kustomize roots are rendered by kubectl, which the floors do not do: the same run without
  // them is the parse-bound part of the comparison.
  if (existsSync(path.join(dir, 'kustomize'))) {
    list.push(nodeContender('pvlint (text, no kustomize/)', "pvlint end to end without the kustomize/ roots (--ignore 'kustomize/**'), text report to /dev/null", BIN, ['--skip-missing-renderers', '--ignore', 'kustomize/**', dir], { okCodes: [0, 1], cwd: dir, stdout: 'null' }));
  }
  return list;
}

/** A directory on PATH whose kubectl, kustomize and helm log each run (tool, nanoseconds) and run the real one. */
function renderShims(): { bin: string; log: string } | undefined {
  const bin = path.join(scratch, 'render-shims');
  const logFile = path.join(scratch, 'renders.log');
  const real = (tool: string): string | undefined => {
    if (tool === 'helm' && process.env.PVLINT_TEST_HELM && existsSync(process.env.PVLINT_TEST_HELM)) return process.env.PVLINT_TEST_HELM;
    try {
      return execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      return undefined;
    }
  };
  mkdirSync(bin, { recursive: true });
  let any = false;
  for (const tool of ['kubectl', 'kustomize', 'helm']) {
    const target = real(tool);
    if (!target) continue;
    any = true;
    const script = `#!/bin/sh\nstart=$(date +%s%N)\n'${target}' "$@"\ncode=$?\necho "${tool} $(( $(date +%s%N) - start ))" >> '${logFile}'\nexit $code\n`;
    writeFileSync(path.join(bin, tool), script, { mode: 0o755 });
  }
  return any ? { bin, log: logFile } : undefined;
}

/**
 * gitops: pvlint on each GitOps fixture repository (a directory of --gitops, default test/fixtures/gitops), with the
 * renderers behind logging shims: how many renders each run starts and how long they take.
 */
async function gitopsInput(notes: string[]): Promise<InputResult | undefined> {
  const root = path.resolve(opts.gitops!);
  const fixtures = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(root, e.name)).sort() : [];
  if (fixtures.length === 0) {
    log(`bench: gitops: no fixture directories under ${root} (the Flux and Argo CD fixtures arrive with the GitOps work): skipped`);
    return undefined;
  }
  const shims = renderShims();
  if (!shims) notes.push('gitops: no kubectl, kustomize or helm here: nothing renders');
  const contenders: Contender[] = [{ name: 'node -e 0', description: 'node starting and exiting', command: 'node -e 0', run: () => runChild(process.execPath, ['-e', '0'], { stdout: 'null' }) }];
  for (const fixture of fixtures) {
    const name = `pvlint (${path.basename(fixture)})`;
    contenders.push({
      name,
      description: `pvlint on ${displayArg(fixture)}, renderers counted and timed through shims on PATH`,
      command: `node dist/src/bin.js --skip-missing-renderers ${displayArg(fixture)}`,
      run: async () => {
        if (shims) writeFileSync(shims.log, '');
        const env = shims ? { PATH: `${shims.bin}${path.delimiter}${process.env.PATH ?? ''}` } : undefined;
        const sample = await runChild(process.execPath, [BIN, '--skip-missing-renderers', fixture], { cwd: fixture, okCodes: [0, 1], stdout: 'null', env });
        if (!shims) return sample;
        const lines = readFileSync(shims.log, 'utf8').split('\n').filter(Boolean);
        const nanos = lines.reduce((n, l) => n + Number(l.split(' ')[1] ?? 0), 0);
        return { ...sample, renders: lines.length, renderSeconds: Math.round(nanos / 1e5) / 1e4 };
      },
    });
  }
  notes.push(`gitops: ${fixtures.length} fixture repositories under ${displayArg(root)}; renders are the kubectl/kustomize/helm processes a run starts (through logging shims on PATH), render s their summed wall time (they overlap: 2 at a time)`);
  return measure('gitops', root, contenders, 'node -e 0', notes);
}

function fmt(n: number | null, digits = 3): string {
  return n === null ? '-' : n.toFixed(digits);
}

/** CPU seconds a contender had used when it was stopped (timeout, out of memory): a lower bound of its cost. */
function cpuAtStop(c: ContenderResult): number | null {
  const values = c.samples.filter((s) => s.status === 'timeout' || s.status === 'oom').map((s) => s.cpuSeconds).filter((v): v is number => v !== null);
  return values.length ? Math.max(...values) : null;
}

function table(results: readonly InputResult[]): string {
  const rows: string[][] = [['input', 'contender', 'median s', 'ratio', 'pairs', 'CPU s', 'peak RSS MB', 'runs', 'status']];
  for (const input of results) {
    for (const c of input.contenders) {
      rows.push([
        input.name,
        c.name,
        c.medianSeconds === null ? c.status : fmt(c.medianSeconds),
        c.ratioToReference === null ? '-' : `${c.ratioToReference.toFixed(2)}x`,
        c.pairRatioToReference == null ? '-' : `${c.pairRatioToReference.toFixed(2)}x`,
        c.medianCpuSeconds !== null ? fmt(c.medianCpuSeconds, 2) : cpuAtStop(c) !== null ? `>=${fmt(cpuAtStop(c), 1)}` : '-',
        c.medianSeconds === null && c.peakRssMb !== null ? `>=${fmt(c.peakRssMb, 0)}` : fmt(c.peakRssMb, 0),
        String(c.samples.length),
        c.medianRenders != null ? `${c.status}, ${c.medianRenders} renders / ${fmt(c.medianRenderSeconds ?? null, 2)} s` : c.status,
      ]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]): string => r.map((cell, i) => (i >= 2 && i <= 7 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ');
  const out = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  ')];
  let previous = '';
  for (const r of rows.slice(1)) {
    if (previous && r[0] !== previous) out.push('');
    previous = r[0];
    out.push(line(r));
  }
  return `${out.join('\n')}\n(ratio: to floor B' for repos, to \`node -e 0\` for startup; pairs: median of the per-repetition ratios (alternated runs); CPU s: user+sys incl. children; >=: lower bound, the run was stopped)\n`;
}

/** The median over repetitions of a's time / b's time in the same repetition. */
function pairRatio(a: ContenderResult, b: ContenderResult): number | null {
  const ratios: number[] = [];
  a.samples.forEach((s, i) => {
    const t = b.samples[i];
    if (t && usableSample(a.name, s) && usableSample(b.name, t) && t.seconds > 0) ratios.push(s.seconds / t.seconds);
  });
  const m = median(ratios);
  return m === null ? null : Math.round(m * 100) / 100;
}

/** The issue's targets, checked on what this run measured. */
function targets(results: readonly InputResult[]): string[] {
  const lines: string[] = [];
  const get = (input: InputResult, name: string): ContenderResult | undefined => input.contenders.find((c) => c.name === name);
  for (const input of results) {
    const pv = get(input, 'pvlint (text)');
    if (input.name === 'startup') {
      const version = get(input, 'pvlint --version');
      if (version?.medianSeconds != null) lines.push(`startup: pvlint --version ${(version.medianSeconds * 1000).toFixed(0)} ms (target <= 150 ms): ${version.medianSeconds <= 0.15 ? 'met' : 'MISSED'}`);
      continue;
    }
    if (!pv || pv.medianSeconds === null) continue;
    const bp = get(input, "floor B' (parse relevant)")?.medianSeconds;
    const b = get(input, 'floor B (parse all)')?.medianSeconds;
    const peer = get(input, `peer (${PEER})`);
    const pair = pv.pairRatioToReference;
    const floorWithRenders = get(input, FLOOR_R_RELEVANT);
    // Where pvlint renders roots, floor B' (which renders nothing) is not what it can be held to: floor R is.
    if (bp) lines.push(`${input.name}: pvlint / floor B' = ${(pv.medianSeconds / bp).toFixed(2)} (ratio of medians)${pair != null ? `, ${pair.toFixed(2)} (median of alternated pairs; CPU ${fmt(pv.pairCpuRatioToReference ?? null, 2)})` : ''} ${floorWithRenders ? '(floor B\' renders nothing; the target is on floor R below)' : `(target <= 1.0): ${(pair ?? pv.medianSeconds / bp) <= 1 ? 'met' : 'MISSED'}`}`);
    if (floorWithRenders?.medianSeconds) {
      const pairR = pairRatio(pv, floorWithRenders);
      lines.push(`${input.name}: pvlint / ${FLOOR_R_RELEVANT} = ${(pv.medianSeconds / floorWithRenders.medianSeconds).toFixed(2)} (ratio of medians)${pairR !== null ? `, ${pairR.toFixed(2)} (median of alternated pairs)` : ''} (target <= 1.0): ${(pairR ?? pv.medianSeconds / floorWithRenders.medianSeconds) <= 1 ? 'met' : 'MISSED'}`);
    }
    const withoutRenders = get(input, 'pvlint (text, no kustomize/)');
    if (bp && withoutRenders?.medianSeconds) {
      lines.push(`${input.name}: pvlint without kustomize/ / floor B' = ${(withoutRenders.medianSeconds / bp).toFixed(2)} (ratio of medians), ${fmt(withoutRenders.pairRatioToReference ?? null, 2)} (median of alternated pairs; CPU ${fmt(withoutRenders.pairCpuRatioToReference ?? null, 2)}) (the parse-bound part; no target of its own)`);
    }
    const bAll = get(input, 'floor B (parse all)');
    const pairB = bAll ? pairRatio(pv, bAll) : null;
    const allWithRenders = get(input, FLOOR_R_ALL);
    if (b) lines.push(`${input.name}: pvlint / floor B  = ${(pv.medianSeconds / b).toFixed(2)} (ratio of medians)${pairB !== null ? `, ${pairB.toFixed(2)} (median of alternated pairs)` : ''} ${allWithRenders ? '(floor B renders nothing; the target is on floor R (parse all) below)' : `(target <= 0.5): ${(pairB ?? pv.medianSeconds / b) <= 0.5 ? 'met' : 'MISSED'}`}`);
    if (allWithRenders?.medianSeconds) {
      const pairRAll = pairRatio(pv, allWithRenders);
      lines.push(`${input.name}: pvlint / ${FLOOR_R_ALL} = ${(pv.medianSeconds / allWithRenders.medianSeconds).toFixed(2)} (ratio of medians)${pairRAll !== null ? `, ${pairRAll.toFixed(2)} (median of alternated pairs)` : ''} (target <= 0.5): ${(pairRAll ?? pv.medianSeconds / allWithRenders.medianSeconds) <= 0.5 ? 'met' : 'MISSED'}`);
    }
    if (peer?.medianSeconds) lines.push(`${input.name}: peer / pvlint = ${(peer.medianSeconds / pv.medianSeconds).toFixed(1)}x (target >= 10x): ${peer.medianSeconds >= 10 * pv.medianSeconds ? 'met' : 'MISSED'}`);
    else if (peer) {
      const cpu = cpuAtStop(peer);
      const pvCpu = pv.medianCpuSeconds;
      lines.push(`${input.name}: peer ${peer.status}${cpu !== null ? ` after ${fmt(cpu, 1)} CPU s / ${fmt(peer.peakRssMb, 0)} MB` : ''} (pvlint ${fmt(pv.medianSeconds)} s, ${fmt(pvCpu, 2)} CPU s${cpu !== null && pvCpu ? `: peer >= ${(cpu / pvCpu).toFixed(1)}x pvlint in CPU` : ''})`);
    }
    if (peer?.medianSeconds && peer.peakRssMb && pv.peakRssMb) lines.push(`${input.name}: pvlint RSS / peer RSS = ${(pv.peakRssMb / peer.peakRssMb).toFixed(2)} (target < 0.5): ${pv.peakRssMb < 0.5 * peer.peakRssMb ? 'met' : 'MISSED'}`);
    const kz = get(input, 'kustomize (sum)');
    const kzPv = get(input, 'pvlint (kustomize/ tree)') ?? pv;
    if (kz?.medianSeconds && kzPv.medianSeconds !== null) lines.push(`${input.name}: ${kzPv.name} / kustomize (sum) = ${(kzPv.medianSeconds / kz.medianSeconds).toFixed(2)} (target <= 0.75): ${kzPv.medianSeconds <= 0.75 * kz.medianSeconds ? 'met' : 'MISSED'}`);
    const cold = get(input, 'pvlint --cache (cold)');
    const changed = get(input, 'pvlint --cache (1 file changed)');
    const cpuRatio = (c: ContenderResult): string => (c.medianCpuSeconds !== null && pv.medianCpuSeconds ? `${(c.medianCpuSeconds / pv.medianCpuSeconds).toFixed(2)}` : '-');
    if (changed?.medianSeconds != null) lines.push(`${input.name}: pvlint --cache (1 file changed) / pvlint (text) = ${(changed.medianSeconds / pv.medianSeconds).toFixed(2)} wall, ${cpuRatio(changed)} CPU (target <= 0.25): ${changed.medianSeconds <= 0.25 * pv.medianSeconds ? 'met' : 'MISSED'}`);
    if (cold?.medianSeconds != null) lines.push(`${input.name}: pvlint --cache (cold) / pvlint (text) = ${(cold.medianSeconds / pv.medianSeconds).toFixed(2)} wall, ${cpuRatio(cold)} CPU (writing the cache; no target)`);
    if (input.name === 'gitops') {
      for (const c of input.contenders) {
        if (c.medianRenders != null) lines.push(`gitops: ${c.name}: ${c.medianRenders} renders, ${fmt(c.medianRenderSeconds ?? null, 2)} s rendering of ${fmt(c.medianSeconds)} s (no target)`);
      }
    }
    if (pv.peakRssMb && input.name === '100k') lines.push(`100k: pvlint peak RSS ${pv.peakRssMb} MB (target <= 1024): ${pv.peakRssMb <= 1024 ? 'met' : 'MISSED'}`);
  }
  const ten = results.find((r) => r.name === '10k');
  const hundred = results.find((r) => r.name === '100k');
  const t10 = ten && get(ten, 'pvlint (text)')?.medianSeconds;
  const t100 = hundred && get(hundred, 'pvlint (text)')?.medianSeconds;
  const c10 = ten && get(ten, 'pvlint (text)')?.medianCpuSeconds;
  const c100 = hundred && get(hundred, 'pvlint (text)')?.medianCpuSeconds;
  if (t10 && t100) lines.push(`scaling: pvlint 100k / 10k = ${(t100 / t10).toFixed(1)}x wall${c10 && c100 ? `, ${(c100 / c10).toFixed(1)}x CPU` : ''} (target <= 11x): ${t100 <= 11 * t10 ? 'met' : 'MISSED'}`);
  return lines;
}

function machine(): Record<string, unknown> {
  const version = (argv: string[]): string | null => {
    try {
      return execFileSync(argv[0], argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim().split('\n').join('; ');
    } catch {
      return null;
    }
  };
  let pvlint: string | null = null;
  try {
    pvlint = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version;
  } catch {
    /* ignore */
  }
  return {
    cores: typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length,
    cpu: os.cpus()[0]?.model ?? null,
    memoryMb: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    kubectl: version(['kubectl', 'version', '--client']),
    pvlint,
    peer: `${PEER}@${PEER_VERSION}`,
    timeMeasurement: TIME ? 'wall: parent hrtime from spawn to exit; RSS: /usr/bin/time %M' : 'wall: parent hrtime; RSS: child process.resourceUsage().maxRSS (no /usr/bin/time)',
  };
}

async function main(): Promise<void> {
  if (!PVLINT) {
    log('bench: dist/src/bin.js is missing: run `npm run build` first (npm run bench does)');
    process.exit(2);
  }
  const results: InputResult[] = [];
  const kinds = await relevantKinds();
  const kindsFile = path.join(scratch, 'kinds.json');
  writeFileSync(kindsFile, JSON.stringify(kinds));
  const peerDir = opts['no-peer'] ? undefined : ensurePeer(opts['peer-dir']!);
  const kustomize = kustomizeArgv();
  mkdirSync(opts.tmp!, { recursive: true });

  for (const input of inputs) {
    const notes: string[] = [];
    if (input === 'startup') {
      const small = path.join(scratch, 'small');
      mkdirSync(small, { recursive: true });
      writeFileSync(path.join(small, 'pvc.yaml'), 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n');
      const contenders: Contender[] = [
        { name: 'node -e 0', description: 'node starting and exiting: the floor for any CLI', command: 'node -e 0', run: () => runChild(process.execPath, ['-e', '0'], { stdout: 'null' }) },
        nodeContender('pvlint --version', 'start-up cost: imports of the CLI, print the version', BIN, ['--version'], { stdout: 'null' }),
        nodeContender('pvlint one small file', 'pvlint on one PVC file: start-up plus the smallest lint', BIN, [path.join(small, 'pvc.yaml')], { okCodes: [0, 1], cwd: small, stdout: 'null' }),
      ];
      results.push(await measure('startup', small, contenders, 'node -e 0', notes));
      continue;
    }
    if (input === 'gitops') {
      const measured = await gitopsInput(notes);
      if (measured) {
        results.push(measured);
        process.stdout.write(`\n${table([measured])}`);
      }
      continue;
    }
    let dir: string;
    let recorded: string;
    let info: RepoInfo;
    let contenders: Contender[];
    if (input === 'plain') {
      const corpus = path.resolve(opts.corpus!);
      const repos = PLAIN_REPOS.map((name) => path.join(corpus, name));
      const absent = repos.filter((r) => !existsSync(r));
      if (absent.length > 0) {
        log(`bench: plain: ${absent.join(', ')} absent (--corpus or PVLINT_BENCH_CORPUS): skipped`);
        continue;
      }
      recorded = repos.join(' ');
      dir = path.join(scratch, 'plain');
      for (const repo of repos) cpSync(repo, path.join(dir, path.basename(repo)), { recursive: true, verbatimSymlinks: true });
      const files = manifestFiles(dir);
      const roots = await pvlintRoots(dir);
      info = { files: files.length, documents: null, bytes: files.reduce((n, f) => n + readFileSync(f).length, 0), kustomizeRoots: roots.length };
      notes.push(`plain: the loose manifests of ${PLAIN_REPOS.join(', ')} (copied into the scratch directory; ${roots.length} Kustomize roots, so nothing renders: the parse-bound case)`);
      contenders = repoContenders(input, dir, kindsFile, peerDir, notes);
    } else if (input === 'corpus') {
      recorded = path.resolve(opts.corpus!);
      if (!existsSync(recorded)) {
        log(`bench: corpus: ${recorded} is absent: skipped`);
        continue;
      }
      // Every corpus contender runs on a private copy: the cache contenders change a file, and the corpus is never
      // written. All of them on the copy, so that they compare on the same paths.
      dir = path.join(scratch, 'corpus');
      cpSync(recorded, dir, { recursive: true, verbatimSymlinks: true });
      notes.push(`corpus: every contender runs on a copy of ${recorded} in the bench's scratch directory (${dir}), made at the start of the input`);
      const files = manifestFiles(dir);
      const roots = await pvlintRoots(dir);
      info = { files: files.length, documents: null, bytes: files.reduce((n, f) => n + readFileSync(f).length, 0), kustomizeRoots: roots.length };
      contenders = repoContenders(input, dir, kindsFile, peerDir, notes);
      if (kustomize && roots.length > 0) contenders.push(kustomizeSum(roots, kustomize), floorR(dir, kindsFile, roots, kustomize), floorR(dir, undefined, roots, kustomize));
      notes.push('corpus: its Kustomize roots are rendered inside "pvlint (text)"/"(sarif)"; "kustomize (sum)" renders the same roots; roots with remote bases fail fast without network, in both');
    } else {
      const generated = syntheticRepo(input);
      dir = recorded = generated.dir;
      info = generated.info;
      contenders = repoContenders(input, dir, kindsFile, peerDir, notes);
      if (kustomize && generated.repo.kustomizeRoots.length > 0) {
        contenders.push(
          kustomizeSum(generated.repo.kustomizeRoots, kustomize),
          floorR(dir, kindsFile, generated.repo.kustomizeRoots, kustomize),
          floorR(dir, undefined, generated.repo.kustomizeRoots, kustomize),
          nodeContender('pvlint (kustomize/ tree)', 'pvlint on the kustomize/ subtree only (renders the same roots), against kustomize (sum)', BIN, ['--skip-missing-renderers', generated.repo.kustomizeDir], { okCodes: [0, 1], cwd: dir, stdout: 'null' }),
        );
      }
    }
    // Warm the page cache once (floor A reads every file), untimed.
    await runChild(process.execPath, [path.join(HERE, 'floor-a.js'), dir]);
    const result = await measure(input, recorded, contenders, "floor B' (parse relevant)", notes, info);
    results.push(result);
    process.stdout.write(`\n${table([result])}`);
  }

  for (const file of opts.merge ?? []) {
    const extra = (JSON.parse(readFileSync(file, 'utf8')) as { inputs: InputResult[] }).inputs;
    for (const input of extra) if (!results.some((r) => r.name === input.name)) results.push(input);
  }
  let previous: { inputs?: InputResult[] } = {};
  try {
    previous = JSON.parse(readFileSync(opts.out!, 'utf8'));
  } catch {
    /* first run */
  }
  const measured = new Set(results.map((r) => r.name));
  const merged = [...(previous.inputs ?? []).filter((r) => !measured.has(r.name)), ...results].sort((a, b) => ALL_INPUTS.indexOf(a.name) - ALL_INPUTS.indexOf(b.name));
  const output = {
    schema: 1,
    generatedAt: new Date().toISOString(),
    machine: machine(),
    options: { reps, seed: Number(opts.seed), timeoutSeconds: timeoutMs / 1000, peerTimeoutSeconds: Number(opts['peer-timeout']), peerHeapMb: Number(opts['peer-heap']), slowSeconds, generatorVersion: GENERATOR_VERSION },
    relevantKinds: kinds,
    inputs: merged,
    targets: targets(merged),
  };
  writeFileSync(opts.out!, `${JSON.stringify(output, null, 2)}\n`);
  process.stdout.write(`\n${table(merged)}\n${output.targets.map((t) => `  ${t}`).join('\n')}\n\nwrote ${path.relative(process.cwd(), opts.out!) || opts.out}\n`);
}

await main();
