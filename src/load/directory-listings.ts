// Directory listings read once per run and shared by the run's fast-glob walks of the same trees: discovery, the
// GitOps objects' scan and the repository-wide ConfigMap/Secret lookup. Each walk keeps its own patterns and ignore
// globs: fast-glob sees the file system only through `readdirSync`, so a walk served from here lists exactly what it
// would list reading the directories itself (a directory one walk pruned is read by the next that enters it).
import { readdirSync, type Dirent } from 'node:fs';
import type { FileSystemAdapter } from 'fast-glob';

/** Entries kept at most: past that, directories are read again by each walk rather than held in memory. */
const MAX_KEPT_ENTRIES = 262_144;

type Readdir = (dir: string, options?: unknown) => Dirent[];

export class DirectoryListings {
  private readonly listed = new Map<string, Dirent[] | Error>();
  private kept = 0;

  /** fast-glob's `fs` option: its walk reads directories through the listings. */
  get fs(): Partial<FileSystemAdapter> {
    return { readdirSync: this.readdirSync as unknown as FileSystemAdapter['readdirSync'] };
  }

  /** fast-glob's `fs.readdirSync`, served from the listings read so far. */
  readonly readdirSync: Readdir = (dir, options) => {
    // fast-glob asks for file types (Node ≥ 10.10); anything else goes to the file system as asked.
    if ((options as { withFileTypes?: boolean } | undefined)?.withFileTypes !== true) return (readdirSync as unknown as Readdir)(dir, options);
    const known = this.listed.get(dir);
    if (known instanceof Error) throw known;
    if (known) return known;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // An unreadable directory is as unreadable to the next walk (fast-glob's suppressErrors decides what that means).
      if (this.kept < MAX_KEPT_ENTRIES) this.listed.set(dir, error as Error);
      throw error;
    }
    if (this.kept + entries.length <= MAX_KEPT_ENTRIES) {
      this.kept += entries.length;
      this.listed.set(dir, entries);
    }
    return entries;
  };

  /** The same, listing nothing more once a walk has been handed more than `bound` entries; `passed()` says whether it was. */
  bounded(bound: number): { fs: Partial<FileSystemAdapter>; passed: () => boolean } {
    let seen = 0;
    const counting: Readdir = (dir, options) => {
      if (seen > bound) return [];
      const entries = this.readdirSync(dir, options);
      seen += entries.length;
      return seen > bound ? [] : entries;
    };
    return { fs: { readdirSync: counting as unknown as FileSystemAdapter['readdirSync'] }, passed: () => seen > bound };
  }
}

/** The run's listings, kept in its source cache (which lives as long as the run). */
export function directoryListings(cache: { remember<T>(key: string, compute: () => T): T }): DirectoryListings {
  return cache.remember('directory-listings', () => new DirectoryListings());
}
