// Splits a file into YAML documents with positions and turns Kubernetes objects into Resources.
// A document that does not parse becomes a `pvlint/parse` diagnostic, one over a limit (size, depth, aliases) a
// `pvlint/limit` diagnostic; the other documents still count. Nothing here throws on any input.
import { type Document, isMap, isSeq, type Node as YamlNode } from 'yaml';
import { resolveLimits, type Limits } from './limits.js';
import { fastDocumentNode, fastReadDocument, fastReaderEnabled } from './fast-yaml.js';
import { regionOf } from './source-file.js';
import { hasSourceComments } from './helm-source-comments.js';
import { templateMarkers } from './template-file.js';
import { skippableKind, type DocumentSpan } from './document-scan.js';
import { documentToJS, parseSpan, parseStream, SKIPPED_DOCUMENT, type DocumentStats, type LimitProblem, type ParsedStream } from './yaml-stream.js';
import type { Origin, Resource, SourceFile, SourceLocation } from '../types.js';

export interface ParseDiagnostic {
  ruleId: 'pvlint/parse' | 'pvlint/limit';
  message: string;
  location: SourceLocation;
}

export interface ParsedFile {
  resources: Resource[];
  diagnostics: ParseDiagnostic[];
  /** The documents by index (`SKIPPED_DOCUMENT` for those the kind pre-scan skipped); Helm streams map them to templates. */
  documents: Document.Parsed[];
  /** How many documents the file holds, parsed or not. */
  documentCount: number;
  /** Documents the kind pre-scan left unparsed. */
  skipped: number;
  /** The skipped documents of a deferred kind. */
  deferred: DeferredDocument[];
  /** Where each document is in the text, when the stream was split at `---` lines (what the cache records). */
  spans?: readonly DocumentSpan[];
  /** The text is a `helm template` stream (`# Source:` comments): its documents map to templates. */
  helm: boolean;
  /** The file is a template (Go template or placeholder markers where YAML structure belongs): not parsed, not linted. */
  template?: string;
  /** Values in the documents parsed, counted while parsing (the run adds them up against `maxTotalNodes`). */
  nodes: number;
  /** Parsing stopped at the run's `maxTotalNodes`: not a result of the text alone (never cached). */
  cut?: boolean;
}

export function resourceId(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

function isKubernetesObject(value: unknown): value is { apiVersion: string; kind: string; metadata?: any; items?: unknown } {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) &&
    typeof (value as any).apiVersion === 'string' && typeof (value as any).kind === 'string'
  );
}

/**
 * A scalar field as text; undefined for anything else. `String()` of a YAML map with a `toString` key throws, and
 * the API server rejects a name that is not a string anyway (the shape check reports it).
 */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

/**
 * A Resource for an object of a document. `node` may be a function: the YAML node is then made on first use (a
 * cached object has no node until a finding needs its position).
 */
export function makeResource(file: SourceFile, docIndex: number, node: YamlNode | (() => YamlNode), object: any): Resource {
  const metadata = object.metadata !== null && typeof object.metadata === 'object' && !Array.isArray(object.metadata) ? object.metadata : undefined;
  const name = scalarText(metadata?.name) ?? scalarText(metadata?.generateName) ?? '';
  const namespace = metadata?.namespace != null ? scalarText(metadata.namespace) : undefined;
  const id = resourceId(object.kind, namespace, name);
  if (typeof node === 'function') {
    // `node` added as a new property: the object keeps fast properties. A getter in the literal, or one redefining a
    // `node` the object already has, makes it a dictionary, slower for every rule that reads it.
    const resource = { id, apiVersion: object.apiVersion, kind: object.kind, name, namespace, object, file, docIndex };
    let made: YamlNode | undefined;
    Object.defineProperty(resource, 'node', { enumerable: true, configurable: true, get: () => (made ??= node()) });
    return resource as Resource;
  }
  return { id, apiVersion: object.apiVersion, kind: object.kind, name, namespace, object, file, docIndex, node };
}

/**
 * A copy of `resource` with some fields replaced. Unlike `{ ...resource }` it does not read `node`: a node made on
 * first use stays unmade (and shared) until a finding needs it.
 */
