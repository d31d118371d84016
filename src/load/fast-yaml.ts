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
import { toJsonValue } from './json-value.js';
import { Document, isScalar, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YamlNode, type ScalarTag } from 'yaml';
import type { DocumentSpan } from './document-scan.js';
import type { Limits } from './limits.js';

/** Thrown inside the reader when it meets something it does not handle; never escapes `fastParseDocument`. */
class Unsure extends Error {}
const UNSURE = new Unsure();

function unsure(): never {
  throw UNSURE;
}

interface ScalarSchema {
  /** Tags tried on a plain scalar, in the order `yaml` tries them (its `findScalarTagByTest`). */
  tags: ScalarTag[];
}

let schema: ScalarSchema | undefined;

/** The schema `yaml` composes with under pvlint's options (merge keys on: `<<` is a tag of its own). */
function scalarSchema(): ScalarSchema {
  if (!schema) {
    const tags = (new Document(null, { merge: true }).schema.tags as ScalarTag[]).filter((tag) => tag.test !== undefined);
    schema = { tags };
  }
  return schema;
}

/** A plain scalar as `yaml` resolves it; unsure for what resolves to anything but a string, number, boolean or null. */
function resolvePlain(text: string, atKey: boolean): unknown {
  for (const tag of scalarSchema().tags) {
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

const PLAIN_FIRST_FORBIDDEN = new Set(['&', '*', '!', '|', '>', "'", '"', '%', '@', '`', '#', ',', '[', ']', '{', '}']);
const MAX_SAFE_DIGITS = 15;

interface Line {
  /** Offset of the first character. */
  start: number;
  /** Offset past the last character (before the newline). */
  end: number;
  /** Spaces before the content; -1 for a blank or comment-only line. */
  indent: number;
}

class Reader {
  private readonly lines: Line[] = [];
  private index = 0;
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
    let at = start;
    while (at < end) {
      let next = text.indexOf('\n', at);
      if (next === -1 || next > end) next = end;
      let indent = 0;
      while (at + indent < next && text.charCodeAt(at + indent) === 32) indent++;
      const first = at + indent < next ? text[at + indent] : '';
      this.lines.push({ start: at, end: next, indent: first === '' || first === '#' ? -1 : indent });
      at = next + 1;
    }
  }

  /** The document's value (or root node): a map at the top. */
  read(): Record<string, unknown> {
    this.skipDocumentStart();
    this.skipBlank();
    if (this.index >= this.lines.length) unsure();
    const line = this.lines[this.index];
    if (line.indent !== 0) unsure();
    const value = this.blockNode(0);
    this.skipBlank();
    if (this.index < this.lines.length) unsure();
    if (this.nodes) {
      // Where the root ends (graphs read where a resource ends) is `yaml`'s to say when the document ends in a
      // comment, spaces or an empty value (`key:`).
      let k = this.lines.length - 1;
      for (; k >= 0 && this.lines[k].indent === -1; k--) {
        if (this.lines[k].end > this.lines[k].start) unsure();
      }
      if (k >= 0 && this.text.slice(this.lines[k].start, this.lines[k].end).trimEnd().endsWith(':')) unsure();
      if (!(value instanceof YAMLMap)) unsure();
      return value as unknown as Record<string, unknown>;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) unsure();
    return value as Record<string, unknown>;
  }

  /** Where the line before the current one ends, past its newline: the end `yaml` gives a block collection. */
  private blockEnd(): number {
    let last = this.index - 1;
    while (last > 0 && this.lines[last].indent === -1) last--;
    const line = this.lines[last];
    return line.end < this.end ? line.end + 1 : line.end;
  }

  /** A scalar node: value and range as `yaml` composes them (the end past trailing comments is not needed). */
  private scalar(value: unknown, start: number, end: number): Scalar {
    const node = new Scalar(value);
    node.range = [start, end, end];
    const c = this.text[start];
    node.type = c === '"' ? Scalar.QUOTE_DOUBLE : c === "'" ? Scalar.QUOTE_SINGLE : c === '|' ? Scalar.BLOCK_LITERAL : c === '>' ? Scalar.BLOCK_FOLDED : Scalar.PLAIN;
    return node;
  }

  private skipDocumentStart(): void {
    this.skipBlank();
    const line = this.lines[this.index];
    if (!line) return;
    const content = this.text.slice(line.start, line.end);
    if (content.startsWith('---')) {
      // `---` alone (or with a comment) is the separator; content after it on the same line is left to `yaml`.
      if (!/^---\s*(?:#.*)?$/.test(content)) unsure();
      this.index++;
    } else if (content.startsWith('%') || content.startsWith('...')) unsure();
  }

  private skipBlank(): void {
    while (this.index < this.lines.length && this.lines[this.index].indent === -1) this.index++;
  }

  /** Indentation of the current line's content (past a `- ` that began it). */
  private currentIndent(): number {
    return this.column >= 0 ? this.column : this.lines[this.index].indent;
  }

  private contentStart(): number {
    const line = this.lines[this.index];
    return line.start + this.currentIndent();
  }

  /** A map or a list starting at the current line, whose content is at `indent`. */
  private blockNode(indent: number): unknown {
    if (++this.depth > this.maxDepth) unsure();
    try {
      const at = this.contentStart();
      const c = this.text[at];
      const next = this.text[at + 1];
      if (c === '-' && (next === ' ' || at + 1 >= this.lines[this.index].end)) return this.sequence(indent);
      return this.map(indent);
    } finally {
      this.depth--;
    }
  }

  private sequence(indent: number): unknown[] | YAMLSeq {
    const items: unknown[] = [];
    const start = this.contentStart();
    for (;;) {
      const line = this.lines[this.index];
      const at = this.contentStart();
      if (this.text[at] !== '-' || !(this.text[at + 1] === ' ' || at + 1 >= line.end)) unsure();
      let valueAt = at + 1;
      while (valueAt < line.end && this.text.charCodeAt(valueAt) === 32) valueAt++;
      if (valueAt >= line.end || this.text[valueAt] === '#') {
        if (valueAt < line.end && this.text[valueAt - 1] !== ' ') unsure();
        this.nextLine();
        const item = this.nestedOrNull(indent, false);
        // Where `yaml` puts an empty item is not worth matching: such a document is located by `yaml`.
        if (this.nodes && item === null) unsure();
        items.push(item);
      } else {
        const c = this.text[valueAt];
        const second = this.text[valueAt + 1];
        if ((c === '-' && (second === ' ' || valueAt + 1 >= line.end)) || this.isMapEntry(valueAt, line.end)) {
          // `- key: value` or `- - item`: a node whose content starts on this line, at the column after the dash.
          this.column = valueAt - line.start;
          items.push(this.blockNode(this.column));
        } else {
          items.push(this.inlineValue(valueAt, line, indent));
        }
      }
      // A line at this indentation that is not an item belongs to the map around the list (`key:` then `- a`).
      if (!this.continues(indent) || !this.startsItem()) return this.nodes ? this.seqNode(items, start) : items;
    }
  }

  private seqNode(items: unknown[], start: number): YAMLSeq {
    const node = new YAMLSeq();
    node.items = items;
    const end = this.blockEnd();
    node.range = [start, end, end];
    return node;
  }

  private startsItem(): boolean {
    const line = this.lines[this.index];
    const at = line.start + line.indent;
    return this.text[at] === '-' && (this.text[at + 1] === ' ' || at + 1 >= line.end);
  }

  private map(indent: number): Record<string, unknown> | YAMLMap {
    const object: Record<string, unknown> = {};
    const pairs: Pair[] = [];
    const start = this.contentStart();
    for (;;) {
      const line = this.lines[this.index];
      const at = this.contentStart();
      const { key, valueAt, keyEnd } = this.mapKey(at, line.end);
      if (Object.prototype.hasOwnProperty.call(object, key)) unsure();
      let value: unknown;
      if (valueAt >= line.end || this.text[valueAt] === '#') {
        this.nextLine();
        value = this.nestedOrNull(indent, true);
        if (this.nodes && value === null) {
          // `key:` alone: `yaml` gives an empty scalar just past the colon; after spaces or a comment, left to `yaml`.
          if (valueAt !== keyEnd + 1 || valueAt !== line.end) unsure();
          value = this.scalar(null, valueAt, valueAt);
        }
      } else {
        value = this.inlineValue(valueAt, line, indent);
      }
      object[key] = value;
      if (this.nodes) pairs.push(new Pair(this.scalar(key, at, keyEnd), value));
      if (!this.continues(indent)) {
        if (!this.nodes) return object;
        const node = new YAMLMap();
        node.items = pairs;
        const end = this.blockEnd();
        node.range = [start, end, end];
        return node;
      }
    }
  }

  /** After a node's line(s): true when the next line carries on the same collection at `indent`. */
  private continues(indent: number): boolean {
    this.skipBlank();
    if (this.index >= this.lines.length) return false;
    const next = this.lines[this.index].indent;
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
    if (this.index >= this.lines.length) return null;
    const line = this.lines[this.index];
    if (line.indent > indent) return this.blockNode(line.indent);
    if (inMap && line.indent === indent) {
      const at = line.start + line.indent;
      if (this.text[at] === '-' && (this.text[at + 1] === ' ' || at + 1 >= line.end)) return this.blockNode(indent);
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
    for (let i = at; i < end; i++) {
      const ch = this.text[i];
      if (ch === ':' && (i + 1 >= end || this.text[i + 1] === ' ')) return true;
      if (ch === '#' && this.text[i - 1] === ' ') return false;
    }
    return false;
  }

  private mapKey(at: number, end: number): { key: string; valueAt: number; keyEnd: number } {
    const c = this.text[at];
    let key: string;
    let colon: number;
    let keyEnd: number;
    if (c === '"' || c === "'") {
      const scalar = this.quoted(at, end);
      key = scalar.value;
      colon = scalar.end;
      keyEnd = colon;
      if (this.text[colon] !== ':') unsure();
    } else {
      if (PLAIN_FIRST_FORBIDDEN.has(c) || ((c === '-' || c === '?' || c === ':') && (at + 1 >= end || this.text[at + 1] === ' '))) unsure();
      colon = -1;
      for (let i = at; i < end; i++) {
        if (this.text[i] === ':' && (i + 1 >= end || this.text[i + 1] === ' ')) {
          colon = i;
          break;
        }
      }
      if (colon === -1) unsure();
      key = this.text.slice(at, colon).trimEnd();
      keyEnd = at + key.length;
      if (key.includes(' #')) unsure();
      if (resolvePlain(key, true) !== key) unsure();
    }
    if (key === '__proto__' || key === '<<') unsure();
    let valueAt = colon + 1;
    if (valueAt < end && this.text[valueAt] !== ' ') unsure();
    while (valueAt < end && this.text.charCodeAt(valueAt) === 32) valueAt++;
    return { key, valueAt, keyEnd };
  }

  /** A value that starts on the line of its key or dash; advances past its line(s). */
  private inlineValue(at: number, line: Line, indent: number): unknown {
    const c = this.text[at];
    if (c === '|' || c === '>') return this.blockScalar(at, line, indent);
    let value: unknown;
    let end: number;
    if (c === '"' || c === "'") {
      const scalar = this.quoted(at, line.end);
      value = this.nodes ? this.scalar(scalar.value, at, scalar.end) : scalar.value;
      end = scalar.end;
    } else if (c === '[' || c === '{') {
      const flow = this.flow(at, line.end);
      value = flow.value;
      end = flow.end;
    } else {
      if (PLAIN_FIRST_FORBIDDEN.has(c) || ((c === '-' || c === '?' || c === ':') && (at + 1 >= line.end || this.text[at + 1] === ' '))) unsure();
      end = line.end;
      for (let i = at; i < line.end; i++) {
        const ch = this.text[i];
        if (ch === '#' && this.text[i - 1] === ' ') {
          end = i;
          break;
        }
        // `a: b: c` is an error in `yaml`; `key: value:` too.
        if (ch === ':' && (i + 1 >= line.end || this.text[i + 1] === ' ')) unsure();
      }
      const text = this.text.slice(at, end).trimEnd();
      value = this.plainValue(text);
      if (this.nodes) value = this.scalar(value, at, at + text.length);
      end = line.end;
    }
    this.expectLineEnd(end, line.end);
    this.nextLine();
    // A more indented line after a scalar continues it (a multi-line plain scalar) or is an error: `yaml` decides.
    if (this.index < this.lines.length && this.lines[this.index].indent > indent) unsure();
    return value;
  }

  private plainValue(text: string): unknown {
    const value = resolvePlain(text, false);
    // Past 15 digits, two ways of reading a number may round differently: `yaml` reads it.
    if (typeof value === 'number' && text.replace(/[^0-9]/g, '').length > MAX_SAFE_DIGITS) unsure();
    return value;
  }

  /** Only spaces and a comment may follow a value on its line. */
  private expectLineEnd(at: number, end: number): void {
    let i = at;
    while (i < end && this.text.charCodeAt(i) === 32) i++;
    if (i < end && !(this.text[i] === '#' && (i === at ? i > 0 && this.text[i - 1] === ' ' : true))) unsure();
  }

  /** A quoted scalar that ends on its line; escapes beyond the common ones are left to `yaml`. */
  private quoted(at: number, end: number): { value: string; end: number } {
    const quote = this.text[at];
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
          return { value, end: i + 1 };
        }
      } else if (ch === '"') {
        return { value, end: i + 1 };
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
        if (open === '{') {
          const key = this.flowScalar(i, end, true);
          if (typeof key.value !== 'string' || key.value === '__proto__' || key.value === '<<' || Object.prototype.hasOwnProperty.call(object, key.value)) unsure();
          i = key.end;
          if (this.text[i] !== ':' || this.text[i + 1] !== ' ') unsure();
          i = this.skipFlowSpace(i + 1, end);
          const value = this.flowNode(i, end);
          object[key.value as string] = value.value;
          if (this.nodes) pairs.push(new Pair(key.node, value.value));
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
    const node = open === '[' ? new YAMLSeq() : new YAMLMap();
    node.items = (open === '[' ? list : pairs) as never;
    node.flow = true;
    node.range = [start, end, end];
    return node;
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
      const q = this.quoted(at, end);
      const node = this.nodes ? this.scalar(q.value, at, q.end) : undefined;
      return { value: node && !atKey ? node : q.value, end: this.skipFlowSpace(q.end, end), node };
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
    const text = this.text.slice(at, i).trimEnd();
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
  private blockScalar(at: number, line: Line, indent: number): string | Scalar {
    const style = this.text[at];
    let i = at + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    if (this.text[i] === '-' || this.text[i] === '+') {
      chomp = this.text[i] === '-' ? 'strip' : 'keep';
      i++;
    }
    this.expectLineEnd(i, line.end);
    if (i < line.end && this.text[i] !== ' ') unsure();
    // Content lines: everything up to the first non-blank line indented at `indent` or less.
    this.index++;
    this.column = -1;
    const raw: { start: number; end: number }[] = [];
    let contentIndent = -1;
    while (this.index < this.lines.length) {
      const l = this.lines[this.index];
      let spaces = 0;
      while (l.start + spaces < l.end && this.text.charCodeAt(l.start + spaces) === 32) spaces++;
      const blank = l.start + spaces >= l.end;
      if (!blank) {
        if (contentIndent === -1) {
          if (spaces <= indent) break;
          contentIndent = spaces;
        } else if (spaces < contentIndent) break;
      }
      raw.push(l);
      this.index++;
    }
    if (contentIndent === -1) unsure();
    // `yaml` ends a block scalar past the newline of its last content line; where blank lines follow it, where it ends
    // depends on their spaces and the chomping: left to `yaml`.
    const lastRaw = raw[raw.length - 1];
    if (this.nodes && this.text.slice(lastRaw.start, lastRaw.end).trim() === '') unsure();
    const scalarEnd = lastRaw.end < this.end ? lastRaw.end + 1 : lastRaw.end;
    // Leading blank lines longer than the content's indentation are an error in `yaml`; blank lines keep what is
    // past the indentation.
    const lines: string[] = [];
    let seenContent = false;
    for (const l of raw) {
      const length = l.end - l.start;
      const blank = this.text.slice(l.start, l.end).trim() === '';
      if (blank && !seenContent && length > contentIndent) unsure();
      if (!blank) seenContent = true;
      lines.push(length > contentIndent ? this.text.slice(l.start + contentIndent, l.end) : '');
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
    if (this.index < this.lines.length && this.lines[this.index].indent > indent) unsure();
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

/**
 * The document in `span` as `yaml`'s `toJS()` would give it, or undefined when this reader is not sure (then parse
 * it with `yaml`). Only a document whose top level is a map is read.
 */
export function fastParseDocument(text: string, span: DocumentSpan, limits: Limits): Record<string, unknown> | undefined {
  if (!readable(text, span, limits)) return undefined;
  try {
    const value = new Reader(text, span.start, span.end, limits.maxDepth).read();
    // As `yaml`'s values are after parsing: what JSON cannot hold (.inf, .nan) becomes what the API server sees.
    return value === undefined ? undefined : (toJsonValue(value) as Record<string, unknown>);
  } catch (error) {
    if (error === UNSURE) return undefined;
    // A bug in this reader must not cost the document: `yaml` reads it.
    return undefined;
  }
}
