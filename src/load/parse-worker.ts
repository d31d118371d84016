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
  const records = job.files.map(({ absPath, path, text }) => {
    try {
      const file = makeSourceFile(absPath, path, text);
      return toRecord(file, parseResources(file, job.limits, job.plan, true)) ?? null;
    } catch {
      return null;
    }
  });
  parentPort!.postMessage({ id: job.id, records } satisfies ParseReply);
});
