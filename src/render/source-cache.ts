// Source files that locators read (bases, patches, kustomizations, templates), read and parsed once per run.
// Locators run synchronously inside rules' report(), so reads here are synchronous and memoised.
import { readFileSync } from 'node:fs';
import { isMap, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml';
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
    try {
      let text = readFileSync(absPath, 'utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      const file = makeSourceFile(absPath, this.displayPath(absPath), text);
      let documents: SourceDocument[] | undefined;
      result = {
        file,
        get documents() {
          documents ??= parseDocuments(text);
          return documents;
        },
      };
    } catch {
      result = null;
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
  let parsed: Document.Parsed[];
  try {
    parsed = parseAllDocuments(text, { prettyErrors: false, strict: false, logLevel: 'error' }) as Document.Parsed[];
  } catch {
    return documents;
  }
  if (!Array.isArray(parsed)) return documents;
  parsed.forEach((doc, docIndex) => {
    if (doc.errors.length > 0 || !doc.contents) return;
    let object: unknown;
    try {
      object = doc.toJS({ maxAliasCount: 1000 });
    } catch {
      object = undefined;
    }
    documents.push({ docIndex, node: doc.contents as YamlNode, object });
  });
  return documents;
}

/** The first document that is a YAML map: how kustomization files and Chart.yaml are read. */
export function firstMapDocument(source: CachedSource | undefined): SourceDocument | undefined {
  return source?.documents.find((d) => isMap(d.node) && d.object && typeof d.object === 'object');
}
