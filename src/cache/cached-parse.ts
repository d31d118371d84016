// parseResources through the `--cache`: a file whose text was parsed before (same hash, same pvlint, kinds and
// limits: the cache's context) gets its objects, diagnostics and deferred documents back without parsing. Positions
// are not stored: a cached object's YAML node is made by parsing its one document again when something (a finding,
// a suppression annotation) asks for it.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Limits } from '../load/limits.js';
import { itemPathOf, makeResource, reparsedNode, parseResources, type KindPlan, type ParseDiagnostic, type ParsedFile } from '../load/parse-resources.js';
import type { DocumentSpan } from '../load/document-scan.js';
import { markShapeClean } from '../engine/shape-check.js';
import { hasSourceComments } from '../render/helm-stream.js';
import { setPositionMemo, type PositionMemo } from '../locate/locate.js';
import type { Region, Resource, SourceFile } from '../types.js';
import { contentHash, type LintCache } from './lint-cache.js';

interface CachedParse {
  documentCount: number;
  skipped: number;
  /** [start, end] of each document. */
  spans: [number, number][];
  resources: { docIndex: number; items: readonly number[]; object: unknown }[];
  diagnostics: { ruleId: ParseDiagnostic['ruleId']; message: string; region: Region }[];
  deferred: { kind: string; docIndex: number }[];
}

/**
 * The size and modification time of the modules whose code decides what parsing gives: a rebuilt pvlint with the
 * same version number (a development build, a patched install) must not read entries its predecessor wrote.
 */
export function parserStamp(): string {
  const modules = [
    '../load/parse-resources.js', '../load/yaml-stream.js', '../load/document-scan.js', './cached-parse.js', '../render/kustomize-render.js',
    '../locate/locate-node.js', '../engine/shape-check.js', '../../../schemas/resources',
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

export function parseWithCache(file: SourceFile, limits: Partial<Limits> | undefined, plan: KindPlan | undefined, cache: LintCache | undefined, lazyPositions = false): ParsedFile {
  if (!cache) return parseResources(file, limits, plan, lazyPositions);
  const key = contentHash(file.text);
  // Helm streams are never stored (their documents map to templates through the parsed documents themselves): not a
  // miss either. Checked only when there is no entry, so a warm run does not scan every text for `# Source:`.
  if (!cache.has('parse', key) && hasSourceComments(file.text)) return parseResources(file, limits, plan, lazyPositions);
  const hit = cache.get<CachedParse | EmptyParse>('parse', key);
  let parsed: ParsedFile;
  if (isEmptyParse(hit)) return emptyParse(hit);
  if (hit) {
    parsed = rebuild(file, hit, limits);
  } else {
    parsed = parseResources(file, limits, plan, lazyPositions);
    if (parsed.helm) return parsed;
    const entry = toEntry(file, parsed);
    if (!entry) return parsed;
    const empty = entry.resources.length === 0 && entry.diagnostics.length === 0 && entry.deferred.length === 0;
    cache.set('parse', key, empty ? ([entry.documentCount, entry.skipped] satisfies EmptyParse) : entry);
  }
  // Most files hold no object a rule reads: nothing to remember about them.
  if (parsed.resources.length === 0) return parsed;
  const memo = new FileMemo(cache, key);
  parsed.resources.forEach((resource, index) => {
    SLOTS.set(resource, { memo, index });
    setPositionMemo(resource, memo.memoFor(file, index));
    if (memo.shapeClean[index] === true) markShapeClean(resource);
  });
  return parsed;
}

/** A file that gave nothing but a document count (most files of a repo): `[documentCount, skipped]`. */
type EmptyParse = readonly [number, number];

function isEmptyParse(value: CachedParse | EmptyParse | undefined): value is EmptyParse {
  return Array.isArray(value);
}

function emptyParse([documentCount, skipped]: EmptyParse): ParsedFile {
  return { resources: [], diagnostics: [], documents: [], documentCount, skipped, deferred: [], helm: false };
}

/** What to store; undefined when the result depends on more than the text (a message that names the file). */
function toEntry(file: SourceFile, parsed: ParsedFile): CachedParse | undefined {
  if (!parsed.spans) return undefined;
  if (parsed.diagnostics.some((d) => d.message.includes(file.path) || d.location.file !== file.path)) return undefined;
  return {
    documentCount: parsed.documentCount,
    skipped: parsed.skipped,
    spans: parsed.spans.map((s) => [s.start, s.end]),
    resources: parsed.resources.map((r) => ({ docIndex: r.docIndex, items: itemPathOf(r), object: r.object })),
    diagnostics: parsed.diagnostics.map((d) => ({ ruleId: d.ruleId, message: d.message, region: d.location.region })),
    deferred: parsed.deferred.map((d) => ({ kind: d.kind, docIndex: d.docIndex })),
  };
}

function rebuild(file: SourceFile, entry: CachedParse, limits: Partial<Limits> | undefined): ParsedFile {
  const spans: DocumentSpan[] = entry.spans.map(([start, end]) => ({ start, end }));
  const resources = entry.resources.map(({ docIndex, items, object }) =>
    // The text is the one the entry was made from (same hash), so the document parses as it did then.
    makeResource(file, docIndex, () => reparsedNode(file, spans[docIndex], items, limits), object),
  );
  return {
    resources,
    diagnostics: entry.diagnostics.map((d) => ({ ruleId: d.ruleId, message: d.message, location: { file: file.path, region: d.region } })),
    documents: [],
    documentCount: entry.documentCount,
    skipped: entry.skipped,
    deferred: entry.deferred.map((d) => ({ kind: d.kind, file, docIndex: d.docIndex, span: spans[d.docIndex] })),
    spans,
    helm: false,
  };
}
