// A fast reader for the plain block YAML most Kubernetes manifests are written in: maps and lists by indentation,
// plain and quoted one-line scalars, one-line flow collections, literal and folded block scalars. It builds the
// JavaScript value directly, without the `yaml` library's tokens, syntax tree and nodes, and gives up (undefined)
// on anything else: anchors, aliases, tags, merge keys, directives, multi-line plain or quoted scalars, tabs,
// duplicate keys, keys that are not strings, documents over the limits, anything it does not fully understand. The
// caller then parses the document with `yaml` as before, so every error, limit and YAML 1.1 subtlety is still
// `yaml`'s (and kubectl's reading as pvlint models it). Where it does give a value, the value is the one
// `yaml`'s `toJS()` gives: scalars are resolved by the same `yaml` schema tags (YAML 1.2 core), which
// test/load/fast-yaml.test.ts checks against `yaml` on generated, mutated and real manifests. Positions are not
// kept while reading values: a finding's position comes from reading its document again, into `yaml` nodes with the
// ranges `yaml` gives them (`fastDocumentNode`, checked by the same test against `yaml`'s own nodes wherever a
// finding can point), or from `yaml` itself where this reader is not sure of them.
// A document written as a JSON object is read by JSON.parse instead (src/load/fast-json.ts), under the same rules.
import { Document, isMap, isPair, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YamlNode, type ScalarTag } from 'yaml';
import type { DocumentSpan } from './document-scan.js';
import { readJsonDocument } from './fast-json.js';
import type { Limits } from './limits.js';

/** Off only to compare with `yaml` alone (tests, the benchmark): the fast reader gives the same objects. */
let enabled = true;

export function setFastReader(on: boolean): void {
  enabled = on;
}

export function fastReaderEnabled(): boolean {
  return enabled;
}

/** Thrown inside the reader when it meets something it does not handle; never escapes `fastParseDocument`. */
class Unsure extends Error {}
const UNSURE = new Unsure();

function unsure(): never {
  throw UNSURE;
}

interface ScalarSchema {
  /** Tags tried on a plain scalar, in the order `yaml` tries them (its `findScalarTagByTest`). */
  tags: ScalarTag[];
  /**
   * Whether the tags are the YAML 1.2 core schema's (and `<<`) that `TAGGED_FIRST` was written for: then a plain
   * scalar whose first character none of them can start with is a string without trying them.
   */
  knownTags: boolean;
}

let schema: ScalarSchema | undefined;

/** The tests of the core schema's scalar tags (and the merge key's) in `yaml` 2. */
const CORE_TESTS = new Set([
  '^(?:~|[Nn]ull|NULL)?$', '^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$', '^0o[0-7]+$', '^[-+]?[0-9]+$', '^0x[0-9a-fA-F]+$',
  '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)$', '^[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)[eE][-+]?[0-9]+$',
  '^[-+]?(?:\\.[0-9]+|[0-9]+\\.[0-9]*)$', '^<<$',
]);

/** Every character a text some test of `CORE_TESTS` matches can start with (the empty text is null). */
const TAGGED_FIRST = new Set('~nNtTfF0123456789+-.<');

/** The schema `yaml` composes with under pvlint's options (merge keys on: `<<` is a tag of its own). */
function scalarSchema(): ScalarSchema {
  if (!schema) {
    const tags = (new Document(null, { merge: true }).schema.tags as ScalarTag[]).filter((tag) => tag.test !== undefined);
    schema = { tags, knownTags: tags.every((tag) => CORE_TESTS.has(tag.test!.source) && !tag.test!.flags.includes('i')) };
  }
  return schema;
}

/** A plain scalar as `yaml` resolves it; unsure for what resolves to anything but a string, number, boolean or null. */
function resolvePlain(text: string, atKey: boolean): unknown {
  const { tags, knownTags } = scalarSchema();
  if (knownTags && text !== '' && !TAGGED_FIRST.has(text[0])) return text;
  for (const tag of tags) {
    if (!(tag.default === true || (atKey && tag.default === 'key'))) continue;
    if (!tag.test!.test(text)) continue;
    let failed = false;
    let value = tag.resolve(text, () => (failed = true), {} as never);
    if (failed) unsure();
    // Nulls, booleans and floats come in a Scalar wrapper (it keeps how they were written); toJS() gives the value.
    if (isScalar(value)) value = value.value;
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
    // Anything else (a merge key, a bigint, a Scalar wrapper) is left to `yaml`.
    return unsure();
  }
  return text;
}

/**
 * `yaml` nodes without `yaml`'s constructors, which define the node type on each node with `defineProperty` (a third of
 * the time of reading a document into nodes): here the type is on a prototype between the node and its class, where
 * `isScalar`, `isMap`, `isSeq` and `isPair` read it just the same, and `instanceof` still holds. Checked once against
 * the installed `yaml`; if its nodes are made differently, its constructors are used.
 */
