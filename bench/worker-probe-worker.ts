// The worker side of bench/worker-probe.ts: read and parse a share of the files exactly as pvlint's main thread does
// (readManifest + parseResources with the kind pre-scan), then post back only what a worker can send: plain records
// per resource, the file text and the diagnostics. yaml Nodes and Documents stay here and die with the batch.
import { parentPort, workerData } from 'node:worker_threads';
import type { ParseDiagnostic, ParsedFile } from '../src/load/parse-resources.js';

export interface PlainPlan {
  parse: string[];
  defer: string[];
}

export interface WorkerJob {
  files: { index: number; path: string }[];
  /** pvlint's kind plan (`kindPlan` in src/engine/relevant-kinds.ts) as arrays; null parses every document. */
  plan: PlainPlan | null;
  /** Post a batch once this many characters of source are in it: big enough to amortise a message, small enough
   *  that the main thread deserialises while the worker still parses. */
  batchChars: number;
  /** Post `ready` and stop without importing the parse modules: the cost of a bare worker thread. */
  bare?: boolean;
}

/** What the main thread gets per resource; positions are rebuilt from `text` and the offsets when a finding needs them. */
export interface ResourceRecord {
  kind: string;
  apiVersion: string;
  name: string;
  namespace: string | undefined;
  docIndex: number;
  object: unknown;
  /** The document's span in the file text. */
  start: number;
  end: number;
}

/** A document of a deferred kind, left unparsed: the main thread parses it from its own copy of the text if a rule asks. */
export interface DeferredRecord {
  kind: string;
  docIndex: number;
  start: number;
  end: number;
}

export type FileResult =
  | { index: number; text: string; documentCount: number; skipped: number; records: ResourceRecord[]; deferred: DeferredRecord[]; diagnostics: ParseDiagnostic[] }
  | { index: number; problem: string };

export type WorkerMessage = { type: 'ready' } | { type: 'batch'; files: FileResult[] } | { type: 'done' };

/** A parsed file as the plain data a worker can post; the yaml Documents are left behind for the GC. */
export function toFileResult(index: number, text: string, parsed: ParsedFile): FileResult {
  const records = parsed.resources.map((r): ResourceRecord => {
    const range = parsed.documents[r.docIndex]?.range ?? [0, 0, 0];
    return { kind: r.kind, apiVersion: r.apiVersion, name: r.name, namespace: r.namespace, docIndex: r.docIndex, object: r.object, start: range[0], end: range[2] ?? range[1] };
  });
  const deferred = parsed.deferred.map((d): DeferredRecord => ({ kind: d.kind, docIndex: d.docIndex, start: d.span.start, end: d.span.end }));
  return { index, text, documentCount: parsed.documentCount, skipped: parsed.skipped, records, deferred, diagnostics: parsed.diagnostics };
}

const post = (message: WorkerMessage): void => parentPort!.postMessage(message);

async function runJob(job: WorkerJob): Promise<void> {
  if (job.bare) {
    post({ type: 'ready' });
    return;
  }
  // Imported here rather than statically so a bare worker pays nothing for them; `ready` marks the import done.
  const [{ readManifest }, { parseResources }, { resolveLimits }] = await Promise.all([
    import('../src/load/read-source.js'),
    import('../src/load/parse-resources.js'),
    import('../src/load/limits.js'),
  ]);
  post({ type: 'ready' });
  const limits = resolveLimits(undefined);
  const budget = { limits, used: 0 };
  const plan = job.plan ? { parse: new Set(job.plan.parse), defer: new Set(job.plan.defer) } : undefined;
  let batch: FileResult[] = [];
  let chars = 0;
  for (const { index, path } of job.files) {
    const read = await readManifest(path, path, budget);
    if (!('file' in read)) {
      batch.push({ index, problem: read.problem.message });
      continue;
    }
    batch.push(toFileResult(index, read.file.text, parseResources(read.file, limits, plan)));
    chars += read.file.text.length;
    if (chars >= job.batchChars) {
      post({ type: 'batch', files: batch });
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) post({ type: 'batch', files: batch });
  post({ type: 'done' });
}

// The probe's main thread imports this module too (for `toFileResult`); only a worker runs a job.
if (parentPort) await runJob(workerData as WorkerJob);
