// A parse worker thread: the same parseResources as the main thread, on texts the main thread read, sending back
// records (src/load/parse-record.ts), never YAML nodes. A file whose result cannot be a record comes back as null
// and is parsed on the main thread.
import { parentPort } from 'node:worker_threads';
import type { Limits } from './limits.js';
import { parseResources, type KindPlan } from './parse-resources.js';
import { toRecord, type ParseRecord } from './parse-record.js';
import { makeSourceFile } from './source-file.js';

export interface ParseJob {
  id: number;
  files: { absPath: string; path: string; text: string }[];
  limits: Limits;
  plan: KindPlan | undefined;
}

export interface ParseReply {
  id: number;
  records: (ParseRecord | null)[];
}

parentPort?.on('message', (job: ParseJob) => {
  // `job.limits.maxTotalNodes` is what the run had left when the job was sent: the job's files share it, in order,
  // as they would on the main thread. Once it is spent the rest come back as null, for the main thread to refuse.
  let used = 0;
  const records = job.files.map(({ absPath, path, text }) => {
    if (used >= job.limits.maxTotalNodes) return null;
    try {
      const file = makeSourceFile(absPath, path, text);
      const parsed = parseResources(file, { ...job.limits, maxTotalNodes: job.limits.maxTotalNodes - used }, job.plan, true);
      used += parsed.nodes;
      return toRecord(file, parsed) ?? null;
    } catch {
      return null;
    }
  });
  parentPort!.postMessage({ id: job.id, records } satisfies ParseReply);
});