const NODE_TYPE = Symbol.for('yaml.node.type');

interface NodeMakers {
  scalar(value: unknown, range: [number, number, number], type: Scalar.Type): Scalar;
  map(items: Pair[], range: [number, number, number], flow: boolean): YAMLMap;
  seq(items: unknown[], range: [number, number, number], flow: boolean): YAMLSeq;
  pair(key: Scalar, value: unknown): Pair;
}

function typedPrototype<T extends object>(base: T, type: symbol): T {
  return Object.create(base, { [NODE_TYPE]: { value: type } }) as T;
}

const SLOW_NODES: NodeMakers = {
  scalar(value, range, type) {
    const node = new Scalar(value);
    node.range = range;
    node.type = type;
    return node;
  },
  map(items, range, flow) {
    const node = new YAMLMap();
    node.items = items;
    node.range = range;
    if (flow) node.flow = true;
    return node;
  },
  seq(items, range, flow) {
    const node = new YAMLSeq();
    node.items = items;
    node.range = range;
    if (flow) node.flow = true;
    return node;
  },
  pair: (key, value) => new Pair(key, value),
};

function fastNodeMakers(): NodeMakers {
  const scalarProto = typedPrototype(Scalar.prototype, (new Scalar(null) as any)[NODE_TYPE]);
  const mapProto = typedPrototype(YAMLMap.prototype, (new YAMLMap() as any)[NODE_TYPE]);
  const seqProto = typedPrototype(YAMLSeq.prototype, (new YAMLSeq() as any)[NODE_TYPE]);
  const pairProto = typedPrototype(Pair.prototype, (new Pair(null) as any)[NODE_TYPE]);
  // One shape per kind of node, with the fields `yaml`'s constructors and composer set, in their order.
  function FastScalar(this: any, value: unknown, range: [number, number, number], type: Scalar.Type) {
    this.value = value;
    this.range = range;
    this.type = type;
  }
  FastScalar.prototype = scalarProto;
  function FastMap(this: any, items: Pair[], range: [number, number, number], flow: boolean) {
    this.items = items;
    this.range = range;
    if (flow) this.flow = true;
  }
  FastMap.prototype = mapProto;
  function FastSeq(this: any, items: unknown[], range: [number, number, number], flow: boolean) {
    this.items = items;
    this.range = range;
    if (flow) this.flow = true;
  }
  FastSeq.prototype = seqProto;
  function FastPair(this: any, key: Scalar, value: unknown) {
    this.key = key;
    this.value = value;
  }
  FastPair.prototype = pairProto;
  const makers: NodeMakers = {
    scalar: (value, range, type) => new (FastScalar as any)(value, range, type),
    map: (items, range, flow) => new (FastMap as any)(items, range, flow),
    seq: (items, range, flow) => new (FastSeq as any)(items, range, flow),
    pair: (key, value) => new (FastPair as any)(key, value),
  };
  const key = makers.scalar('k', [0, 1, 1], Scalar.PLAIN);
  const map = makers.map([makers.pair(key, makers.seq([], [3, 3, 3], true))], [0, 3, 3], false);
  const works = isScalar(key) && isMap(map) && isPair(map.items[0]) && isSeq(map.items[0].value) && !isMap(key) && key instanceof Scalar &&
    map instanceof YAMLMap && (map.get('k', true) as unknown) === map.items[0].value;
  return works ? makers : SLOW_NODES;
}

let nodeMakers: NodeMakers | undefined;

