// Splits a YAML stream into documents the way `parseAllDocuments` does, but never lets one document hang or
// crash the run. Before a document is composed, its concrete syntax tree (built without recursion) is measured:
// a document larger than `maxDocumentBytes`, nested deeper than `maxDepth`, or holding more than `maxAliasCount`
// anchors and aliases is not composed at all and becomes a limit problem at its first line. Duplicate keys are
// found in one pass (the `yaml` library's own check compares every key with every other: quadratic), and alias
// expansion is bounded twice: by `yaml`'s own count and by the size of the expanded value.
//
// Merge keys (`<<: *base`) are resolved, as kubectl's YAML reader (YAML 1.1) does. Documents keep their indices,
// so a document skipped here still counts in `docIndex` (a placeholder without contents takes its place).
import { Composer, Document, isMap, isPair, isScalar, isSeq, Lexer, Parser, YAMLParseError, type CST, type Node as YamlNode } from 'yaml';
import { splitDocuments, UNICODE_BREAKS, type DocumentSpan } from './document-scan.js';
import { formatBytes, resolveLimits, type Limits } from './limits.js';
import { toJsonValue } from './json-value.js';

export interface DocumentStats {
  /** Offset of the document's first character (its `---` when it has one). */
  offset: number;
  /** Offset of its content (where a problem with the whole document is reported). */
  contentOffset: number;
  /** Characters from the first to the last token of the document. */
  bytes: number;
  /** Deepest nesting of collections (a top-level map is 1); stops counting just past the limit. */
  depth: number;
  anchors: number;
  aliases: number;
  /** Tags (`!!binary`, `!local`): only a tagged document can hold values JSON has no type for. */
  tags?: number;
}

export interface LimitProblem {
  docIndex: number;
  /** Where the document starts. */
  offset: number;
  message: string;
}

export interface ParsedStream {
  /** Every document of the stream, in order; a document over a limit is an empty placeholder with one error. */
  documents: Document.Parsed[];
  /** Documents not composed because of a limit, by index. */
  limited: Map<number, LimitProblem>;
  stats: DocumentStats[];
  /** Errors outside any document (a stream with no document at all). */
  streamErrors: YAMLParseError[];
  /** Each document's place in the text, when the stream was split at `---` lines. */
  spans?: DocumentSpan[];
  /** Values counted in the documents parsed (what `maxTotalNodes` adds up; skipped documents count nothing). */
  nodes: number;
  /** Parsing stopped at `maxTotalNodes`: the result depends on what the run parsed before, not only on the text. */
  cut?: boolean;
}

const COMPOSE_OPTIONS = { uniqueKeys: false, merge: true, strict: false, logLevel: 'error', prettyErrors: false } as const;

type Item = CST.CollectionItem;

/** Walks a document's CST with an explicit stack: no recursion, so no stack overflow however deep the input. */
function scanDocument(token: CST.Document, limits: Limits): DocumentStats {
  const contentOffset = token.value && 'offset' in token.value ? token.value.offset : token.offset;
  const stats: DocumentStats = { offset: token.offset, contentOffset, bytes: 0, depth: 0, anchors: 0, aliases: 0 };
  let end = token.offset;
  const seeSource = (list: readonly CST.SourceToken[] | undefined) => {
    if (!list) return;
    for (const t of list) {
      if (t.type === 'anchor') stats.anchors++;
      else if (t.type === 'tag') stats.tags = (stats.tags ?? 0) + 1;
      end = Math.max(end, t.offset + t.source.length);
    }
  };
  const stack: { token: CST.Token; depth: number }[] = [];
  seeSource(token.start);
  seeSource(token.end);
  if (token.value) stack.push({ token: token.value, depth: 0 });
  while (stack.length > 0) {
    const { token: t, depth } = stack.pop()!;
    switch (t.type) {
      case 'alias':
        stats.aliases++;
        end = Math.max(end, t.offset + t.source.length);
        seeSource(t.end);
        break;
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        end = Math.max(end, t.offset + t.source.length);
        seeSource(t.end);
        break;
      case 'block-scalar':
        end = Math.max(end, t.offset + t.source.length);
        for (const prop of t.props) {
          if (prop.type === 'anchor') stats.anchors++;
          else if (prop.type === 'tag') stats.tags = (stats.tags ?? 0) + 1;
        }
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        const level = depth + 1;
        if (level > stats.depth) stats.depth = level;
        // Past the limit the exact depth no longer matters; stop descending so the walk stays cheap.
        if (level > limits.maxDepth) break;
        if (t.type === 'flow-collection') {
          seeSource([t.start]);
          seeSource(t.end);
        }
        for (const item of t.items as Item[]) {
          seeSource(item.start);
          seeSource(item.sep);
          if (item.key) stack.push({ token: item.key, depth: level });
          if (item.value) stack.push({ token: item.value, depth: level });
        }
        break;
      }
      default:
        if ('offset' in t && 'source' in t && typeof t.source === 'string') end = Math.max(end, t.offset + t.source.length);
    }
  }
  stats.bytes = end - token.offset;
  return stats;
}

