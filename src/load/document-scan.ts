// The cheap pre-scan that lets pvlint parse only the documents its rules read: split a file into YAML documents at
// `---` lines (as the `yaml` library does) and read each document's top-level `kind:` line as text. It answers
// "skip" only when it is sure: a document whose structure the text does not show (flow style, tags, anchors on the
// kind, merge keys, two `kind:` lines, a list at the top) is always parsed. A file it cannot split with certainty
// (directives, `...` document-end markers) is parsed whole.

export interface DocumentSpan {
  /** Offset of the document's first character (its `---` line, or 0 for a first document without one). */
  start: number;
  /** Offset just past its last character (the next `---`, or the end of the text). */
  end: number;
}

export interface ScannedFile {
  /** One span per document, in the order (and count) the YAML parser produces them. */
  spans: DocumentSpan[];
  /** Set when the text holds more than `maxDocuments` documents: where the first one past the limit starts. */
  overAt?: number;
}

/**
 * Where the next line that starts a new document is, at or after `from` (-1: none): `---` at the start of a line,
 * followed by white space or the end of the line, as `/(?<![^\n\r])---(?=[ \t\r\n\u0085\u2028\u2029]|(?![\s\S]))/g`
 * finds it (found with indexOf: that expression's look-behind is tried at every character). Lines are what kustomize
 * (kyaml's `splitDocuments`) and kubectl split streams at: they end at `\n` (or `\r`), never at the Unicode line
 * breaks NEL, U+2028 and U+2029, though a `---` directly followed by one of those is still a separator line (kyaml
 * then refuses it when more text follows on that line: `refusedSeparator`).
 */
function documentStart(text: string, from: number): number {
  for (let at = text.indexOf('---', from); at !== -1; at = text.indexOf('---', at + 1)) {
    const before = at === 0 ? 10 : text.charCodeAt(at - 1);
    if (before !== 10 && before !== 13) continue;
    if (at + 3 === text.length) return at;
    const after = text.charCodeAt(at + 3);
    // A space, a tab, \r, \n, NEL, U+2028 or U+2029
    if (after === 32 || after === 9 || after === 13 || after === 10 || after === 0x85 || after === 0x2028 || after === 0x2029) return at;
  }
  return -1;
}

