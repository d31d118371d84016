// Splits a file into YAML documents with positions and turns Kubernetes objects into Resources.
// A document that does not parse becomes a `pvlint/parse` diagnostic, one over a limit (size, depth, aliases) a
// `pvlint/limit` diagnostic; the other documents still count. Nothing here throws on any input.
import { type Document, isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { Limits } from './limits.js';
import { regionOf } from './source-file.js';
import { documentToJS, parseStream } from './yaml-stream.js';
import type { Resource, SourceFile, SourceLocation } from '../types.js';

export interface ParseDiagnostic {
  ruleId: 'pvlint/parse' | 'pvlint/limit';
  message: string;
  location: SourceLocation;
}

export interface ParsedFile {
  resources: Resource[];
  diagnostics: ParseDiagnostic[];
  documents: Document.Parsed[];
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

function makeResource(file: SourceFile, docIndex: number, node: YamlNode, object: any): Resource | undefined {
  const metadata = object.metadata !== null && typeof object.metadata === 'object' && !Array.isArray(object.metadata) ? object.metadata : undefined;
  const name = scalarText(metadata?.name) ?? scalarText(metadata?.generateName) ?? '';
  const namespace = metadata?.namespace != null ? scalarText(metadata.namespace) : undefined;
  return {
    id: resourceId(object.kind, namespace, name),
    apiVersion: object.apiVersion,
    kind: object.kind,
    name,
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

/** Go template markers outside a chart's templates: the file is a template, not a manifest. */
function templateHint(text: string): string {
  return text.includes('{{') ? ' (it holds Go template markers {{ }}: a template is not a manifest; render it first, or exclude it with --ignore)' : '';
}

/**
 * @param limits document size, nesting depth and alias limits (defaults: `DEFAULT_LIMITS`).
 */
export function parseResources(file: SourceFile, limits?: Partial<Limits>): ParsedFile {
  const resources: Resource[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  let stream;
  try {
    stream = parseStream(file.text, limits);
  } catch (error) {
    // Not expected: parseStream measures documents before composing them. Still, a file never stops the run.
    diagnostics.push({
      ruleId: 'pvlint/parse',
      message: `cannot parse ${file.path}: ${firstLine(String((error as Error)?.message ?? error))}`,
      location: { file: file.path, region: regionOf(file, 0, 0) },
    });
    return { resources, diagnostics, documents: [] };
  }
  const { documents, limited, stats } = stream;
  for (const error of stream.streamErrors.slice(0, 1)) {
    const [start, end] = error.pos;
    diagnostics.push({
      ruleId: 'pvlint/parse',
      message: `YAML syntax error: ${firstLine(error.message)}${templateHint(file.text)}; this file is not linted`,
      location: { file: file.path, region: regionOf(file, start, Math.max(end, start + 1)) },
    });
  }
  documents.forEach((doc, docIndex) => {
    const limit = limited.get(docIndex);
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
    const converted = documentToJS(doc, stats[docIndex], limits);
    if (!('value' in converted)) {
      const range = doc.contents.range ?? [0, 0];
      diagnostics.push({
        ruleId: 'limit' in converted ? 'pvlint/limit' : 'pvlint/parse',
        message: `document ${docIndex + 1}${'limit' in converted ? `: ${converted.limit}` : ` cannot be read: ${firstLine(converted.error)}; this document is not linted`}`,
        location: { file: file.path, region: regionOf(file, range[0], range[0]) },
      });
      return;
    }
    collect(file, docIndex, doc.contents as YamlNode, converted.value, resources);
  });
  return { resources, diagnostics, documents };
}

function firstLine(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}
