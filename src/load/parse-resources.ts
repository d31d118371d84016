// Splits a file into YAML documents with positions and turns Kubernetes objects into Resources.
// A document that does not parse becomes a `pvlint/parse` diagnostic; the other documents still count.
import { isMap, isSeq, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml';
import { regionOf } from './source-file.js';
import type { Resource, SourceFile, SourceLocation } from '../types.js';

export interface ParseDiagnostic {
  ruleId: 'pvlint/parse';
  message: string;
  location: SourceLocation;
}

export interface ParsedFile {
  resources: Resource[];
  diagnostics: ParseDiagnostic[];
  documents: Document.Parsed[];
}

/** Bounds alias expansion ("billion laughs") well above what real manifests use. */
const MAX_ALIAS_COUNT = 1000;

export function resourceId(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ''}/${name}`;
}

function isKubernetesObject(value: unknown): value is { apiVersion: string; kind: string; metadata?: any; items?: unknown } {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) &&
    typeof (value as any).apiVersion === 'string' && typeof (value as any).kind === 'string'
  );
}

function makeResource(file: SourceFile, docIndex: number, node: YamlNode, object: any): Resource | undefined {
  const metadata = object.metadata;
  const name = metadata && typeof metadata === 'object' ? metadata.name ?? metadata.generateName : undefined;
  const namespace = metadata && typeof metadata === 'object' && metadata.namespace != null ? String(metadata.namespace) : undefined;
  return {
    id: resourceId(object.kind, namespace, name == null ? '' : String(name)),
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: name == null ? '' : String(name),
    namespace,
    object,
    file,
    docIndex,
    node,
  };
}

/** `kind: List` and `*List` kinds carry their objects in `items`; unwrap them, nested lists too. */
function collect(file: SourceFile, docIndex: number, node: YamlNode, object: any, out: Resource[], depth = 0): void {
  if (!isKubernetesObject(object)) return;
  if (/List$/.test(object.kind) && Array.isArray(object.items) && depth < 8) {
    const itemsNode = isMap(node) ? (node.get('items', true) as YamlNode | undefined) : undefined;
    object.items.forEach((item: unknown, i: number) => {
      const itemNode = itemsNode && isSeq(itemsNode) ? (itemsNode.items[i] as YamlNode | undefined) : undefined;
      collect(file, docIndex, itemNode ?? node, item, out, depth + 1);
    });
    return;
  }
  const resource = makeResource(file, docIndex, node, object);
  if (resource) out.push(resource);
}

export function parseResources(file: SourceFile): ParsedFile {
  const resources: Resource[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  let documents: Document.Parsed[];
  try {
    documents = parseAllDocuments(file.text, { prettyErrors: false, uniqueKeys: true, strict: false, logLevel: 'error' }) as Document.Parsed[];
  } catch (error) {
    diagnostics.push({
      ruleId: 'pvlint/parse',
      message: `cannot parse ${file.path}: ${(error as Error).message}`,
      location: { file: file.path, region: regionOf(file, 0, 0) },
    });
    return { resources, diagnostics, documents: [] };
  }
  if (!Array.isArray(documents)) documents = [documents];
  documents.forEach((doc, docIndex) => {
    if (doc.errors.length > 0) {
      const error = doc.errors[0];
      const [start, end] = error.pos;
      diagnostics.push({
        ruleId: 'pvlint/parse',
        message: `YAML syntax error in document ${docIndex + 1}: ${firstLine(error.message)}; this document is not linted`,
        location: { file: file.path, region: regionOf(file, start, Math.max(end, start + 1)) },
      });
      return;
    }
    if (!doc.contents) return;
    let object: unknown;
    try {
      object = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      const range = doc.contents.range ?? [0, 0];
      diagnostics.push({
        ruleId: 'pvlint/parse',
        message: `document ${docIndex + 1} cannot be read: ${firstLine((error as Error).message)}; this document is not linted`,
        location: { file: file.path, region: regionOf(file, range[0], range[0]) },
      });
      return;
    }
    collect(file, docIndex, doc.contents as YamlNode, object, resources);
  });
  return { resources, diagnostics, documents };
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
