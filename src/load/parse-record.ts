// A parsed file as plain data: what the `--cache` stores and what a parse worker sends back. Objects, document
// spans, diagnostics (with regions) and deferred documents; no YAML nodes. `fromRecord` makes the file's resources
// again, with each node made on first use by parsing its one document from the same text.
import type { DocumentSpan } from './document-scan.js';
import type { Limits } from './limits.js';
import { itemPathOf, makeResource, reparsedNode, type ParseDiagnostic, type ParsedFile } from './parse-resources.js';
import type { Region, SourceFile } from '../types.js';

export interface FullRecord {
  documentCount: number;
  skipped: number;
  /** [start, end] of each document. */
  spans: [number, number][];
  resources: { docIndex: number; items: readonly number[]; object: unknown }[];
  diagnostics: { ruleId: ParseDiagnostic['ruleId']; message: string; region: Region }[];
  deferred: { kind: string; docIndex: number }[];
  /** `ParsedFile.nodes`. */
  nodes: number;
}

/**
 * A file that gave nothing but a document count (most files of a repo): `[documentCount, skipped]`, and for a
 * template file (not linted) the kind of its markers third.
 */
export type EmptyRecord = readonly [number, number] | readonly [number, number, string];

export type ParseRecord = FullRecord | EmptyRecord;

function isEmptyRecord(record: ParseRecord): record is EmptyRecord {
  return Array.isArray(record);
}

/**
 * The record of a parsed file; undefined when the result depends on more than the text (a message that names the
 * file, a parse cut short by the run's `maxTotalNodes`), or when the text was not split into documents (a stream with directives: its spans are unknown).
 */
export function toRecord(file: SourceFile, parsed: ParsedFile): ParseRecord | undefined {
  if (!parsed.spans || parsed.helm || parsed.cut) return undefined;
  if (parsed.diagnostics.some((d) => d.message.includes(file.path) || d.location.file !== file.path)) return undefined;
  if (parsed.template !== undefined) return [parsed.documentCount, parsed.skipped, parsed.template];
  if (parsed.resources.length === 0 && parsed.diagnostics.length === 0 && parsed.deferred.length === 0) return [parsed.documentCount, parsed.skipped];
  return {
    documentCount: parsed.documentCount,
    skipped: parsed.skipped,
    spans: parsed.spans.map((s) => [s.start, s.end]),
    resources: parsed.resources.map((r) => ({ docIndex: r.docIndex, items: itemPathOf(r), object: r.object })),
    diagnostics: parsed.diagnostics.map((d) => ({ ruleId: d.ruleId, message: d.message, region: d.location.region })),
    deferred: parsed.deferred.map((d) => ({ kind: d.kind, docIndex: d.docIndex })),
    nodes: parsed.nodes,
  };
}

/** The parsed file a record stands for. `file.text` must be the text the record was made from. */
export function fromRecord(file: SourceFile, record: ParseRecord, limits: Partial<Limits> | undefined): ParsedFile {
  if (isEmptyRecord(record)) {
    const [documentCount, skipped, template] = record;
    return { resources: [], diagnostics: [], documents: [], documentCount, skipped, deferred: [], helm: false, nodes: 0, ...(template !== undefined ? { template } : {}) };
  }
  const spans: DocumentSpan[] = record.spans.map(([start, end]) => ({ start, end }));
  const resources = record.resources.map(({ docIndex, items, object }) =>
    makeResource(file, docIndex, () => reparsedNode(file, spans[docIndex], items, limits), object),
  );
  return {
    resources,
    diagnostics: record.diagnostics.map((d) => ({ ruleId: d.ruleId, message: d.message, location: { file: file.path, region: d.region } })),
    documents: [],
    documentCount: record.documentCount,
    skipped: record.skipped,
    deferred: record.deferred.map((d) => ({ kind: d.kind, file, docIndex: d.docIndex, span: spans[d.docIndex] })),
    spans,
    helm: false,
    nodes: typeof record.nodes === 'number' ? record.nodes : 0,
  };
}