export function deriveResource(resource: Resource, fields: Partial<Omit<Resource, 'node'>>): Resource {
  return Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(resource)), fields) as Resource;
}

/**
 * The origin of a copy made after an object was read (a namespace defaulted, metadata added, an object borrowed from
 * another environment): its fields are where the original's are, said with `note` when there is one.
 */
export interface DerivedSource extends Origin {
  kind: 'derived';
  from: Resource;
  note?: string;
}

export function derivedFrom(resource: Resource, note?: string): DerivedSource {
  return { kind: 'derived', from: resource, ...(note !== undefined ? { note } : {}) };
}

/** For an item of a `kind: List` document, the indices down its (nested) `items`. */
const ITEM_PATHS = new WeakMap<Resource, readonly number[]>();

export function itemPathOf(resource: Resource): readonly number[] {
  return ITEM_PATHS.get(resource) ?? [];
}

/** Where a document is, for objects whose nodes are made on first use by reading it again (`reparsedNode`). */
interface LazySpan {
  span: DocumentSpan;
  limits: Partial<Limits> | undefined;
}

/**
 * `kind: List` and `*List` kinds carry their objects in `items`; unwrap them, nested lists too. With `lazy`, `node`
 * is not used: each object's node is made on first use.
 */
function collect(file: SourceFile, docIndex: number, node: YamlNode, object: any, out: Resource[], items: readonly number[] = [], lazy?: LazySpan): void {
  if (!isKubernetesObject(object)) return;
  if (/List$/.test(object.kind) && Array.isArray(object.items) && items.length < 8) {
    const itemsNode = !lazy && isMap(node) ? (node.get('items', true) as YamlNode | undefined) : undefined;
    object.items.forEach((item: unknown, i: number) => {
      const itemNode = itemsNode && isSeq(itemsNode) ? (itemsNode.items[i] as YamlNode | undefined) : undefined;
      collect(file, docIndex, itemNode ?? node, item, out, [...items, i], lazy);
    });
    return;
  }
  const resource = makeResource(file, docIndex, lazy ? () => reparsedNode(file, lazy.span, items, lazy.limits) : node, object);
  if (items.length > 0) ITEM_PATHS.set(resource, items);
  out.push(resource);
}

/** Document nodes parsed again for positions, per file and document start. */
const REPARSED = new WeakMap<SourceFile, Map<number, YamlNode | null>>();

/**
 * The node of an object whose document was parsed and then let go: the document is read again (once per file and
 * document) from the same text, so positions are those of the first parse. Plain block YAML is read by the fast
 * reader into nodes with `yaml`'s ranges; anything else is parsed with `yaml` again.
 */
export function reparsedNode(file: SourceFile, span: DocumentSpan, items: readonly number[], limits: Partial<Limits> | undefined): YamlNode {
  let nodes = REPARSED.get(file);
  if (!nodes) REPARSED.set(file, (nodes = new Map()));
  if (!nodes.has(span.start)) {
    // The document was accepted already (the fast reader counts values, `yaml` tokens: up to twice as many), so its
    // node count is not checked again; its size is still bounded by maxDocumentBytes.
    const again = { ...limits, maxDocumentNodes: Number.MAX_SAFE_INTEGER };
    const root = (fastReaderEnabled() ? fastDocumentNode(file.text, span, resolveLimits(limits)) : undefined) ?? (parseSpan(file.text, again, span).documents[0]?.contents as YamlNode | null | undefined);
    nodes.set(span.start, root ?? null);
  }
  const root = nodes.get(span.start);
  if (!root) throw new Error(`pvlint: document at offset ${span.start} of ${file.path} did not parse again`);
  return itemNode(root, items);
}

/** The node of a List item, by its item path, inside a document's root node (the root when the path fails). */
export function itemNode(root: YamlNode, items: readonly number[]): YamlNode {
  let node = root;
  for (const i of items) {
    const list = isMap(node) ? (node.get('items', true) as YamlNode | undefined) : undefined;
    const next = list && isSeq(list) ? (list.items[i] as YamlNode | undefined) : undefined;
    if (!next) return node;
    node = next;
  }
  return node;
}

