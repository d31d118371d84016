// Resolves a JSON path inside a parsed YAML node to a region, falling back to the closest existing ancestor.
import { isMap, isPair, isScalar, isSeq, type Node as YamlNode, type Pair } from 'yaml';
import { regionOf } from './source-file.js';
import type { JsonPath, Located, SourceFile } from '../types.js';

interface Step {
  node: YamlNode;
  /** The key node when the step came through a map entry. */
  key?: YamlNode;
}

function child(node: YamlNode, segment: string | number): Step | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p: Pair) => {
      const k = p.key;
      return isScalar(k) ? String(k.value) === String(segment) : String(k) === String(segment);
    });
    if (!pair || !pair.value) return pair && isScalar(pair.key) ? { node: pair.key as YamlNode, key: pair.key as YamlNode } : undefined;
    return { node: pair.value as YamlNode, key: isScalar(pair.key) ? (pair.key as YamlNode) : undefined };
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item && !isPair(item) ? { node: item as YamlNode } : undefined;
  }
  return undefined;
}

function rangeOf(file: SourceFile, step: Step): [number, number] {
  const value = step.node.range;
  const isCollection = isMap(step.node) || isSeq(step.node);
  if (step.key?.range) {
    // A scalar finding reads best as "key: value" on one line; a collection as its key alone.
    if (!isCollection && value) return [step.key.range[0], value[1]];
    return [step.key.range[0], step.key.range[1]];
  }
  if (!value) return [0, 0];
  if (!isCollection) return [value[0], value[1]];
  // A collection without a key (a list item, a document): its first line only.
  const newline = file.text.indexOf('\n', value[0]);
  return [value[0], newline === -1 ? value[1] : Math.min(value[1], newline)];
}

/** Finds `path` under `root`; when the path is absent, points at the closest existing ancestor and says so. */
export function locateInNode(file: SourceFile, root: YamlNode, path: JsonPath): Located {
  let step: Step = { node: root };
  let depth = 0;
  for (const segment of path) {
    const next = child(step.node, segment);
    if (!next) break;
    step = next;
    depth++;
  }
  if (depth === 0) {
    // Nothing of the path exists: the resource's `kind:` line identifies it best.
    const kind = child(root, 'kind');
    if (kind) step = kind;
  }
  const [start, end] = rangeOf(file, step);
  const located: Located = { location: { file: file.path, region: regionOf(file, start, end) } };
  if (depth < path.length) {
    located.note = `${path.slice(depth).join('.')} is not set here`;
  }
  return located;
}
