// Source files that locators and renderers read (bases, patches, kustomizations, templates), read (with pvlint's one
// file reader, src/load/read-source.ts) and parsed once per run. Locators run synchronously inside rules' report(),
// so reads here are synchronous and memoised.
import { isMap, type Node as YamlNode } from 'yaml';
import type { DocumentSpan } from '../load/document-scan.js';
import { fastDocumentNode, fastReadDocument, fastReaderEnabled } from '../load/fast-yaml.js';
import { DEFAULT_LIMITS } from '../load/limits.js';
import { readSourceText } from '../load/read-source.js';
import { documentToJS, parseSpan, parseStream } from '../load/yaml-stream.js';
import { makeSourceFile, toDisplayPath } from '../load/source-file.js';
import type { SourceFile } from '../types.js';

export interface SourceDocument {
  docIndex: number;
  node: YamlNode;
  /** The document as plain JSON (undefined when it does not convert). */
  object: any;
}

export interface CachedSource {
  file: SourceFile;
  /** Documents that parsed without errors and have content (parsed on first use: templates are only searched as text). */
  readonly documents: SourceDocument[];
}

export class SourceCache {
  private readonly files = new Map<string, CachedSource | null>();
  private readonly memo = new Map<string, unknown>();

  constructor(readonly root: string) {}

  displayPath(absPath: string): string {
    return toDisplayPath(absPath, this.root);
  }

  /** The file at `absPath`, parsed as a YAML stream; undefined when it cannot be read. */
  get(absPath: string): CachedSource | undefined {
    const cached = this.files.get(absPath);
    if (cached !== undefined) return cached ?? undefined;
    let result: CachedSource | null = null;
    // Only regular files within the size limit: a FIFO would block, a huge file would stall every locator.
    const text = readSourceText(absPath, DEFAULT_LIMITS.maxFileBytes, true);
    if (text !== undefined) {
      const file = makeSourceFile(absPath, this.displayPath(absPath), text);
      let documents: SourceDocument[] | undefined;
      result = {
        file,
        get documents() {
          documents ??= parseDocuments(text);
          return documents;
        },
      };
    }
    this.files.set(absPath, result);
    return result ?? undefined;
  }

  /** Memoises a derived value (a loaded kustomization, a chart lookup) under a key for the whole run. */
  remember<T>(key: string, compute: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const value = compute();
    this.memo.set(key, value);
    return value;
  }
}

/** Whether a document read by the fast reader, whose node is not made yet, is a map (it only reads maps). */
const FAST_READ = new WeakSet<SourceDocument>();

/** The document was read already: its node count is not checked again (as `reparsedNode` does for linted files). */
const AGAIN = { ...DEFAULT_LIMITS, maxDocumentNodes: Number.MAX_SAFE_INTEGER };

/**
 * A document the fast reader read: most documents here are only looked at as objects, so its node is made on first
 * use, as a linted file's are (`reparsedNode`): by the fast reader with `yaml`'s ranges, or by `yaml` from the same span.
 */
function lazyNodeDocument(text: string, docIndex: number, span: DocumentSpan, object: unknown): SourceDocument {
  let node: YamlNode | undefined;
  const document: SourceDocument = {
    docIndex,
    object,
    get node(): YamlNode {
      return (node ??= fastDocumentNode(text, span, DEFAULT_LIMITS) ?? (parseSpan(text, AGAIN, span).documents[0]?.contents as YamlNode));
    },
  };
  FAST_READ.add(document);
  return document;
}

export function parseDocuments(text: string): SourceDocument[] {
  const documents: SourceDocument[] = [];
  let parsed: ReturnType<typeof parseStream>;
  // Plain block YAML is read by the fast reader (src/load/fast-yaml.ts), as the linted files are, within the same
  // node budgets; a document with .inf or .nan is left to `yaml` (its objects here keep `yaml`'s numbers for them).
  const fast = new Map<number, { span: DocumentSpan; object: unknown }>();
  let fastNodes = 0;
  const skip = (span: DocumentSpan, docIndex: number): boolean => {
    const read = fastReadDocument(text, span, DEFAULT_LIMITS);
    if (!read || read.nonFinite) return false;
    if (read.values > DEFAULT_LIMITS.maxDocumentNodes || DEFAULT_LIMITS.maxTotalNodes - fastNodes - read.values < 2 * DEFAULT_LIMITS.maxDocumentNodes) return false;
    fastNodes += read.values;
    fast.set(docIndex, { span, object: read.value });
    return true;
  };
  try {
    // The same reader as the linted files (limits, merge keys, duplicate keys), so document indices agree.
    parsed = parseStream(text, undefined, fastReaderEnabled() ? skip : undefined);
  } catch {
    return documents;
  }
  parsed.documents.forEach((doc, docIndex) => {
    const read = fast.get(docIndex);
    if (read) {
      documents.push(lazyNodeDocument(text, docIndex, read.span, read.object));
      return;
    }
    if (doc.errors.length > 0 || !doc.contents) return;
    const converted = documentToJS(doc, parsed.stats[docIndex]);
    documents.push({ docIndex, node: doc.contents as YamlNode, object: 'value' in converted ? converted.value : undefined });
  });
  return documents;
}

/** The first document that is a YAML map: how kustomization files and Chart.yaml are read. */
export function firstMapDocument(source: CachedSource | undefined): SourceDocument | undefined {
  return source?.documents.find((d) => (FAST_READ.has(d) || isMap(d.node)) && d.object && typeof d.object === 'object');
}
