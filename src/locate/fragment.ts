// A YAML text embedded in another file (an inline `patch: |` in a kustomization). It is parsed on its
// own; its regions are shifted back to the lines and columns of the enclosing file.
import { isScalar, Scalar, type Node as YamlNode } from 'yaml';
import { makeSourceFile } from '../load/source-file.js';
import { locateInNode } from '../load/locate-node.js';
import { parseDocuments, type SourceDocument } from '../render/source-cache.js';
import type { JsonPath, Located, SourceFile } from '../types.js';

export interface Fragment {
  /** The file users edit (the kustomization, or the patch file itself). */
  file: SourceFile;
  documents: SourceDocument[];
  /** Locates `path` under `node` of this fragment, in the coordinates of `file`. */
  positionOf(node: YamlNode, path: JsonPath): Located;
  /** False when positions inside could not be mapped (quoted or folded scalars): everything points at `anchor`. */
  exact: boolean;
}

export function fileFragment(file: SourceFile, documents: SourceDocument[]): Fragment {
  return { file, documents, exact: true, positionOf: (node, path) => locateInNode(file, node, path) };
}

/**
 * Literal block scalars (`|`, `|-`) keep every content line verbatim after removing one fixed indent,
 * so a line/column inside the text maps to line + offset, column + indent in the outer file.
 */
export function inlineFragment(outer: SourceFile, scalar: YamlNode, anchor: YamlNode): Fragment {
  const text = isScalar(scalar) ? String(scalar.value ?? '') : '';
  const inner = makeSourceFile(`${outer.absPath}#inline`, outer.path, text);
  const documents = parseDocuments(text);
  const start = scalar.range?.[0] ?? 0;
  const literal = isScalar(scalar) && (scalar.type === Scalar.BLOCK_LITERAL);
  const headerEnd = outer.text.indexOf('\n', start);
  if (!literal || headerEnd === -1) {
    const fallback = (): Located => ({ ...locateInNode(outer, anchor, []), note: 'inside an inline patch' });
    return { file: outer, documents, exact: false, positionOf: fallback };
  }
  // First content line after the `|` header; its indentation is the block's indent.
  const content = /^( *)\S/m.exec(outer.text.slice(headerEnd + 1));
  const lineStart = headerEnd + 1 + (content?.index ?? 0);
  const indent = content ? content[1].length : 0;
  const firstInnerLine = text.search(/\S/) === -1 ? 1 : inner.lineCounter.linePos(text.search(/\S/)).line;
  const lineOffset = outer.lineCounter.linePos(lineStart).line - firstInnerLine;
  return {
    file: outer,
    documents,
    exact: true,
    positionOf(node, path) {
      const located = locateInNode(inner, node, path);
      const r = located.location.region;
      return {
        ...located,
        location: {
          file: outer.path,
          region: { startLine: r.startLine + lineOffset, startColumn: r.startColumn + indent, endLine: r.endLine + lineOffset, endColumn: r.endColumn + indent },
        },
      };
    },
  };
}
