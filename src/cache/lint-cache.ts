// The `--cache` store: what parsing a file's text gave (by a hash of the text) and what rendering a Kustomize root
// printed (by a hash of every file it reads), kept between runs in one file. A cache written by another pvlint
// version, for other rules' kinds or other limits is ignored whole; an entry is found only by the hash of exactly
// the content it was made from, so a changed file can never be answered from a stale entry.
import { createHash } from 'node:crypto';
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { cacheKey, sign, verified } from './cache-key.js';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { PositionMemo, Resource } from '../types.js';

const FORMAT = 2;
const FILE_NAME = 'cache.bin';
/** An entry not used in this many runs is dropped (a repo's deleted files must not grow the cache forever). */
const KEEP_RUNS = 5;

interface Stored {
  format: number;
  context: string;
  run: number;
  /**
   * Entries are serialised on their own, so a run deserialises only those it uses; small immutable values (most
   * files hold nothing a rule reads) are kept as they are, which is cheaper than a buffer each.
   */
  entries: Map<string, Entry>;
}

type Entry = { run: number; data: Uint8Array } | { run: number; inline: string | number | readonly number[] };

export function contentHash(text: string | Uint8Array): string {
  return createHash('sha1').update(text).digest('hex');
}

export class LintCache {
  private readonly entries: Map<string, Entry>;
  private readonly run: number;
  /** Parsed files and renders found in the cache, and not found, in this run. */
  hits = 0;
  misses = 0;
  /** Where paths are in the objects this run read through the cache (filled by cached-parse, read by the locate stage). */
  readonly positions = new WeakMap<Resource, PositionMemo>();

  private constructor(
    readonly directory: string,
    readonly file: string,
    private readonly context: string,
    stored: Stored | undefined,
    /** The user's key, or why there is none (then nothing is read or written). */
    private readonly key: Buffer | string,
  ) {
    this.entries = stored?.entries ?? new Map();
    this.run = (stored?.run ?? 0) + 1;
  }

  /**
   * Opens the cache in `directory` for a run with this `context` (pvlint version, kinds, limits: anything that
   * changes what an entry would hold). A missing, unreadable, corrupt or foreign cache starts empty.
   */
  static open(directory: string, context: string): LintCache {
    const file = path.join(directory, FILE_NAME);
    const key = cacheKey();
    let stored: Stored | undefined;
    try {
      // Only a file this user's key signed is deserialised: a crafted or foreign cache is ignored whole.
      const payload = typeof key === 'string' ? undefined : verified(key, readFileSync(file));
      if (!payload) throw new Error('not signed with this user\'s key');
      const value = deserialize(payload) as Stored;
      if (value?.format === FORMAT && value.context === context && value.entries instanceof Map && Number.isInteger(value.run)) stored = value;
    } catch {
      stored = undefined;
    }
    return new LintCache(directory, file, context, stored, key);
  }

  /** Counts a lookup the caller answered without `get` (it knew there was no entry). */
  countMiss(): void {
    this.misses++;
  }

  /** Whether an entry exists (nothing is read or counted). */
  has(kind: string, key: string): boolean {
    return this.entries.has(`${kind}:${key}`);
  }

  get<T>(kind: string, key: string): T | undefined {
    const counted = kind === 'parse' || kind === 'render';
    const entry = this.entries.get(`${kind}:${key}`);
    let value: T | undefined;
    if (entry) {
      try {
        value = ('inline' in entry ? entry.inline : deserialize(entry.data)) as T;
        entry.run = this.run;
      } catch {
        this.entries.delete(`${kind}:${key}`);
      }
    }
    if (counted && value !== undefined) this.hits++;
    else if (counted) this.misses++;
    return value;
  }

  /** Stores a copy of `value` (serialised now: later changes to the object do not reach the cache). */
  set(kind: string, key: string, value: unknown): void {
    if (typeof value === 'string' || typeof value === 'number' || (Array.isArray(value) && value.length <= 4 && value.every((v) => typeof v === 'number'))) {
      this.entries.set(`${kind}:${key}`, { run: this.run, inline: Array.isArray(value) ? Object.freeze([...value]) : (value as string | number) });
      return;
    }
    try {
      this.entries.set(`${kind}:${key}`, { run: this.run, data: serialize(value) });
    } catch {
      // A value that cannot be serialised is simply not cached.
    }
  }

  /**
   * Writes the cache (to a temporary file, then renamed: a concurrent run reads the old or the new one, never half).
   * Returns the error message when it could not be written; the lint result does not depend on it.
   */
  private readonly saveHooks: (() => void)[] = [];

  /** Runs `hook` just before the cache is written (for entries that grow during the run). */
  onSave(hook: () => void): void {
    this.saveHooks.push(hook);
  }

  save(): string | undefined {
    for (const hook of this.saveHooks) hook();
    for (const [key, entry] of this.entries) if (this.run - entry.run >= KEEP_RUNS) this.entries.delete(key);
    if (typeof this.key === 'string') return this.key;
    const stored: Stored = { format: FORMAT, context: this.context, run: this.run, entries: this.entries };
    // A fresh name opened with O_EXCL (and O_NOFOLLOW): a file or symbolic link planted in the directory is never
    // written through. The directory is made private; one that others may write to is not used.
    const temporary = `${this.file}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      const directory = path.dirname(this.file);
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      const info = lstatSync(directory);
      const uid = process.getuid?.();
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o022) !== 0) {
        return `the cache directory ${directory} is not private to this user (it must be owned by you and writable by no one else); the cache was not written`;
      }
      const payload = serialize(stored);
      const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        writeSync(fd, sign(this.key, payload));
        writeSync(fd, payload);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.file);
      return undefined;
    } catch (error) {
      try {
        unlinkSync(temporary);
      } catch {
        // Never created.
      }
      return String((error as Error)?.message ?? error);
    }
  }
}
