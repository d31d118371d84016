// Objects the kustomization tree reads that its build does not output: an overlay (or component) removed them with a
// `$patch: delete` strategic-merge patch. Found by comparing the source documents of the resource files the tree
// lists with the origins of the rendered objects, so rules can tell "removed by this repository" from "not in the
// repository". Only the kinds asked for are compared (claims today).
import path from 'node:path';
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { makeResource } from '../load/parse-resources.js';
import { regionOf } from '../load/source-file.js';
import type { RemovedObject } from '../model/removed-objects.js';
import type { Origin, Resource, SourceLocation } from '../types.js';
import { loadKustomization, type Kustomization } from './kustomization.js';
import { parseDocuments, type SourceCache } from './source-cache.js';

function treeOf(cache: SourceCache, rootDir: string): Kustomization[] {
  const seen = new Set<string>();
  const order: Kustomization[] = [];
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    const k = loadKustomization(cache, dir);
    if (!k) return;
    order.push(k);
    for (const entry of [...k.resources, ...k.components]) if (entry.type === 'kustomization') visit(entry.abs!);
  };
  visit(rootDir);
  return order;
}

/** A delete patch written inline in a kustomization: everything about it is at its `$patch: delete` line. */
export interface DeletePatchLine extends Origin {
  kind: 'delete-patch-line';
  location: SourceLocation;
}

const isDelete = (object: any) => object && typeof object === 'object' && object.$patch === 'delete';

/** Every `$patch: delete` patch in the kustomization's `patches` and `patchesStrategicMerge`, as a locatable Resource. */
function deletePatches(cache: SourceCache, k: Kustomization): Resource[] {
  const found: Resource[] = [];
  const fromFile = (relative: string) => {
    const source = cache.get(path.resolve(k.dir, relative));
    for (const doc of source?.documents ?? []) if (isDelete(doc.object)) found.push(makeResource(source!.file, doc.docIndex, () => doc.node, doc.object));
  };
  const inline = (text: string, node: YamlNode, index: number) => {
    for (const doc of parseDocuments(text)) {
      if (!isDelete(doc.object)) continue;
      const resource = makeResource(k.source.file, index, node, doc.object);
      // The inline text is a block scalar of the kustomization: point at its `$patch: delete` line there.
      const [start, end] = node.range ?? [0, 0];
      const at = k.source.file.text.slice(start, end).search(/\$patch:\s*delete/);
      if (at >= 0) {
        const from = start + at;
        const lineEnd = k.source.file.text.indexOf('\n', from);
        const region = regionOf(k.source.file, from, lineEnd === -1 ? end : lineEnd);
        const line: DeletePatchLine = { kind: 'delete-patch-line', location: { file: k.source.file.path, region } };
        resource.sourceOrigin = line;
      }
      found.push(resource);
    }
  };
  const root = k.root;
  if (!isMap(root)) return found;
  for (const key of ['patches', 'patchesStrategicMerge']) {
    const list = root.get(key, true) as YamlNode | undefined;
    if (!list || !isSeq(list)) continue;
    list.items.forEach((item, index) => {
      const node = item as YamlNode;
      if (isScalar(node) && typeof node.value === 'string') {
        if (node.value.includes('\n')) inline(node.value, node, index);
        else fromFile(node.value);
      } else if (isMap(node)) {
        const patch = node.get('patch', true) as YamlNode | undefined;
        const file = node.get('path');
        if (patch && isScalar(patch) && typeof patch.value === 'string') inline(patch.value, node, index);
        else if (typeof file === 'string') fromFile(file);
      }
    });
  }
  return found;
}

/**
 * Objects of `kinds` declared in the tree's resource files that no rendered object comes from, with the delete patch
 * naming them. Only objects a delete patch names are returned: an object missing from the output for another reason
 * (an origin the locator could not match) is not claimed to be removed.
 */
export function removedByKustomization(cache: SourceCache, rootDir: string, rendered: readonly Resource[], kinds: readonly string[]): RemovedObject[] {
  const tree = treeOf(cache, rootDir);
  const patches = tree.flatMap((k) => deletePatches(cache, k));
  if (patches.length === 0) return [];
  const renderedFrom = new Set<string>();
  for (const r of rendered) {
    const file = r.origin?.file?.absPath;
    if (file) renderedFrom.add(`${file}#${r.origin?.docIndex ?? '?'}#${r.kind}`);
  }
  const removed: RemovedObject[] = [];
  for (const k of tree) {
    for (const entry of [...k.resources, ...k.components]) {
      if (entry.type !== 'file') continue;
      const source = cache.get(entry.abs!);
      for (const doc of source?.documents ?? []) {
        const object = doc.object;
        if (!object || typeof object !== 'object' || !kinds.includes(object.kind)) continue;
        const name = object.metadata?.name;
        if (typeof name !== 'string') continue;
        const file = source!.file.absPath;
        if (renderedFrom.has(`${file}#${doc.docIndex}#${object.kind}`) || renderedFrom.has(`${file}#?#${object.kind}`)) continue;
        const deletedBy = patches.find((p) => p.object.kind === object.kind && p.object.metadata?.name === name);
        if (!deletedBy) continue;
        removed.push({ resource: makeResource(source!.file, doc.docIndex, () => doc.node, object), deletedBy });
      }
    }
  }
  return removed;
}