const PLAIN_FIRST_FORBIDDEN = new Set(['&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '#', ',', '[', ']', '{', '}']);
const MAX_SAFE_DIGITS = 15;

/**
 * The lines of the document being read, as offsets: one reader at a time uses them (reading is synchronous and never
 * re-entered), so they are kept from one document to the next instead of an object per line.
 */
let lineStarts = new Int32Array(1024);
/** Offset past each line's last character (before the newline). */
let lineEnds = new Int32Array(1024);
/** Spaces before each line's content; -1 for a blank or comment-only line. */
let lineIndents = new Int32Array(1024);

function growLines(): void {
  const grow = (old: Int32Array) => {
    const bigger = new Int32Array(old.length * 2);
    bigger.set(old);
    return bigger;
  };
  lineStarts = grow(lineStarts);
  lineEnds = grow(lineEnds);
  lineIndents = grow(lineIndents);
}

class Reader {
  private readonly lineCount: number;
  private index = 0;
  /** Values read so far (each map, list and scalar counts one, keys not): the node budget's measure. */
  values = 1;
  /** A number JSON cannot hold (.inf, .nan) was read, and given as text. */
  nonFinite = false;
  /** Where the key `mapKey` read last ends, and where its value starts. */
  private keyEnd = 0;
  private valueAt = 0;
  /** Past the closing quote of the scalar `quoted` read last. */
  private quotedEnd = 0;
  /**
   * Where the collection `map` or `sequence` made last ends when its last value is empty (`key:` alone, or a
   * collection ending so): `yaml` ends it there, not past its line; -1 for one that ends past its last line.
   */
  private openEnd = -1;
  private readonly make: NodeMakers;
  /** Where the current line's content starts when a `- ` before it already began a node (compact nesting). */
  private column = -1;
  private depth = 0;

  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly maxDepth: number,
    /** Build `yaml` nodes with their ranges instead of plain values (for positions). */
    private readonly nodes = false,
  ) {
    this.make = nodes ? (nodeMakers ??= fastNodeMakers()) : SLOW_NODES;
    let at = start;
    let count = 0;
    while (at < end) {
      let next = text.indexOf('\n', at);
      if (next === -1 || next > end) next = end;
      let indent = 0;
      while (at + indent < next && text.charCodeAt(at + indent) === 32) indent++;
      const first = at + indent < next ? text.charCodeAt(at + indent) : -1;
      if (count === lineStarts.length) growLines();
      lineStarts[count] = at;
      lineEnds[count] = next;
      // 35 is `#`
      lineIndents[count] = first === -1 || first === 35 ? -1 : indent;
      count++;
      at = next + 1;
    }
    this.lineCount = count;
  }

  /** The document's value (or root node): a map at the top. */
  read(): Record<string, unknown> {
    this.skipDocumentStart();
    this.skipBlank();
    if (this.index >= this.lineCount) unsure();
    if (lineIndents[this.index] !== 0) unsure();
    const value = this.blockNode(0);
    this.skipBlank();
    if (this.index < this.lineCount) unsure();
    if (this.nodes) {
      // Where the root ends (graphs read where a resource ends) is `yaml`'s to say when the document ends in a
      // comment, spaces or an empty value (`key:`).
      let k = this.lineCount - 1;
      for (; k >= 0 && lineIndents[k] === -1; k--) {
        if (lineEnds[k] > lineStarts[k]) unsure();
      }
      if (k >= 0 && this.text.slice(lineStarts[k], lineEnds[k]).trimEnd().endsWith(':')) unsure();
      if (!(value instanceof YAMLMap)) unsure();
      return value as unknown as Record<string, unknown>;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) unsure();
    return value as Record<string, unknown>;
  }

  /** Where the line before the current one ends, past its newline: the end `yaml` gives a block collection. */
  private blockEnd(): number {
    let last = this.index - 1;
    while (last > 0 && lineIndents[last] === -1) last--;
    const end = lineEnds[last];
    return end < this.end ? end + 1 : end;
  }

  /** A scalar node: value and range as `yaml` composes them (the end past trailing comments is not needed). */
  private scalar(value: unknown, start: number, end: number): Scalar {
    const c = this.text[start];
    const type = c === '"' ? Scalar.QUOTE_DOUBLE : c === "'" ? Scalar.QUOTE_SINGLE : c === '|' ? Scalar.BLOCK_LITERAL : c === '>' ? Scalar.BLOCK_FOLDED : Scalar.PLAIN;
    return this.make.scalar(value, [start, end, end], type);
  }

  private skipDocumentStart(): void {
    this.skipBlank();
    if (this.index >= this.lineCount) return;
    const content = this.text.slice(lineStarts[this.index], lineEnds[this.index]);
    if (content.startsWith('---')) {
      // `---` alone (or with a comment) is the separator; content after it on the same line is left to `yaml`.
      if (!/^---\s*(?:#.*)?$/.test(content)) unsure();
      this.index++;
    } else if (content.startsWith('%') || content.startsWith('...')) unsure();
  }

  private skipBlank(): void {
    while (this.index < this.lineCount && lineIndents[this.index] === -1) this.index++;
  }

  /** Indentation of the current line's content (past a `- ` that began it). */
  private currentIndent(): number {
    return this.column >= 0 ? this.column : lineIndents[this.index];
  }

  private contentStart(): number {
    return lineStarts[this.index] + this.currentIndent();
  }

  /** A map or a list starting at the current line, whose content is at `indent`. */
  private blockNode(indent: number): unknown {
    if (++this.depth > this.maxDepth) unsure();
    try {
      const at = this.contentStart();
      const c = this.text[at];
      const next = this.text[at + 1];
      if (c === '-' && (next === ' ' || at + 1 >= lineEnds[this.index])) return this.sequence(indent);
      return this.map(indent);
    } finally {
      this.depth--;
    }
  }

  private sequence(indent: number): unknown[] | YAMLSeq {
    const items: unknown[] = [];
    const start = this.contentStart();
    let lastOpen = -1;
    for (;;) {
      const lineStart = lineStarts[this.index];
      const lineEnd = lineEnds[this.index];
      const at = this.contentStart();
      if (this.text[at] !== '-' || !(this.text[at + 1] === ' ' || at + 1 >= lineEnd)) unsure();
      this.values++;
      let valueAt = at + 1;
      while (valueAt < lineEnd && this.text.charCodeAt(valueAt) === 32) valueAt++;
      if (valueAt >= lineEnd || this.text[valueAt] === '#') {
        if (valueAt < lineEnd && this.text[valueAt - 1] !== ' ') unsure();
        this.nextLine();
        const item = this.nestedOrNull(indent, false);
        // Where `yaml` puts an empty item is not worth matching: such a document is located by `yaml`.
        if (this.nodes && item === null) unsure();
        lastOpen = this.openEnd;
        items.push(item);
      } else {
        const c = this.text[valueAt];
        const second = this.text[valueAt + 1];
        if ((c === '-' && (second === ' ' || valueAt + 1 >= lineEnd)) || this.isMapEntry(valueAt, lineEnd)) {
          // `- key: value` or `- - item`: a node whose content starts on this line, at the column after the dash.
          this.column = valueAt - lineStart;
          items.push(this.blockNode(this.column));
          lastOpen = this.openEnd;
        } else {
          items.push(this.inlineValue(valueAt, lineEnd, indent));
          lastOpen = -1;
        }
      }
      // A line at this indentation that is not an item belongs to the map around the list (`key:` then `- a`).
      if (!this.continues(indent) || !this.startsItem()) return this.nodes ? this.seqNode(items, start, lastOpen) : items;
    }
  }

  private seqNode(items: unknown[], start: number, lastOpen: number): YAMLSeq {
    const end = this.collectionEnd(lastOpen);
    return this.make.seq(items, [start, end, end], false);
  }

  /**
   * Where a block collection ends: past its last line, or where its last value ends when that is empty (`lastOpen`).
   * Then only empty lines may follow that value: where a comment or spaces after it take the end is `yaml`'s to say.
   */
  private collectionEnd(lastOpen: number): number {
    this.openEnd = lastOpen;
    if (lastOpen < 0) return this.blockEnd();
    for (let k = this.index - 1; k >= 0 && lineIndents[k] === -1; k--) if (lineEnds[k] > lineStarts[k]) unsure();
    return lastOpen;
  }

  private startsItem(): boolean {
    const at = lineStarts[this.index] + lineIndents[this.index];
    return this.text[at] === '-' && (this.text[at + 1] === ' ' || at + 1 >= lineEnds[this.index]);
  }

  private map(indent: number): Record<string, unknown> | YAMLMap {
    const pairs: Pair[] | undefined = this.nodes ? [] : undefined;
    // The value, or in node mode only its keys (to refuse a key given twice): an object per map shape is costly.
    const object: Record<string, unknown> | undefined = pairs ? undefined : {};
    const keys: Set<string> | undefined = pairs ? new Set() : undefined;
    const start = this.contentStart();
    let lastOpen = -1;
    for (;;) {
      const lineEnd = lineEnds[this.index];
      const at = this.contentStart();
      const key = this.mapKey(at, lineEnd);
      const valueAt = this.valueAt;
      const keyEnd = this.keyEnd;
      if (object ? Object.prototype.hasOwnProperty.call(object, key) : keys!.has(key)) unsure();
      this.values++;
      let value: unknown;
      lastOpen = -1;
      if (valueAt >= lineEnd || this.text.charCodeAt(valueAt) === 35) {
        this.nextLine();
        value = this.nestedOrNull(indent, true);
        if (pairs && value === null) {
          // `key:` alone: `yaml` gives an empty scalar just past the colon; after spaces or a comment, left to `yaml`.
          if (valueAt !== keyEnd + 1 || valueAt !== lineEnd) unsure();
          value = this.scalar(null, valueAt, valueAt);
          lastOpen = valueAt;
        } else if (pairs) lastOpen = this.openEnd;
      } else {
        value = this.inlineValue(valueAt, lineEnd, indent);
      }
      if (object) object[key] = value;
      else {
        keys!.add(key);
        pairs!.push(this.make.pair(this.scalar(key, at, keyEnd), value));
      }
      if (!this.continues(indent)) {
        if (object) return object;
        const end = this.collectionEnd(lastOpen);
        return this.make.map(pairs!, [start, end, end], false);
      }
    }
  }

  /** After a node's line(s): true when the next line carries on the same collection at `indent`. */
  private continues(indent: number): boolean {
    this.skipBlank();
    if (this.index >= this.lineCount) return false;
    const next = lineIndents[this.index];
    if (next > indent) unsure();
    return next === indent;
  }

  private nextLine(): void {
    this.index++;
    this.column = -1;
    this.skipBlank();
  }

  /** The value of `key:` or `-` with nothing after it: a nested block, a list at the same indentation, or null. */
  private nestedOrNull(indent: number, inMap: boolean): unknown {
    if (this.index >= this.lineCount) return null;
    const lineIndent = lineIndents[this.index];
    if (lineIndent > indent) return this.blockNode(lineIndent);
    if (inMap && lineIndent === indent) {
      const at = lineStarts[this.index] + lineIndent;
      if (this.text[at] === '-' && (this.text[at + 1] === ' ' || at + 1 >= lineEnds[this.index])) return this.blockNode(indent);
    }
    return null;
  }

  /** Whether the text at `at` is `key: ...` (a plain or quoted key followed by `:` and a space or the end). */
  private isMapEntry(at: number, end: number): boolean {
    const c = this.text[at];
    if (c === '"' || c === "'") {
      const close = this.text.indexOf(c, at + 1);
      return close !== -1 && close < end && this.text[close + 1] === ':';
    }
    const text = this.text;
    for (let i = at; i < end; i++) {
      const ch = text.charCodeAt(i);
      // 58 is `:`, 35 `#`, 32 a space
      if (ch === 58 && (i + 1 >= end || text.charCodeAt(i + 1) === 32)) return true;
      if (ch === 35 && text.charCodeAt(i - 1) === 32) return false;
    }
    return false;
  }

  /** The key at `at`; where it ends and where its value starts are left in `keyEnd` and `valueAt`. */
  private mapKey(at: number, end: number): string {
    const c = this.text[at];
    let key: string;
    let colon: number;
    let keyEnd: number;
    if (c === '"' || c === "'") {
      key = this.quoted(at, end);
      colon = this.quotedEnd;
      keyEnd = colon;
      if (this.text[colon] !== ':') unsure();
    } else {
      if (PLAIN_FIRST_FORBIDDEN.has(c) || ((c === '-' || c === '?' || c === ':') && (at + 1 >= end || this.text[at + 1] === ' '))) unsure();
      // The first `:` followed by a space or the end of the line.
      colon = this.text.indexOf(':', at);
      while (colon !== -1 && colon < end && colon + 1 < end && this.text.charCodeAt(colon + 1) !== 32) colon = this.text.indexOf(':', colon + 1);
      if (colon === -1 || colon >= end) unsure();
      // Only spaces end a plain scalar (tabs are refused before reading); a no-break space is part of it.
      keyEnd = colon;
      while (keyEnd > at && this.text.charCodeAt(keyEnd - 1) === 32) keyEnd--;
      key = this.text.slice(at, keyEnd);
      if (key.includes(' #')) unsure();
      if (resolvePlain(key, true) !== key) unsure();
    }
    if (key === '__proto__' || key === '<<') unsure();
    let valueAt = colon + 1;
    if (valueAt < end && this.text[valueAt] !== ' ') unsure();
    while (valueAt < end && this.text.charCodeAt(valueAt) === 32) valueAt++;
    this.keyEnd = keyEnd;
    this.valueAt = valueAt;
    return key;
  }

  /** A value that starts on the line of its key or dash; advances past its line(s). */
  private inlineValue(at: number, lineEnd: number, indent: number): unknown {
    const c = this.text[at];
    if (c === '|' || c === '>') return this.blockScalar(at, lineEnd, indent);
    let value: unknown;
    let end: number;
    if (c === '"' || c === "'") {
      const scalar = this.quoted(at, lineEnd);
      value = this.nodes ? this.scalar(scalar, at, this.quotedEnd) : scalar;
      end = this.quotedEnd;
    } else if (c === '[' || c === '{') {
      const flow = this.flow(at, lineEnd);
      value = flow.value;
      end = flow.end;
    } else {
      if (PLAIN_FIRST_FORBIDDEN.has(c) || ((c === '-' || c === '?' || c === ':') && (at + 1 >= lineEnd || this.text[at + 1] === ' '))) unsure();
      end = lineEnd;
      const text = this.text;
      for (let i = at; i < lineEnd; i++) {
        const ch = text.charCodeAt(i);
        // 35 is `#`, 58 `:`, 32 a space
        if (ch === 35 && text.charCodeAt(i - 1) === 32) {
          end = i;
          break;
        }
        // `a: b: c` is an error in `yaml`; `key: value:` too.
        if (ch === 58 && (i + 1 >= lineEnd || text.charCodeAt(i + 1) === 32)) unsure();
      }
      let last = end;
      while (last > at && text.charCodeAt(last - 1) === 32) last--;
      const plain = text.slice(at, last);
      value = this.plainValue(plain);
      if (this.nodes) value = this.scalar(value, at, last);
      end = lineEnd;
    }
    this.expectLineEnd(end, lineEnd);
    this.nextLine();
    // A more indented line after a scalar continues it (a multi-line plain scalar) or is an error: `yaml` decides.
    if (this.index < this.lineCount && lineIndents[this.index] > indent) unsure();
    return value;
  }

  private plainValue(text: string): unknown {
    const value = resolvePlain(text, false);
    if (typeof value !== 'number') return value;
    // Past 15 digits, two ways of reading a number may round differently: `yaml` reads it.
    if (text.replace(/[^0-9]/g, '').length > MAX_SAFE_DIGITS) unsure();
    // As `yaml`'s values are after parsing: what JSON cannot hold (.inf, .nan) becomes what the API server sees
    // (src/load/json-value.ts). Nodes keep `yaml`'s own value.
    if (this.nodes || Number.isFinite(value)) return value;
    this.nonFinite = true;
    return String(value);
  }

  /** Only spaces and a comment may follow a value on its line. */
  private expectLineEnd(at: number, end: number): void {
    let i = at;
    while (i < end && this.text.charCodeAt(i) === 32) i++;
    if (i < end && !(this.text[i] === '#' && (i === at ? i > 0 && this.text[i - 1] === ' ' : true))) unsure();
  }

  /** A quoted scalar that ends on its line; escapes beyond the common ones are left to `yaml`. Sets `quotedEnd`. */
  private quoted(at: number, end: number): string {
    const quote = this.text[at];
    // Most quoted scalars hold no escape and no doubled quote: their text is the value.
    const code = this.text.charCodeAt(at);
    for (let k = at + 1; k < end; k++) {
      const ch = this.text.charCodeAt(k);
      if (ch === code) {
        // 39 is `'`: a doubled one is a quote inside.
        if (code === 39 && k + 1 < end && this.text.charCodeAt(k + 1) === 39) break;
        this.quotedEnd = k + 1;
        return this.text.slice(at + 1, k);
      }
      // 92 is `\`, 34 `"`
      if (ch === 92 && code === 34) break;
    }
    let value = '';
    let i = at + 1;
    for (;;) {
      if (i >= end) unsure();
      const ch = this.text[i];
      if (quote === "'") {
        if (ch === "'") {
          if (this.text[i + 1] === "'" && i + 1 < end) {
            value += "'";
            i += 2;
            continue;
          }
          this.quotedEnd = i + 1;
          return value;
        }
      } else if (ch === '"') {
        this.quotedEnd = i + 1;
        return value;
      } else if (ch === '\\') {
        const escaped = this.text[i + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', '0': '\0' };
        if (i + 1 >= end || !(escaped in simple)) unsure();
        value += simple[escaped];
        i += 2;
        continue;
      }
      value += ch;
      i++;
    }
  }

  /** A flow collection that closes on its line: `[a, "b", {c: d}]`, `{}`. */
  private flow(at: number, end: number): { value: unknown; end: number } {
    if (++this.depth > this.maxDepth) unsure();
    try {
      const open = this.text[at];
      const close = open === '[' ? ']' : '}';
      const list: unknown[] = [];
      const object: Record<string, unknown> = {};
      const pairs: Pair[] = [];
      const done = (closeAt: number) => ({ value: this.nodes ? this.flowNode_(open, list, pairs, at, closeAt + 1) : open === '[' ? list : object, end: closeAt + 1 });
      let i = this.skipFlowSpace(at + 1, end);
      if (this.text[i] === close) return done(i);
      for (;;) {
        this.values++;
        if (open === '{') {
          const key = this.flowScalar(i, end, true);
          if (typeof key.value !== 'string' || key.value === '__proto__' || key.value === '<<' || Object.prototype.hasOwnProperty.call(object, key.value)) unsure();
          i = key.end;
          if (this.text[i] !== ':' || this.text[i + 1] !== ' ') unsure();
          i = this.skipFlowSpace(i + 1, end);
          const value = this.flowNode(i, end);
          object[key.value as string] = value.value;
          if (this.nodes) pairs.push(this.make.pair(key.node!, value.value));
          i = value.end;
        } else {
          const value = this.flowNode(i, end);
          list.push(value.value);
          i = value.end;
        }
        i = this.skipFlowSpace(i, end);
        if (this.text[i] === close) return done(i);
        if (this.text[i] !== ',') unsure();
        i = this.skipFlowSpace(i + 1, end);
        // A trailing comma, or something odd, is `yaml`'s to judge.
        if (this.text[i] === close || this.text[i] === ',') unsure();
      }
    } finally {
      this.depth--;
    }
  }

  private flowNode_(open: string, list: unknown[], pairs: Pair[], start: number, end: number): YAMLSeq | YAMLMap {
    return open === '[' ? this.make.seq(list, [start, end, end], true) : this.make.map(pairs, [start, end, end], true);
  }

  private flowNode(at: number, end: number): { value: unknown; end: number } {
    const c = this.text[at];
    if (c === '[' || c === '{') return this.flow(at, end);
    const scalar = this.flowScalar(at, end, false);
    // `[a: b]` (a single-pair map inside a list) is left to `yaml`.
    if (this.text[scalar.end] === ':') unsure();
    return scalar;
  }

  private flowScalar(at: number, end: number, atKey: boolean): { value: unknown; end: number; node?: Scalar } {
    const c = this.text[at];
    if (c === '"' || c === "'") {
      const value = this.quoted(at, end);
      const closed = this.quotedEnd;
      const node = this.nodes ? this.scalar(value, at, closed) : undefined;
      return { value: node && !atKey ? node : value, end: this.skipFlowSpace(closed, end), node };
    }
    if (at >= end || PLAIN_FIRST_FORBIDDEN.has(c) || c === '-' || c === '?' || c === ':') unsure();
    let i = at;
    while (i < end) {
      const ch = this.text[i];
      if (ch === ',' || ch === ']' || ch === '}' || ch === '[' || ch === '{') break;
      if (ch === ':') break;
      if (ch === '#' && this.text[i - 1] === ' ') unsure();
      i++;
    }
    let last = i;
    while (last > at && this.text.charCodeAt(last - 1) === 32) last--;
    const text = this.text.slice(at, last);
    if (text === '') unsure();
    const value = atKey ? resolveKey(text) : this.plainValue(text);
    const node = this.nodes ? this.scalar(value, at, at + text.length) : undefined;
    return { value: node && !atKey ? node : value, end: i, node };
  }

  private skipFlowSpace(at: number, end: number): number {
    let i = at;
    while (i < end && this.text.charCodeAt(i) === 32) i++;
    if (i >= end) unsure();
    return i;
  }

  /** `|`, `|-`, `|+`, `>`, `>-`, `>+` (no explicit indentation indicator). */
  private blockScalar(at: number, lineEnd: number, indent: number): string | Scalar {
    const style = this.text[at];
    let i = at + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    if (this.text[i] === '-' || this.text[i] === '+') {
      chomp = this.text[i] === '-' ? 'strip' : 'keep';
      i++;
    }
    this.expectLineEnd(i, lineEnd);
    if (i < lineEnd && this.text[i] !== ' ') unsure();
    // Content lines: everything up to the first non-blank line indented at `indent` or less.
    this.index++;
    this.column = -1;
    const first = this.index;
    let contentIndent = -1;
    while (this.index < this.lineCount) {
      const start = lineStarts[this.index];
      const end = lineEnds[this.index];
      let spaces = 0;
      while (start + spaces < end && this.text.charCodeAt(start + spaces) === 32) spaces++;
      const blank = start + spaces >= end;
      if (!blank) {
        if (contentIndent === -1) {
          if (spaces <= indent) break;
          contentIndent = spaces;
        } else if (spaces < contentIndent) break;
      }
      this.index++;
    }
    if (contentIndent === -1) unsure();
    const past = this.index;
    const blankLine = (k: number) => {
      for (let c = lineStarts[k]; c < lineEnds[k]; c++) if (this.text.charCodeAt(c) !== 32) return false;
      return true;
    };
    // `yaml` ends a block scalar past the newline of its last content line. With the default chomping (clip), blank
    // lines after it that hold no more than the indentation are not part of it; with `-` or `+`, where it ends depends
    // on those lines: left to `yaml`.
    let lastContent = past - 1;
    if (chomp === 'clip') while (lastContent >= first && lineEnds[lastContent] - lineStarts[lastContent] <= contentIndent && blankLine(lastContent)) lastContent--;
    if (this.nodes && blankLine(lastContent)) unsure();
    const scalarEnd = lineEnds[lastContent] < this.end ? lineEnds[lastContent] + 1 : lineEnds[lastContent];
    // Leading blank lines longer than the content's indentation are an error in `yaml`; blank lines keep what is
    // past the indentation.
    const lines: string[] = [];
    let seenContent = false;
    for (let k = first; k < past; k++) {
      const length = lineEnds[k] - lineStarts[k];
      const blank = blankLine(k);
      if (blank && !seenContent && length > contentIndent) unsure();
      if (!blank) seenContent = true;
      lines.push(length > contentIndent ? this.text.slice(lineStarts[k] + contentIndent, lineEnds[k]) : '');
    }
    // Trailing blank lines belong to the chomping, not the content.
    let last = lines.length;
    while (last > 0 && lines[last - 1] === '') last--;
    const body = lines.slice(0, last);
    const trailing = lines.length - last;
    let value: string;
    if (style === '|') value = body.join('\n');
    else {
      // Folded: lines joined by a space, an empty line for each newline kept; more-indented lines are left to `yaml`.
      if (body.some((l) => l.startsWith(' ') || l.startsWith('\t'))) unsure();
      value = '';
      for (let k = 0; k < body.length; k++) {
        if (k === 0) value = body[0];
        else if (body[k] === '') continue;
        else {
          let empty = 0;
          for (let j = k - 1; j >= 0 && body[j] === ''; j--) empty++;
          value += empty > 0 ? '\n'.repeat(empty) + body[k] : ` ${body[k]}`;
        }
      }
    }
    if (chomp === 'strip') {
      // nothing after the last content line
    } else if (chomp === 'clip') value += '\n';
    else value += '\n' + '\n'.repeat(trailing);
    this.skipBlank();
    if (this.index < this.lineCount && lineIndents[this.index] > indent) unsure();
    return this.nodes ? this.scalar(value, at, scalarEnd) : value;
  }
}

function resolveKey(text: string): string {
  const value = resolvePlain(text, true);
  if (value !== text) unsure();
  return text;
}

/**
 * The root node of a document `fastParseDocument` reads, as `yaml` nodes with the ranges `yaml` gives them (scalars'
 * values, collections and their items; no comments, no source tokens): what locating a finding needs, without
 * `yaml`'s lexer, parser and composer. Undefined where the reader is not sure of a range: parse with `yaml` then.
 */
export function fastDocumentNode(text: string, span: DocumentSpan, limits: Limits): YamlNode | undefined {
  if (!readable(text, span, limits)) return undefined;
  try {
    return new Reader(text, span.start, span.end, limits.maxDepth, true).read() as unknown as YamlNode;
  } catch {
    return undefined;
  }
}

/**
 * Tabs, carriage returns and directives anywhere, or too large: `yaml` reads those documents. So do Unicode line
 * breaks and byte order marks (read as kustomize reads them, src/load/yaml-stream.ts). Anchors, aliases and tags are
 * refused where a node starts (`PLAIN_FIRST_FORBIDDEN`, checked at every key, value and item), not here: a `*` or an
 * `&` inside a quoted or plain scalar (a cron schedule, a shell line) is text, and those documents are common.
 */
const UNREADABLE = /[\t\r\u0085\u2028\u2029\uFEFF]|^%/m;

function readable(text: string, span: DocumentSpan, limits: Limits): boolean {
  if (span.end - span.start > limits.maxDocumentBytes) return false;
  return !UNREADABLE.test(text.slice(span.start, span.end));
}

/** Where a document written as a JSON object starts (its `{`, after a bare `---` line and blank lines); -1 for others. */
function jsonStart(text: string, span: DocumentSpan): number {
  let at = span.start;
  if (text.startsWith('---', at)) {
    at += 3;
    while (at < span.end && text.charCodeAt(at) === 32) at++;
    if (text.charCodeAt(at) !== 10) return -1;
  }
  // 32 a space, 10 `\n`, 123 `{`
  while (at < span.end && (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 10)) at++;
  return at < span.end && text.charCodeAt(at) === 123 ? at : -1;
}

/**
 * The document in `span` as `yaml`'s `toJS()` would give it, or undefined when this reader is not sure (then parse
 * it with `yaml`). Only a document whose top level is a map is read.
 */
export function fastParseDocument(text: string, span: DocumentSpan, limits: Limits): Record<string, unknown> | undefined {
  return fastReadDocument(text, span, limits)?.value;
}

export interface FastDocument {
  /** The document's value, JSON only: what JSON cannot hold (.inf, .nan) is the text the API server would see. */
  value: Record<string, unknown>;
  /** Values in it, as the node budgets count them (each map, list and scalar one, keys not). */
  values: number;
  /** It holds a .inf or .nan, given as text (`yaml`'s `toJS()` gives a number, which `toJsonValue` turns into that text). */
  nonFinite: boolean;
}

/** `fastParseDocument` with the count of values read (what `maxDocumentNodes` and `maxTotalNodes` are checked against). */
export function fastReadDocument(text: string, span: DocumentSpan, limits: Limits): FastDocument | undefined {
  if (!readable(text, span, limits)) return undefined;
  const json = jsonStart(text, span);
  if (json !== -1) {
    const read = readJsonDocument(text.slice(json, span.end), limits);
    return read && { value: read.value, values: read.values, nonFinite: false };
  }
  try {
    const reader = new Reader(text, span.start, span.end, limits.maxDepth);
    const value = reader.read();
    return value === undefined ? undefined : { value, values: reader.values, nonFinite: reader.nonFinite };
  } catch {
    // Unsure, or a bug in this reader: neither may cost the document, `yaml` reads it.
    return undefined;
  }
}
