// Worker threads that parse loose manifests of large inputs. Measured on 2 cores (bench/README.md, "Worker threads:
// break-even"): below a few thousand parsed documents a worker's start-up (~60 ms) and copying every object back cost
// more than they save, so lint() uses the pool only for arguments with many files and when there is a second core.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Limits } from './limits.js';
import type { KindPlan } from './parse-resources.js';
import type { ParseRecord } from './parse-record.js';
import type { ParseJob, ParseReply } from './parse-worker.js';
import type { SourceFile } from '../types.js';

/**
 * Manifest files under one argument from which a parse pool pays off on 2 cores. Measured with two workers against
 * none (lint() in one process, alternating): 10k synthetic documents (4,467 files, rendering 10 Kustomize roots at
 * the same time) 2.33 vs 2.05 s, +25 % CPU; 100k (43,769 files) 9.7 vs 12.1 s, the same CPU; bench/worker-probe.ts
 * puts the parse-only break-even at 30,000 documents (13,000 files) with a free second core.
 */
export const POOL_MIN_FILES = 12_000;

export function defaultWorkerCount(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return cores >= 2 ? Math.min(cores, 4) : 0;
}

export class ParsePool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, { resolve: (records: (ParseRecord | null)[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private failed: Error | undefined;

  constructor(count: number) {
    this.workers = Array.from({ length: count }, () => {
      const worker = new Worker(new URL('./parse-worker.js', import.meta.url));
      worker.on('message', (reply: ParseReply) => {
        const job = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        job?.resolve(reply.records);
      });
      worker.on('error', (error) => this.fail(error));
      // A worker that stops, for whatever reason, leaves its jobs to the main thread.
      worker.on('exit', (code) => this.fail(new Error(`parse worker exited (code ${code})`)));
      return worker;
    });
  }

  private fail(error: Error): void {
    this.failed = error;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }

  /**
   * Records for `files`, in order: the files are split by size across the workers. A null record (or a failed
   * worker: the promise rejects) means "parse it on the main thread".
   */
  async parse(files: readonly SourceFile[], limits: Limits, plan: KindPlan | undefined): Promise<(ParseRecord | null)[]> {
    if (this.failed) throw this.failed;
    const shares: number[][] = this.workers.map(() => []);
    const load = this.workers.map(() => 0);
    // Largest first onto the least loaded worker: shares end up within one file of each other.
    const order = files.map((_, i) => i).sort((a, b) => files[b].text.length - files[a].text.length);
    for (const i of order) {
      const w = load.indexOf(Math.min(...load));
      shares[w].push(i);
      load[w] += files[i].text.length;
    }
    const out: (ParseRecord | null)[] = new Array(files.length).fill(null);
    await Promise.all(
      shares.map((share, w) => {
        if (share.length === 0) return undefined;
        const id = this.nextId++;
        const job: ParseJob = { id, files: share.map((i) => ({ absPath: files[i].absPath, path: files[i].path, text: files[i].text })), limits, plan };
        return new Promise<void>((resolve, reject) => {
          this.pending.set(id, {
            resolve: (records) => {
              records.forEach((record, k) => (out[share[k]] = record));
              resolve();
            },
            reject,
          });
          this.workers[w].postMessage(job);
        });
      }),
    );
    return out;
  }

  async close(): Promise<void> {
    this.failed ??= new Error('parse pool closed');
    await Promise.all(this.workers.map((w) => w.terminate().catch(() => undefined)));
  }
}
