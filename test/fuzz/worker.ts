// A fuzz worker thread: runs the cases it is given, one at a time, and reports each before and after, so the main
// thread can tell which input hung if one ever does.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { CaseChecker, makeCase, type CaseOutcome } from './harness.js';

interface Data {
  seed: number;
  indices: number[];
  seeds: string[];
  workDir: string;
  spawnEvery: number;
  orderEvery: number;
}

const data = workerData as Data;
const cache = new Map<string, Buffer>();
const read = (file: string) => {
  let bytes = cache.get(file);
  if (!bytes) cache.set(file, (bytes = readFileSync(file)));
  return bytes;
};

const checker = new CaseChecker(data.workDir, data.spawnEvery, data.orderEvery);
await checker.init();
for (const index of data.indices) {
  parentPort!.postMessage({ type: 'start', index });
  const { source, bytes, mutations } = makeCase(data.seeds, data.seed, index, read);
  const before = checker.spawned;
  const { failures, ms, verdict } = await checker.check(index, bytes);
  const outcome: CaseOutcome = { index, source, mutations, bytes: bytes.length, ms, failures, verdict };
  parentPort!.postMessage({ type: 'done', outcome, spawned: checker.spawned - before });
}