/** Go template markers outside a chart's templates: the file is a template, not a manifest. */
function templateHint(text: string): string {
  return text.includes('{{') ? ' (it holds Go template markers {{ }}: a template is not a manifest; render it first, or exclude it with --ignore)' : '';
}

/**
 * Which documents to parse. Documents whose top-level `kind:` line shows a kind outside `parse` are not parsed
 * (`skippableKind`): they count as documents but give no resource and no syntax error. Those of a `defer` kind are
 * kept as `DeferredDocument`s, parsed only if a rule asks the model for that kind.
 */
export interface KindPlan {
  parse: ReadonlySet<string>;
  defer?: ReadonlySet<string>;
}

/** A document left unparsed that a rule may still ask for (`parseDeferred`). */
export interface DeferredDocument {
  kind: string;
  file: SourceFile;
  docIndex: number;
  span: DocumentSpan;
}

export { setFastReader } from './fast-yaml.js';

/**
 * @param limits document size, nesting depth and alias limits (defaults: `DEFAULT_LIMITS`).
 * @param plan the kinds to parse and to defer; without it every document is parsed. Helm streams (`# Source:`
 *   comments) are always parsed whole: their documents map to templates by position.
 * @param lazyPositions let each parsed document go once its objects are read; an object's YAML node is made by
 *   parsing its document again when something locates in it (same positions, less memory, a parse per finding).
 */