function limitMessage(stats: DocumentStats, limits: Limits): string | undefined {
  if (stats.bytes > limits.maxDocumentBytes) {
    return `document is ${formatBytes(stats.bytes)}, larger than the ${formatBytes(limits.maxDocumentBytes)} limit (maxDocumentBytes); it is not linted`;
  }
  if (stats.depth > limits.maxDepth) {
    return `document nests maps and lists more than ${limits.maxDepth} levels deep (maxDepth); it is not linted`;
  }
  if (stats.anchors + stats.aliases > limits.maxAliasCount) {
    return `document holds ${stats.anchors} anchors and ${stats.aliases} aliases, more than the ${limits.maxAliasCount} allowed (maxAliasCount); it is not linted`;
  }
  return undefined;
}

function placeholder(stats: DocumentStats, message: string): Document.Parsed {
  const doc = new Document(null, COMPOSE_OPTIONS) as Document.Parsed;
  const end = stats.offset + stats.bytes;
  doc.range = [stats.offset, end, end];
  doc.contents = null as any;
  doc.errors = [new YAMLParseError([stats.offset, stats.offset + 1], 'RESOURCE_EXHAUSTION', message)];
  return doc;
}

/** A key's identity for duplicate detection, as `yaml`'s own check sees it: scalars by value; others never equal. */
function keyIdentity(key: unknown): string | undefined {
  if (!isScalar(key)) return undefined;
  const value = key.value;
  if (value === null || value === undefined) return 'null:';
  if (typeof value === 'object') return undefined;
  return `${typeof value}:${String(value)}`;
}

/** Adds a DUPLICATE_KEY error for every repeated scalar key, in one pass over the document. */
function checkDuplicateKeys(doc: Document.Parsed): void {
  if (!doc.contents) return;
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Map<string, YamlNode>();
      for (const pair of node.items) {
        const id = keyIdentity(pair.key);
        if (id !== undefined && id !== 'string:<<') {
          const first = seen.get(id);
          const keyNode = pair.key as YamlNode;
          if (first) {
            const range = keyNode.range ?? [0, 0, 0];
            doc.errors.push(new YAMLParseError([range[0], range[1]], 'DUPLICATE_KEY', `Map keys must be unique: "${String((pair.key as any).value)}" is set twice`));
          } else {
            seen.set(id, keyNode);
          }
        }
        stack.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (isPair(node)) {
      stack.push(node.key, node.value);
    }
  }
}

/** The placeholder of a document the caller chose not to parse (`parseStream`'s `skip`): no contents, no errors. */
export const SKIPPED_DOCUMENT: Document.Parsed = Object.freeze(Object.assign(new Document(null, COMPOSE_OPTIONS), { contents: null })) as unknown as Document.Parsed;

/** The placeholder of a document with no content at all (`---` and comments): no contents, no errors. */
export const EMPTY_DOCUMENT: Document.Parsed = Object.freeze(Object.assign(new Document(null, COMPOSE_OPTIONS), { contents: null })) as unknown as Document.Parsed;

