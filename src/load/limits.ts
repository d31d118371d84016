// How much input pvlint accepts before it stops and says so. Every limit is a `pvlint/limit` finding (or, for
// renderers, a `pvlint/render` one) naming the limit; nothing is dropped silently and the rest is still linted.
// The defaults sit far above real GitOps repos (the largest real manifest documents are CRDs of about 1 MiB,
// 30 levels deep) and far below what makes the YAML parser slow or the process run out of memory.

export interface Limits {
  /** A file larger than this is not read (default 16 MiB). */
  maxFileBytes: number;
  /** Files read per run, summed; files past it are not read (default 256 MiB). */
  maxTotalBytes: number;
  /** Manifest files under one directory argument; more and the directory is not linted (default 200,000). */
  maxFiles: number;
  /** A YAML document larger than this is not parsed (default 8 MiB; the API server refuses requests over 3 MiB). */
  maxDocumentBytes: number;
  /**
   * Values in one YAML document (scalars, collections and entries, counted while it is parsed; default 250,000; the
   * largest CRDs, about 800 KiB, hold 23,000). What bounds the memory one document takes while it is parsed.
   */
  maxDocumentNodes: number;
  /**
   * Values of the parsed documents of one run, summed (default 2,000,000: about 60,000 storage-relevant objects; only
   * documents of kinds a rule reads are parsed). Past it a file's objects are not linted: what bounds the memory
   * of the whole run (README "Limits": the ceiling).
   */
  maxTotalNodes: number;
  /** YAML documents in one file (default 100,000; empty ones count): past it the rest of the file is not linted. */
  maxFileDocuments: number;
  /** Nesting of maps and lists in a document (default 100; real manifests stay under 30). */
  maxDepth: number;
  /** Anchors plus aliases in a document, and alias expansions (default 1000): no "billion laughs". */
  maxAliasCount: number;
  /** Output of one `kustomize build` / `helm template` (default 64 MiB). */
  maxRenderOutputBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxFileBytes: 16 * MiB,
  maxTotalBytes: 256 * MiB,
  maxFiles: 200_000,
  maxDocumentBytes: 8 * MiB,
  maxDocumentNodes: 250_000,
  maxFileDocuments: 100_000,
  maxTotalNodes: 2_000_000,
  maxDepth: 100,
  maxAliasCount: 1000,
  maxRenderOutputBytes: 64 * MiB,
});

const LIMIT_KEYS = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/** The limits in force: the defaults, overridden by the positive numbers given. */
export function resolveLimits(given?: Partial<Limits>): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  if (!given) return limits;
  for (const key of LIMIT_KEYS) {
    const value = given[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) limits[key] = Math.floor(value);
  }
  return limits;
}

/** `12.3 MiB`, `512 KiB`, `100 bytes`: sizes in messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${bytes} bytes`;
}

/**
 * What the limits add up to, in memory (README "Limits" states the same numbers; test/hostile/bounded.test.ts checks
 * both and measures a run against them). A run needs its text (at most `maxTotalBytes`), the objects of the documents
 * it parses (at most `maxTotalNodes` values) and one document's syntax tree at a time (at most `maxDocumentNodes`).
 * Measured with `/usr/bin/time -v` on ordinary manifests of small values, where every object has a finding (the
 * worst case: each needs its positions): 2.9 MB took 311 MB, 8.8 MB 800 MB (about 100× the input, plus Node's own
 * 90 MB); 63 MB across 4 files peaked at 1.0 GB and 95 MB across 6 files at 1.25 GB, `maxTotalNodes` stopping both.
 */
export const MEMORY_CEILING = Object.freeze({ perInputByte: 100, baseBytes: 128 * MiB, maxBytes: 2048 * MiB });