export function parseResources(file: SourceFile, limits?: Partial<Limits>, plan?: KindPlan, lazyPositions = false): ParsedFile {
  const resources: Resource[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  const deferred: DeferredDocument[] = [];
  const helm = hasSourceComments(file.text);
  const template = helm ? undefined : templateMarkers(file.text);
  if (template !== undefined) return { resources, diagnostics, documents: [], documentCount: 0, skipped: 0, deferred, spans: [], helm, nodes: 0, template };
  // Documents the fast reader could read (src/load/fast-yaml.ts): not given to `yaml`, positions found on demand.
  const fast = new Map<number, Record<string, unknown>>();
  let fastNodes = 0;
  const resolved = plan && !helm && fastReaderEnabled() ? resolveLimits(limits) : undefined;
  const skip = plan && !helm
    ? (span: DocumentSpan, docIndex: number) => {
        const kind = skippableKind(file.text, span, plan.parse);
        if (kind === undefined) {
          const read = resolved && fastReadDocument(file.text, span, resolved);
          if (read === undefined) return false;
          // The node budgets hold for documents the fast reader reads too: past them, `yaml` reads and refuses them.
          // Near the run's budget `yaml` reads everything, so the cut falls where it falls with every document parsed
          // (the fast count is of values, `yaml`'s of tokens).
          const nodes = read.values;
          if (nodes > resolved!.maxDocumentNodes || resolved!.maxTotalNodes - fastNodes - nodes < 2 * resolved!.maxDocumentNodes) return false;
          fastNodes += nodes;
          fast.set(docIndex, read.value);
          return true;
        }
        if (plan.defer?.has(kind)) deferred.push({ kind, file, docIndex, span });
        return true;
      }
    : undefined;
  // Helm streams keep their documents: their locators map them to templates.
  const lazy = lazyPositions && !helm;
  // Each document is read into objects as soon as it is parsed; with lazy positions it is let go right after.
  const consume = (doc: Document.Parsed, docIndex: number, limit: LimitProblem | undefined, stats: DocumentStats, span: DocumentSpan | undefined): boolean => {
    // Positions are needed for the few objects with a finding: parse the document again then.
    const again = lazy && span ? { span, limits } : undefined;
    readDocument(file, doc, docIndex, limit, stats, limits, resources, diagnostics, again);
    return again === undefined;
  };
  let stream: ParsedStream;
  try {
    stream = parseStream(file.text, limits, skip, consume);
  } catch (error) {
    // Not expected: parseStream measures documents before composing them. Still, a file never stops the run.
    diagnostics.push({
      ruleId: 'pvlint/parse',
      message: `cannot parse ${file.path}: ${firstLine(String((error as Error)?.message ?? error))}`,
      location: { file: file.path, region: regionOf(file, 0, 0) },
    });
    return { resources, diagnostics, documents: [], documentCount: 0, skipped: 0, deferred: [], helm, nodes: 0 };
  }
  for (const error of stream.streamErrors.slice(0, 1)) {
    const [start, end] = error.pos;
    diagnostics.push({
      ruleId: 'pvlint/parse',
      message: `YAML syntax error: ${firstLine(error.message)}${templateHint(file.text)}; this file is not linted`,
      location: { file: file.path, region: regionOf(file, start, Math.max(end, start + 1)) },
    });
  }
  let skipped = 0;
  stream.documents.forEach((doc, docIndex) => {
    if (doc === SKIPPED_DOCUMENT && !fast.has(docIndex)) skipped++;
  });
  if (fast.size > 0) {
    // Documents the fast reader read go in their place among those `yaml` parsed (consume read them as they came).
    for (const [docIndex, value] of fast) collect(file, docIndex, null as unknown as YamlNode, value, resources, [], { span: stream.spans![docIndex], limits });
    resources.sort((a, b) => a.docIndex - b.docIndex);
  }
  return {
    resources, diagnostics, documents: stream.documents, documentCount: stream.documents.length, skipped, deferred, spans: stream.spans, helm,
    nodes: resources.length > 0 ? stream.nodes + fastNodes : 0, ...(stream.cut ? { cut: true } : {}),
  };
}

/**
 * The resources of deferred documents, as `parseResources` would have made them. A document that does not parse
 * gives none, silently: like any skipped document, its syntax errors are not reported (`--parse-all-documents` does).
 */
export function parseDeferred(documents: readonly DeferredDocument[], limits?: Partial<Limits>): Resource[] {
  const resources: Resource[] = [];
  const resolved = fastReaderEnabled() ? resolveLimits(limits) : undefined;
  for (const { file, docIndex, span } of documents) {
    // As `parseResources` reads a document of a kind it parses: the fast reader first, positions found on demand.
    const read = resolved && fastReadDocument(file.text, span, resolved);
    if (read !== undefined && read.values <= resolved!.maxDocumentNodes) {
      collect(file, docIndex, null as unknown as YamlNode, read.value, resources, [], { span, limits });
      continue;
    }
    try {
      const stream = parseSpan(file.text, limits, span);
      const doc = stream.documents[0];
      if (doc) readDocument(file, doc, docIndex, stream.limited.get(0), stream.stats[0], limits, resources, []);
    } catch {
      // As when parsing eagerly: one document never stops the run.
    }
  }
  return resources;
}

/** One parsed document into resources or a diagnostic. */
function readDocument(
  file: SourceFile, doc: Document.Parsed, docIndex: number, limit: LimitProblem | undefined, stats: DocumentStats | undefined,
  limits: Partial<Limits> | undefined, resources: Resource[], diagnostics: ParseDiagnostic[], lazy?: LazySpan,
): void {
  if (limit) {
    diagnostics.push({
      ruleId: 'pvlint/limit',
      message: `document ${docIndex + 1}: ${limit.message}`,
      location: { file: file.path, region: regionOf(file, limit.offset, limit.offset + 1) },
    });
    return;
  }
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    const [start, end] = error.pos;
    const source = file.text.slice(doc.range[0], doc.range[2] ?? doc.range[1]);
    diagnostics.push({
      ruleId: 'pvlint/parse',
      message: `YAML syntax error in document ${docIndex + 1}: ${firstLine(error.message)}${templateHint(source)}; this document is not linted`,
      location: { file: file.path, region: regionOf(file, start, Math.max(end, start + 1)) },
    });
    return;
  }
  if (!doc.contents) return;
  const converted = documentToJS(doc, stats, limits);
  if (!('value' in converted)) {
    const range = doc.contents.range ?? [0, 0];
    diagnostics.push({
      ruleId: 'limit' in converted ? 'pvlint/limit' : 'pvlint/parse',
      message: `document ${docIndex + 1}${'limit' in converted ? `: ${converted.limit}` : ` cannot be read: ${firstLine(converted.error)}; this document is not linted`}`,
      location: { file: file.path, region: regionOf(file, range[0], range[0]) },
    });
    return;
  }
  collect(file, docIndex, doc.contents as YamlNode, converted.value, resources, [], lazy);
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