/** Characters YAML 1.2 (the `yaml` library) and Go's YAML reader (kustomize, kubectl) read differently. */
export const UNICODE_BREAKS = /[\u0085\u2028\u2029\uFEFF]/;
/** What the line-based split cannot follow: directives (`%YAML`) and document-end markers (`...`). */
const UNSPLITTABLE = /^(?:%|\.\.\.(?:[ \t\r\n]|$))/m;
/** Any line with something other than white space and a comment. */
const CONTENT = /^[ \t]*[^#\s]/m;

/**
 * The documents of a YAML stream as text spans, or undefined when only the parser can tell where they are.
 * Equivalent to `parseAllDocuments(text).length` documents with the same boundaries (test/load/document-scan.test.ts
 * checks it on every example and fixture file).
 */
export function splitDocuments(text: string, maxDocuments = Infinity): ScannedFile | undefined {
  // The expression is tried at every character; the substrings it needs are found far faster.
  if ((text.includes('%') || text.includes('...')) && UNSPLITTABLE.test(text)) return undefined;
  const spans: DocumentSpan[] = [];
  let start = 0;
  let first = true;
  for (let from = 0; ;) {
    const at = documentStart(text, from);
    if (at === -1) break;
    from = at + 3;
    // The text before the first `---` is a document only when it holds content (comments alone belong to the next).
    if (!first || CONTENT.test(text.slice(start, at))) spans.push({ start, end: at });
    first = false;
    start = at;
    // Stop splitting at the limit: 16 MiB of `---` lines would otherwise be four million spans before any check.
    if (spans.length >= maxDocuments) return { spans, overAt: start };
  }
  if (!first || CONTENT.test(text.slice(start))) spans.push({ start, end: text.length });
  return { spans };
}

const KIND_LINE = /^kind[ \t]*:(.*)$/gm;
/** A plain or quoted kind name, then nothing but an optional comment. */
const KIND_VALUE = /^[ \t]*(["']?)([A-Za-z][A-Za-z0-9]*)\1[ \t]*(?:#.*)?\r?$/;
/** The first line with content must be a plain top-level key: then the document is a block map. */
const FIRST_CONTENT = /^[ \t]*[^#\s\r].*$/m;
/** A top-level line the simple reading above does not cover. */
const UNUSUAL_TOP_LEVEL = /^["'?&!*{[|>@`%]/m;
const PLAIN_KEY_LINE = /^[A-Za-z_][\w./-]*[ \t]*:(?:[ \t\r]|$)/;

/**
 * The document's top-level kind when the text shows it unambiguously (`''`: a block map without a top-level `kind`,
 * so not a Kubernetes object); undefined when only parsing the document can tell.
 */
export function scanKind(text: string, span: DocumentSpan): string | undefined {
  let body = text.slice(span.start, span.end);
  // Lines the text scan would end elsewhere than the parser does: only parsing can tell.
  if (UNICODE_BREAKS.test(body)) return undefined;
  if (body.startsWith('---')) {
    const lineEnd = body.indexOf('\n');
    const rest = lineEnd === -1 ? body.slice(3) : body.slice(3, lineEnd);
    // `--- !tag`, `--- {` or `--- value`: the document starts on the marker line.
    if (!/^[ \t]*(?:#.*)?\r?$/.test(rest)) return undefined;
    body = lineEnd === -1 ? '' : body.slice(lineEnd + 1);
  }
  // Without carriage returns every line ends at `\n`: one pass over the lines reads what the expressions below do.
  if (!body.includes('\r')) return scanLines(body);
  const firstContent = FIRST_CONTENT.exec(body);
  if (!firstContent || !PLAIN_KEY_LINE.test(firstContent[0])) return undefined;
  // A merge key can bring fields from an anchor, and a quoted, explicit (`? kind`), anchored or tagged key at the top
  // level can be `kind` without a `kind:` line: the text then does not show the whole object.
  if (body.includes('<<') || UNUSUAL_TOP_LEVEL.test(body)) return undefined;
  let kind: string | undefined;
  let lines = 0;
  for (KIND_LINE.lastIndex = 0; ;) {
    const match = KIND_LINE.exec(body);
    if (match === null) break;
    if (++lines > 1) return undefined;
    kind = KIND_VALUE.exec(match[1])?.[2];
    if (kind === undefined) return undefined;
  }
  // No top-level `kind:` line in a plain block map: not a Kubernetes object, whatever else it holds.
  return kind ?? '';
}

/** First characters of the top-level lines `UNUSUAL_TOP_LEVEL` refuses. */
const UNUSUAL_FIRST = new Set([..."\"'?&!*{[|>@`%"].map((c) => c.charCodeAt(0)));
const WHITE_SPACE = /\s/;

/**
 * `scanKind`'s reading of a body whose lines all end at `\n` (no `\r`, no Unicode line break), line by line instead of
 * an expression each over the whole text: the first line with content must be a plain key at the start of the line,
 * no top-level line may start unusually, and at most one may be `kind:`.
 */
function scanLines(body: string): string | undefined {
  if (body.includes('<<')) return undefined;
  let kind: string | undefined;
  let content = false;
  for (let at = 0; at < body.length; ) {
    let end = body.indexOf('\n', at);
    if (end === -1) end = body.length;
    const first = body.charCodeAt(at);
    if (UNUSUAL_FIRST.has(first)) return undefined;
    if (!content) {
      // FIRST_CONTENT: past spaces and tabs, anything but `#` and white space.
      let i = at;
      while (i < end && (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9)) i++;
      if (i < end && body[i] !== '#' && !WHITE_SPACE.test(body[i])) {
        if (!PLAIN_KEY_LINE.test(body.slice(at, end))) return undefined;
        content = true;
      }
    }
    // KIND_LINE: `kind`, spaces or tabs, `:`, then the value.
    if (first === 107 && body.startsWith('kind', at)) {
      let i = at + 4;
      while (i < end && (body.charCodeAt(i) === 32 || body.charCodeAt(i) === 9)) i++;
      if (i < end && body.charCodeAt(i) === 58) {
        if (kind !== undefined) return undefined;
        kind = KIND_VALUE.exec(body.slice(i + 1, end))?.[2];
        if (kind === undefined) return undefined;
      }
    }
    at = end + 1;
  }
  if (!content) return undefined;
  return kind ?? '';
}

/**
 * Text that makes a document matter whatever its kind: suppression annotations (an unused one is reported), and
 * the Argo CD / Flux markers and applications that decide which GitOps tool manages the objects next to them.
 */
const ALWAYS_READ = /pvlint\.dev\/|argoproj\.io|fluxcd\.io/;

/**
 * The kind of a document that can be skipped without changing any result (`''` for a map without a kind): its kind
 * is visible, not relevant, not a list, and the document carries no marker some other object's finding depends on.
 * Undefined when the document must be parsed.
 */
export function skippableKind(text: string, span: DocumentSpan, relevantKinds: ReadonlySet<string>): string | undefined {
  const kind = scanKind(text, span);
  if (kind === undefined || relevantKinds.has(kind) || kind.endsWith('List')) return undefined;
  if (kind === '') return kind;
  return ALWAYS_READ.test(text.slice(span.start, span.end)) ? undefined : kind;
}

export function canSkip(text: string, span: DocumentSpan, relevantKinds: ReadonlySet<string>): boolean {
  return skippableKind(text, span, relevantKinds) !== undefined;
}
