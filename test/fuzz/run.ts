// `npm run fuzz -- [--seed N] [--count N] [--start N] [--workers N] [--corpus DIR | --no-corpus] [--spawn-every N]
//                  [--order-every N] [--case N] [--save DIR]`
// Mutates examples/ and the corpus (default /work/shared/corpus when it exists) and checks pvlint's invariants on
// every input (see harness.ts). The same seed and count always produce the same inputs. `--case N` writes that one
// input to --save (default ./fuzz-case) to reproduce it; failing inputs are saved there too.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CORPUS, loadSeeds, makeCase, runFuzz } from './harness.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    count: { type: 'string', default: '10000' },
    start: { type: 'string', default: '0' },
    workers: { type: 'string' },
    corpus: { type: 'string' },
    'no-corpus': { type: 'boolean' },
    'spawn-every': { type: 'string', default: '50' },
    'order-every': { type: 'string', default: '1' },
    case: { type: 'string' },
    save: { type: 'string', default: 'fuzz-case' },
  },
});

const int = (name: string, text: string | undefined): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`fuzz: --${name} takes a whole number (got "${text}")`);
    process.exit(2);
  }
  return n;
};

const seed = int('seed', values.seed);
const corpus = values['no-corpus'] ? undefined : values.corpus ?? (existsSync(DEFAULT_CORPUS) ? DEFAULT_CORPUS : undefined);
const save = path.resolve(values.save!);

function saveCase(index: number): string {
  const { source, bytes, mutations } = makeCase(loadSeeds(corpus), seed, index);
  mkdirSync(save, { recursive: true });
  const file = path.join(save, `seed${seed}-case${index}.yaml`);
  writeFileSync(file, bytes);
  console.error(`case ${index}: ${path.relative(process.cwd(), source)} with ${mutations.join(', ')} → ${file}`);
  return file;
}

if (values.case !== undefined) {
  saveCase(int('case', values.case));
  process.exit(0);
}

const count = int('count', values.count);
const workers = values.workers !== undefined ? int('workers', values.workers) : Math.max(1, Math.min(4, (os.availableParallelism?.() ?? os.cpus().length) - 0));
console.error(`fuzz: seed ${seed}, cases ${values.start}..${int('start', values.start) + count - 1}, ${workers} worker(s), corpus: ${corpus ?? 'none (examples/ only)'}`);
let lastShown = 0;
const report = await runFuzz({
  seed,
  count,
  start: int('start', values.start),
  workers,
  corpus,
  spawnEvery: int('spawn-every', values['spawn-every']),
  orderEvery: int('order-every', values['order-every']),
  onProgress(done, total, failures) {
    if (done - lastShown >= Math.max(1, Math.floor(total / 20)) || done === total) {
      lastShown = done;
      console.error(`  ${done}/${total} inputs, ${failures} failing`);
    }
  },
});

const ms = report.outcomes.map((o) => o.ms).sort((a, b) => a - b);
const quantile = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0);
const bytes = report.outcomes.reduce((n, o) => n + o.bytes, 0);
const boundShare = Math.max(0, ...report.outcomes.map((o) => o.ms / (10_000 + (100 * o.bytes) / 1024)));
const byMutation = new Map<string, number>();
for (const o of report.outcomes) for (const m of o.mutations) byMutation.set(m, (byMutation.get(m) ?? 0) + 1);
console.log(`pvlint fuzz: seed ${report.seed}, ${report.outcomes.length} inputs from ${report.seeds} seed files (${(bytes / 1048576).toFixed(1)} MiB), ${report.spawned} through the binary`);
console.log(`  time: ${(report.ms / 1000).toFixed(1)} s; per input: median ${quantile(0.5)} ms, p99 ${quantile(0.99)} ms, max ${quantile(1)} ms; worst case used ${(boundShare * 100).toFixed(1)}% of its time bound`);
const verdicts = ['unreadable', 'unparsable', 'fine'].map((v) => `${report.outcomes.filter((o) => o.verdict === v).length} ${v}`).join(', ');
console.log(`  inputs by an independent YAML reader: ${verdicts}`);
console.log(`  mutations: ${[...byMutation].sort().map(([m, n]) => `${m} ${n}`).join(', ')}`);
console.log(`  failures: ${report.failures.length}`);
// Failures by kind: the first line of each, without numbers, so the same bug counts once.
const kinds = new Map<string, number>();
for (const failure of report.failures) {
  for (const text of failure.failures) {
    const kind = text.split('\n')[0].replace(/\d+(?:\.\d+)?/g, 'N').slice(0, 120);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
}
for (const [kind, n] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`    ${n} × ${kind}`);
for (const failure of report.failures.slice(0, 20)) {
  console.log(`\ncase ${failure.index} (${path.relative(process.cwd(), failure.source)}; ${failure.mutations.join(', ')}; ${failure.bytes} bytes):`);
  for (const text of failure.failures) console.log(`  - ${text.split('\n').join('\n    ')}`);
  saveCase(failure.index);
}
process.exitCode = report.failures.length > 0 ? 1 : 0;
