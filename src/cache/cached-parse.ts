// parseResources through the `--cache`: a file whose text was parsed before (same hash, same pvlint, kinds and
// limits: the cache's context) gets its objects, diagnostics and deferred documents back without parsing. Objects
// come without YAML nodes: the positions earlier runs looked up are kept per text (FileMemo), and any other is found
// by parsing the object's one document again when something (a finding, a suppression annotation) asks for it.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Limits } from '../load/limits.js';
import { parseResources, type KindPlan, type ParsedFile } from '../load/parse-resources.js';
import { fromRecord, toRecord, type ParseRecord } from '../load/parse-record.js';
import { markShapeClean } from '../engine/shape-check.js';
import type { PositionMemo, Region, Resource, SourceFile } from '../types.js';
import { contentHash, type LintCache } from './lint-cache.js';

/**
 * The size and modification time of the modules whose code decides what parsing gives: a rebuilt pvlint with the
 * same version number (a development build, a patched install) must not read entries its predecessor wrote.
 */
export function parserStamp(): string {
  const modules = [
    '../load/parse-resources.js', '../load/parse-record.js', '../load/yaml-stream.js', '../load/document-scan.js', './cached-parse.js', '../render/kustomize-render.js',
    '../load/locate-node.js', '../engine/shape-check.js', '../../../schemas/resources',
  ];
  const stamps: string[] = [];
  const stamp = (file: string) => {
    try {
      const info = statSync(file);
      if (info.isDirectory()) for (const name of readdirSync(file).sort()) stamp(path.join(file, name));
      else stamps.push(`${path.basename(file)}:${info.size}:${info.mtimeMs}`);
    } catch {
      stamps.push(file);
    }
  };
  for (const m of modules) stamp(fileURLToPath(new URL(m, import.meta.url)));
  return stamps.join(',');
}

/** A position as the cache keeps it: without the file's path, which depends on where pvlint runs. */
interface StoredPosition {
  region: Region;
  note?: string;
}

/**
 * What an earlier run learnt about one text besides its objects: where findings' paths are (so a warm run does not
 * parse a document again to point at it) and which objects passed the shape check (so it needs no validator).
 * Saved with the cache when this run added to it.
 */
class FileMemo {
  positions: Record<string, StoredPosition>;
  shapeClean: (boolean | undefined)[];
  private dirty = false;

  constructor(
    private readonly cache: LintCache,
    private readonly hash: string,
  ) {
    this.positions = cache.get<Record<string, StoredPosition>>('positions', hash) ?? {};
    this.shapeClean = cache.get<(boolean | undefined)[]>('shape', hash) ?? [];
    cache.onSave(() => {
      if (!this.dirty) return;
      this.cache.set('positions', this.hash, this.positions);
      this.cache.set('shape', this.hash, this.shapeClean);
    });
  }

  memoFor(file: SourceFile, index: number): PositionMemo {
    const prefix = `${index}\u0000`;
    return {
      get: (path) => {
        const stored = this.positions[prefix + JSON.stringify(path)];
        if (!stored) return undefined;
        return { location: { file: file.path, region: stored.region }, ...(stored.note !== undefined ? { note: stored.note } : {}) };
      },
      set: (path, located) => {
        // Only what the text alone decides: a position in this file, with no related places.
        if (located.location.file !== file.path || located.related) return;
        this.positions[prefix + JSON.stringify(path)] = { region: located.location.region, ...(located.note !== undefined ? { note: located.note } : {}) };
        this.dirty = true;
      },
    };
  }

  recordShape(index: number, clean: boolean): void {
    if (this.shapeClean[index] === clean) return;
    this.shapeClean[index] = clean;
    this.dirty = true;
  }
}

/** The cache memo and index of a resource read through the cache. */
const SLOTS = new WeakMap<Resource, { memo: FileMemo; index: number }>();

/** After the shape check: which objects passed it (kept for the next run). */
export function recordShapeResults(resources: readonly Resource[], clean: ReadonlySet<Resource>): void {
  for (const resource of resources) {
    const slot = SLOTS.get(resource);
    if (slot) slot.memo.recordShape(slot.index, clean.has(resource));
  }
}

/** @param key the hash of `file.text`, when the caller has it already. */
export function parseWithCache(
  file: SourceFile, limits: Partial<Limits> | undefined, plan: KindPlan | undefined, cache: LintCache | undefined, lazyPositions = false,
  key = cache ? contentHash(file.text) : '',
): ParsedFile {
  if (!cache) return parseResources(file, limits, plan, lazyPositions);
  let counted = false;
  if (cache.has('parse', key)) {
    // A hit, or (an entry that no longer reads) a miss: counted either way.
    const hit = cache.get<ParseRecord>('parse', key);
    if (hit) return withMemo(file, key, fromRecord(file, hit, limits), cache);
    counted = true;
  }
  const parsed = parseResources(file, limits, plan, lazyPositions);
  // Helm streams are never stored (their documents map to templates through the parsed documents themselves), so
  // they are not a miss either.
  if (parsed.helm) return parsed;
  if (!counted) cache.countMiss();
  const record = toRecord(file, parsed);
  if (!record) return parsed;
  cache.set('parse', key, record);
  return withMemo(file, key, parsed, cache);
}

/**
 * A file a worker thread parsed (`record`, the same form the cache stores): its resources, with YAML nodes made on
 * first use. With a cache, the record is stored as if this thread had parsed the file.
 */
export function adoptRecord(
  file: SourceFile, record: ParseRecord, limits: Partial<Limits> | undefined, cache: LintCache | undefined,
  key = cache ? contentHash(file.text) : '',
): ParsedFile {
  const parsed = fromRecord(file, record, limits);
  if (!cache) return parsed;
  cache.set('parse', key, record);
  return withMemo(file, key, parsed, cache);
}

/** Positions and shape results of earlier runs for the file's objects, and a place to keep this run's. */
function withMemo(file: SourceFile, key: string, parsed: ParsedFile, cache: LintCache): ParsedFile {
  // Most files hold no object a rule reads: nothing to remember about them.
  if (parsed.resources.length === 0) return parsed;
  const memo = new FileMemo(cache, key);
  parsed.resources.forEach((resource, index) => {
    SLOTS.set(resource, { memo, index });
    cache.positions.set(resource, memo.memoFor(file, index));
    if (memo.shapeClean[index] === true) markShapeClean(resource);
  });
  return parsed;
}

