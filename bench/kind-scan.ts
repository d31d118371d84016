import { parseAllDocuments } from 'yaml';

/** `yaml`'s options as pvlint parses with them. */
export const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: true, strict: false, logLevel: 'error' } as const;

// The cheap pre-scan behind floor B': split a file into documents at `---` lines and read each one's
// top-level `kind:` line without parsing. Documents in flow style (JSON) have no such line and are kept.
export interface ScannedDocument {
  /** The document's text (a slice of the file). */
  text: string;
  /** Its top-level kind; undefined for flow-style (JSON) documents, whose kind the scan cannot see. */
  kind: string | undefined;
  /** True when the document holds nothing but comments and blank lines. */
  empty: boolean;
}

const MARKER = /^(?:---|\.\.\.)(?:[ \t].*)?$/gm;
const KIND = /^kind:[ \t]*["']?([A-Za-z0-9.-]+)/m;
const CONTENT = /^[ \t]*[^#\s]/m;
const FLOW = /^[ \t]*[{[]/m;

export function scanDocuments(text: string): ScannedDocument[] {
  const out: ScannedDocument[] = [];
  let start = 0;
  const push = (end: number): void => {
    const chunk = text.slice(start, end);
    const kind = KIND.exec(chunk)?.[1];
    const empty = kind === undefined && !CONTENT.test(chunk);
    out.push({ text: chunk, kind, empty });
  };
  for (MARKER.lastIndex = 0; ; ) {
    const m = MARKER.exec(text);
    if (m === null) break;
    push(m.index);
    start = m.index + m[0].length;
  }
  push(text.length);
  return out;
}

/** Whether a scanned document must be parsed to lint it: a relevant kind, a `*List`, or a kind the scan cannot see. */
export function needsParse(doc: ScannedDocument, relevant: ReadonlySet<string>): boolean {
  if (doc.empty) return false;
  if (doc.kind === undefined) return FLOW.test(doc.text);
  return relevant.has(doc.kind) || doc.kind.endsWith('List');
}

/** Floors B' and R: scan a stream's documents and parse only those pvlint reads; counts what it saw and parsed. */
export function parseRelevant(text: string, relevant: ReadonlySet<string>, counts: { documents: number; parsed: number }): void {
  for (const doc of scanDocuments(text)) {
    if (doc.empty) continue;
    counts.documents++;
    if (!needsParse(doc, relevant)) continue;
    parseAllDocuments(doc.text, PARSE_OPTIONS);
    counts.parsed++;
  }
}

/** Floors B and R (parse all): every document of a stream, nothing skipped. */
export function parseEverything(text: string, counts: { documents: number; parsed: number }): void {
  const docs = parseAllDocuments(text, PARSE_OPTIONS);
  const n = Array.isArray(docs) ? docs.length : 1;
  counts.documents += n;
  counts.parsed += n;
}
