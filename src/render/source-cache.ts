// Source files that locators and renderers read (bases, patches, kustomizations, templates), read (with pvlint's one
// file reader, src/load/read-source.ts) and parsed once per run. Locators run synchronously inside rules' report(),
// so reads here are synchronous and memoised.
import { isMap, type Node as YamlNode } from 'yaml';
import { DEFAULT_LIMITS } from '../load/limits.js';
import { readSourceText } from '../load/read-source.js';
import { documentToJS, parseStream } from '../load/yaml-stream.js';
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

export function parseDocuments(text: string): SourceDocument[] {
  const documents: SourceDocument[] = [];
  let parsed: ReturnType<typeof parseStream>;
  try {
    // The same reader as the linted files (limits, merge keys, duplicate keys), so document indices agree.
    parsed = parseStream(text);
  } catch {
    return documents;
  }
  parsed.documents.forEach((doc, docIndex) => {
    if (doc.errors.length > 0 || !doc.contents) return;
    const converted = documentToJS(doc, parsed.stats[docIndex]);
    documents.push({ docIndex, node: doc.contents as YamlNode, object: 'value' in converted ? converted.value : undefined });
  });
  return documents;
}

/** The first document that is a YAML map: how kustomization files and Chart.yaml are read. */
export function firstMapDocument(source: CachedSource | undefined): SourceDocument | undefined {
  return source?.documents.find((d) => isMap(d.node) && d.object && typeof d.object === 'object');
}