const HAS_CONTENT = /^[ \t]*[^#\s]/m;

/** An empty document with the range the parser gives one: from the span's start to the end of its last token. */
function emptyDocumentAt(text: string, span: DocumentSpan): Document.Parsed {
  let end = span.end;
  while (end > span.start && /\s/.test(text[end - 1])) end--;
  // A comment's token takes its line break along.
  const line = text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
  if (/(?:^|\s)#/.test(line) && end < span.end) end += text[end] === '\r' && text[end + 1] === '\n' ? 2 : 1;
  return Object.assign(Object.create(EMPTY_DOCUMENT) as Document.Parsed, { range: [span.start, end, end] });
}

function isEmptySpan(text: string, span: DocumentSpan): boolean {
  const start = text.startsWith('---', span.start) ? span.start + 3 : span.start;
  // A span is short when it is empty; a long one is cheaper to parse than to copy for this test.
  if (span.end - start > 256) return false;
  return !HAS_CONTENT.test(text.slice(start, span.end));
}

/**
 * What `parseStream` calls with each document as soon as it is parsed (placeholders too, but not skipped or empty
 * ones). Returning false lets the document go at once: `EMPTY_DOCUMENT` takes its place in `documents`, so a file's
 * syntax trees are never all held together.
 */
export type ConsumeDocument = (doc: Document.Parsed, docIndex: number, limit: LimitProblem | undefined, stats: DocumentStats, span: DocumentSpan | undefined) => boolean;

/**
 * Parses a stream into documents, refusing documents over the limits before they are composed.
 *
 * Documents are split at `---` lines first, as kubectl's reader does (`YAMLReader` in k8s.io/apimachinery
 * pkg/util/yaml), and each is parsed on its own: an unclosed quote or bracket breaks its own document, not the ones
 * after it, and a document `skip` rejects (the kind pre-scan) is never parsed (`SKIPPED_DOCUMENT` holds its place).
 * A stream whose documents the text does not show (directives, `...` markers) is parsed as one.
 */
export function parseStream(text: string, given?: Partial<Limits>, skip?: (span: DocumentSpan, docIndex: number) => boolean, consume?: ConsumeDocument): ParsedStream {
  const limits = resolveLimits(given);
  const split = splitDocuments(text, limits.maxFileDocuments);
  if (!split) {
    const whole = parseSpan(text, given);
    if (consume) whole.documents.forEach((doc, i) => consume(doc, i, whole.limited.get(i), whole.stats[i], undefined));
    return whole;
  }
  const result: ParsedStream = { documents: [], limited: new Map(), stats: [], streamErrors: [], spans: split.spans, nodes: 0 };
  const push = (doc: Document.Parsed, stats: DocumentStats, span: DocumentSpan, limit?: LimitProblem) => {
    const docIndex = result.documents.length;
    if (limit) result.limited.set(docIndex, { ...limit, docIndex });
    result.stats.push(stats);
    result.documents.push(consume && !consume(doc, docIndex, result.limited.get(docIndex), stats, span) ? EMPTY_DOCUMENT : doc);
  };
  const refuseRest = (span: DocumentSpan, message: string) => {
    const s: DocumentStats = { offset: span.start, contentOffset: span.start, bytes: text.length - span.start, depth: 0, anchors: 0, aliases: 0 };
    push(placeholder(s, message), s, { start: span.start, end: text.length }, { docIndex: result.documents.length, offset: span.start, message });
  };
  if (split.overAt !== undefined) {
    // The documents before the limit are linted; the rest of the file becomes one limit problem.
    const over: DocumentSpan = { start: split.overAt, end: text.length };
    split.spans.push(over);
  }
  for (const span of split.spans) {
    const docIndex = result.documents.length;
    if (split.overAt !== undefined && span.start === split.overAt && docIndex === limits.maxFileDocuments) {
      refuseRest(span, `the file holds more than ${limits.maxFileDocuments.toLocaleString('en-US')} YAML documents (maxFileDocuments); this one and the rest of the file are not linted`);
      break;
    }
    const refused = refusedSeparator(text, span);
    if (refused !== undefined) {
      const s: DocumentStats = { offset: span.start, contentOffset: span.start, bytes: span.end - span.start, depth: 0, anchors: 0, aliases: 0 };
      const doc = placeholder(s, refused);
      doc.errors = [new YAMLParseError([span.start, span.start + 3], 'BAD_INDENT', refused)];
      push(doc, s, span);
      continue;
    }
    if (isEmptySpan(text, span)) {
      // Nothing but `---`, white space and comments: a light empty document (its range on top of the shared
      // EMPTY_DOCUMENT), not a parser and a Document each.
      result.documents.push(emptyDocumentAt(text, span));
      result.stats.push({ offset: span.start, contentOffset: span.start, bytes: span.end - span.start, depth: 0, anchors: 0, aliases: 0 });
      continue;
    }
    if (skip?.(span, docIndex)) {
      result.documents.push(SKIPPED_DOCUMENT);
      result.stats.push({ offset: span.start, contentOffset: span.start, bytes: span.end - span.start, depth: 0, anchors: 0, aliases: 0 });
      continue;
    }
    if (result.nodes >= limits.maxTotalNodes) {
      result.cut = true;
      refuseRest(span, 'the objects parsed in this run already hold as many values as one run may (maxTotalNodes); this document and the rest of the file are not linted');
      break;
    }
    const one = parseSpan(text, given, span);
    result.nodes += one.nodes;
    const doc = one.documents[0];
    if (!doc) {
      // A span with content always makes a document; if the parser disagrees, its error stands in for it.
      const error = one.streamErrors[0] ?? new YAMLParseError([span.start, span.start + 1], 'UNEXPECTED_TOKEN', 'document could not be read');
      const placeholderDoc = placeholder({ offset: span.start, contentOffset: span.start, bytes: span.end - span.start, depth: 0, anchors: 0, aliases: 0 }, error.message);
      placeholderDoc.errors = [error];
      push(placeholderDoc, one.stats[0] ?? { offset: span.start, contentOffset: span.start, bytes: 0, depth: 0, anchors: 0, aliases: 0 }, span);
      continue;
    }
    push(doc, one.stats[0], span, one.limited.get(0));
  }
  return result;
}

/** Parses `text` as one stream, or with `span` only that part of it (positions stay offsets in `text`). */
export function parseSpan(text: string, given?: Partial<Limits>, span?: DocumentSpan): ParsedStream {
  const limits = resolveLimits(given);
  const documents: Document.Parsed[] = [];
  const stats: DocumentStats[] = [];
  const limited = new Map<number, LimitProblem>();
  const pending: DocumentStats[] = [];
  const composer = new Composer(COMPOSE_OPTIONS);
  const emit = (doc: Document.Parsed) => {
    const s = pending.shift() ?? { offset: doc.range[0], contentOffset: doc.range[0], bytes: doc.range[1] - doc.range[0], depth: 0, anchors: 0, aliases: 0 };
    checkDuplicateKeys(doc);
    documents.push(doc);
    stats.push(s);
  };
  const parser = new Parser();
  let source = text;
  if (span) {
    parser.offset = span.start;
    source = text.slice(span.start, span.end);
  }
  source = asGoYamlReadsIt(source, span !== undefined && span.start > 0);
  const counted = countedTokens(parser, source, limits);
  for (const token of counted.tokens) {
    if (token.type === 'document') {
      const s = scanDocument(token, limits);
      const message = limitMessage(s, limits);
      if (message !== undefined) {
        for (const doc of composer.end(false)) emit(doc as Document.Parsed);
        limited.set(documents.length, { docIndex: documents.length, offset: s.contentOffset, message });
        documents.push(placeholder(s, message));
        stats.push(s);
        continue;
      }
      pending.push(s);
    }
    for (const doc of composer.next(token)) emit(doc as Document.Parsed);
  }
  if (counted.overAt !== undefined) {
    // The parser stopped inside a document: what it built of it is dropped, and the document (with the rest of an
    // unsplittable stream) becomes one limit problem.
    const offset = counted.overAt;
    const end = span ? span.end : text.length;
    const s: DocumentStats = { offset, contentOffset: offset, bytes: end - offset, depth: 0, anchors: 0, aliases: 0 };
    const message = counted.tooManyDocuments
      ? `the stream holds more than ${limits.maxFileDocuments.toLocaleString('en-US')} YAML documents (maxFileDocuments); this one and the rest are not linted`
      : `document holds more than ${limits.maxDocumentNodes.toLocaleString('en-US')} values (maxDocumentNodes); it is not linted`;
    pending.length = 0;
    limited.set(documents.length, { docIndex: documents.length, offset, message });
    documents.push(placeholder(s, message));
    stats.push(s);
    return { documents, limited, stats, streamErrors: [], nodes: counted.nodes };
  }
  for (const doc of composer.end(false)) emit(doc as Document.Parsed);
  const streamErrors = documents.length === 0 ? [...composer.streamInfo().errors] : [];
  return { documents, limited, stats, streamErrors, nodes: counted.nodes };
}

const UNICODE_LINE_BREAKS = /[\u0085\u2028\u2029]/g;
/** A byte order mark at the start of a document, after its `---` line. */
const DOCUMENT_BOM = /^(---[^\n]*\n)\uFEFF/;

/**
 * The text as Go's YAML reader (kustomize, kubectl) reads it, with every offset kept (each replacement is one
 * character for one): NEL, U+2028 and U+2029 are line breaks to it, as in YAML 1.1, where YAML 1.2 and the `yaml`
 * library read them as ordinary characters; a byte order mark at the start of a document after `---` is skipped
 * (kyaml decodes each document as a stream of its own), where `yaml` would make it part of the first key. A mark
 * at the start of the file is the lexer's own business.
 */
function asGoYamlReadsIt(source: string, documentAfterSeparator: boolean): string {
  if (!UNICODE_BREAKS.test(source)) return source;
  let result = source.replace(UNICODE_LINE_BREAKS, '\n');
  if (documentAfterSeparator) result = result.replace(DOCUMENT_BOM, '$1\n');
  return result;
}

/**
 * Why kustomize refuses a document's `---` line, if it does: kyaml's `splitDocuments` takes a whole `\n`-ended line
 * starting with `---` as the separator and fails the build when anything but white space or a comment follows the
 * marker. Only a Unicode line break can put such text there without `yaml` reading it as the document's content.
 */
export function refusedSeparator(text: string, span: DocumentSpan): string | undefined {
  if (!text.startsWith('---', span.start)) return undefined;
  const lineEnd = text.indexOf('\n', span.start);
  const rest = text.slice(span.start + 3, lineEnd === -1 ? span.end : Math.min(lineEnd, span.end));
  const odd = /[\u0085\u2028\u2029]/.exec(rest);
  if (!odd) return undefined;
  const after = rest.trim();
  if (after === '' || after.startsWith('#')) return undefined;
  const name = odd[0] === '\u0085' ? 'NEL (U+0085)' : `U+${odd[0].charCodeAt(0).toString(16).toUpperCase()}`;
  return `the document separator line holds more after \`---\` and a ${name} line break, which kustomize and kubectl do not split lines at: kustomize refuses the file ("invalid document separator"); end the line with a newline`;
}

/** Lexemes that start a value or an entry: a plain scalar (its marker), a quoted or block scalar, a collection, an alias, `,`, `-`, `?`, `:`. */
const VALUE_LEXEMES = new Set(['\x1f', '[', '{', ',', '-', '?', ':']);
const VALUE_FIRST_CHARS = new Set(['"', "'", '|', '>', '*']);

/**
 * The parser's tokens, driven lexeme by lexeme so the values of each document are counted while it is read: once a
 * document passes `maxNodes`, parsing stops before its syntax tree grows any further (a flow list of millions of
 * one-character items is refused after reading `maxNodes` of them, never held whole). `overAt` is then the offset
 * of that document's start. Counting is an upper bound on the nodes the document would make.
 */
interface CountedTokens {
  tokens: Iterable<CST.Token>;
  /** Values counted in the whole source, once `tokens` has been read to its end. */
  nodes: number;
  overAt?: number;
  tooManyDocuments?: boolean;
}

function countedTokens(parser: Parser, source: string, limits: Limits): CountedTokens {
  const result: CountedTokens = { tokens: [], nodes: 0 };
  result.tokens = (function* () {
    let nodes = 0;
    let documents = 0;
    let documentStart = parser.offset;
    let afterScalarMarker = false;
    for (const lexeme of new Lexer().lex(source)) {
      if (lexeme === '---') {
        nodes = 0;
        documentStart = parser.offset;
        if (++documents > limits.maxFileDocuments) {
          result.overAt = documentStart;
          result.tooManyDocuments = true;
          return;
        }
      } else if (lexeme === '...') {
        nodes = 0;
      } else if (VALUE_LEXEMES.has(lexeme) || (!afterScalarMarker && VALUE_FIRST_CHARS.has(lexeme[0]))) {
        result.nodes++;
        if (++nodes > limits.maxDocumentNodes) {
          result.overAt = documentStart;
          return;
        }
      }
      afterScalarMarker = lexeme === '\x1f';
      yield* parser.next(lexeme);
    }
    yield* parser.end();
  })();
  return result;
}

export type ToJSResult = { value: unknown } | { limit: string } | { error: string };

/** Counts the values of `value` (shared references once per path, as any reader would walk them) up to `budget`. */
function exceedsSize(value: unknown, budget: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (++count > budget) return true;
    if (v !== null && typeof v === 'object') {
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) stack.push(v[i]);
      else for (const key of Object.keys(v)) stack.push((v as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * The document as plain JSON, or why it cannot be: aliases expanding past `maxAliasCount` (yaml's count) or to
 * more than ten values per source character (a small anchor repeated a thousand times is fine; a large one is not).
 */
export function documentToJS(doc: Document.Parsed, stats: DocumentStats | undefined, given?: Partial<Limits>): ToJSResult {
  const limits = resolveLimits(given);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: limits.maxAliasCount });
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    if (/resource exhaustion|alias count/i.test(message)) {
      return { limit: `aliases in this document expand too many times (more than maxAliasCount, ${limits.maxAliasCount}); it is not linted` };
    }
    if (error instanceof RangeError) return { limit: `document is too deeply nested to read (${message}); it is not linted` };
    return { error: message.split('\n')[0] };
  }
  // A tag can make a value JSON has no type for (Uint8Array, Date, Set, Map); make it what the API server sees.
  if (!stats || stats.tags) value = toJsonValue(value);
  if (stats && stats.aliases > 0 && exceedsSize(value, 10 * stats.bytes + 10_000)) {
    return { limit: `aliases in this document expand it to more than ten values per character of source (maxAliasCount); it is not linted` };
  }
  return { value };
}

