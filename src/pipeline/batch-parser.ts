// Feeds files to a ParsePool in batches and hands each parsed file to `take` in the order the files came: a batch
// is sent to the workers as soon as it is full, and the batch before it is taken while they parse it. Files the
// workers must not parse (Helm streams, cache hits) and files a worker could not turn into a record are parsed here.
import { adoptRecord, parseWithCache } from '../cache/cached-parse.js';
import { contentHash, type LintCache } from '../cache/lint-cache.js';
import { hasSourceComments } from '../load/helm-source-comments.js';
import type { SourceFile } from '../types.js';
import type { Limits } from '../load/limits.js';
import type { KindPlan, ParsedFile } from '../load/parse-resources.js';
import type { ParsePool } from '../load/parse-pool.js';
import type { ParseRecord } from '../load/parse-record.js';

/** Files per batch: a few hundred milliseconds of parsing, small enough that reading and parsing overlap. */
const BATCH_FILES = 512;
/** Fewer files to parse than this in a batch (a warm `--cache` run) are parsed here: not worth a worker. */
const MIN_REMOTE = 32;

interface Batch {
  files: SourceFile[];
  /** The hash of each file's text, with a cache (computed once, for the lookup and the store). */
  keys: (string | undefined)[];
  /** Per file: parse it in a worker (its index among the remote files) or here (-1). */
  remote: number[];
  records: Promise<(ParseRecord | null)[]>;
}

export class BatchParser {
  private current: SourceFile[] = [];
  private inFlight: Batch | undefined;

  constructor(
    /** The pool, started on first need (a warm cache may leave nothing for it to do). */
    private readonly pool: () => ParsePool,
    private readonly limits: Limits,
    private readonly plan: KindPlan | undefined,
    private readonly cache: LintCache | undefined,
    private readonly take: (file: SourceFile, parsed: ParsedFile) => void,
    /** The limits to parse the next batch with: the run's node budget as it stands when the batch is sent. */
    private readonly limitsNow: () => Limits = () => limits,
  ) {}

  async add(file: SourceFile): Promise<void> {
    this.current.push(file);
    if (this.current.length >= BATCH_FILES) await this.send();
  }

  async finish(): Promise<void> {
    await this.send();
    await this.drain();
  }

  private async send(): Promise<void> {
    if (this.current.length === 0) return;
    const files = this.current;
    this.current = [];
    let remoteFiles: SourceFile[] = [];
    const keys = files.map((file) => (this.cache ? contentHash(file.text) : undefined));
    let remote = files.map((file, i) => {
      if (hasSourceComments(file.text) || (keys[i] !== undefined && this.cache!.has('parse', keys[i]!))) return -1;
      remoteFiles.push(file);
      return remoteFiles.length - 1;
    });
    if (remoteFiles.length < MIN_REMOTE) {
      remoteFiles = [];
      remote = files.map(() => -1);
    }
    // A failed worker is not a failed lint: its files are parsed here.
    const records = remoteFiles.length === 0 ? Promise.resolve([]) : this.pool().parse(remoteFiles, this.limitsNow(), this.plan).catch(() => remoteFiles.map(() => null));
    const previous = this.inFlight;
    this.inFlight = { files, keys, remote, records };
    if (previous) await this.takeBatch(previous);
  }

  private async drain(): Promise<void> {
    const last = this.inFlight;
    this.inFlight = undefined;
    if (last) await this.takeBatch(last);
  }

  private async takeBatch(batch: Batch): Promise<void> {
    const records = await batch.records;
    batch.files.forEach((file, i) => {
      const record = batch.remote[i] === -1 ? null : records[batch.remote[i]];
      // Positions on demand, as for any file parsed off this thread: the workers' documents are gone.
      const key = batch.keys[i];
      // Files parsed here get what the run has left now, as on the main thread's own path.
      this.take(file, record ? adoptRecord(file, record, this.limits, this.cache, key) : parseWithCache(file, this.limitsNow(), this.plan, this.cache, true, key));
    });
  }
}
