// The field-level edits one kustomization makes to the objects passing through it (patches of every
// form, replicas, images, namespace), in kustomize's order, each able to say whether it set a given path.
import path from 'node:path';
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import { locateInNode } from '../load/locate-node.js';
import { fileFragment, inlineFragment, type Fragment } from './fragment.js';
import type { Kustomization } from '../render/kustomization.js';
import { translatePath, valueAt } from './merge-path.js';
import type { SourceCache } from '../render/source-cache.js';
import { selects, type PatchTarget, type Selector } from './target-selector.js';
import type { JsonPath, Located } from '../types.js';

export interface Attribution {
  located: Located;
  /** `set`: the edit wrote the node at the path; `inside`: it wrote only part of that node. */
  extent: 'set' | 'inside';
  /** What made the change, for messages: `patch overlays/prod/patch.yaml`. */
  label: string;
}

export interface Edit {
  attribute(target: PatchTarget, rendered: any, path: JsonPath): Attribution | undefined;
}

const isContainer = (value: unknown) => value !== null && typeof value === 'object';

function listNode(k: Kustomization, key: string): YamlNode | undefined {
  return isMap(k.root) ? (k.root.get(key, true) as YamlNode | undefined) : undefined;
}

/** A strategic-merge patch document: it sets every path it contains. */
function strategicMerge(fragment: Fragment, node: YamlNode, body: any, selector: Selector, label: string): Edit {
  return {
    attribute(target, rendered, p) {
      if (!selects(selector, target)) return undefined;
      const translated = translatePath(body, rendered, p);
      if (translated.matched < p.length) return undefined;
      if (p[0] === 'metadata' && (p[1] === 'name' || p[1] === 'namespace') && p.length === 2) return undefined;
      const value = valueAt(body, translated.path);
      if (value && typeof value === 'object' && value.$patch === 'delete') return undefined;
      return { located: fragment.positionOf(node, translated.path), extent: isContainer(value) ? 'inside' : 'set', label };
    },
  };
}

function pointer(text: string): string[] {
  return text.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A JSON 6902 patch: each add/replace/copy/move op writes the subtree at its `path`. */
function json6902(fragment: Fragment, node: YamlNode, ops: any[], selector: Selector, label: string): Edit {
  return {
    attribute(target, rendered, p) {
      if (!selects(selector, target) || !isSeq(node)) return undefined;
      for (let i = ops.length - 1; i >= 0; i--) {
        const op = ops[i];
        if (!op || !['add', 'replace', 'copy', 'move'].includes(op.op) || typeof op.path !== 'string') continue;
        const segments = pointer(op.path);
        let matches = true;
        let current: any = rendered;
        const common = Math.min(segments.length, p.length);
        for (let s = 0; s < common && matches; s++) {
          const want = p[s];
          const seg = segments[s];
          // `-` appends: it is the last item of the list as rendered (unless something appended later).
          if (seg === '-') matches = typeof want === 'number' && Array.isArray(current) && want === current.length - 1;
          else matches = String(want) === seg;
          current = isContainer(current) ? (current as any)[want] : undefined;
        }
        if (!matches) continue;
        const opNode = (node.items[i] as YamlNode | undefined) ?? node;
        if (segments.length > p.length) {
          return { located: fragment.positionOf(opNode, ['path']), extent: 'inside', label };
        }
        if (op.op !== 'add' && op.op !== 'replace') return { located: fragment.positionOf(opNode, ['from']), extent: 'set', label };
        const rest = p.slice(segments.length);
        const within = translatePath(op.value, valueAt(rendered, p.slice(0, segments.length)), rest);
        const located = within.matched === rest.length ? fragment.positionOf(opNode, ['value', ...within.path]) : fragment.positionOf(opNode, ['value']);
        return { located, extent: 'set', label };
      }
      return undefined;
    },
  };
}

/** `replicas: [{name, count}]` writes spec.replicas of the named workloads. */
function replicas(k: Kustomization, entryNode: YamlNode, entry: any): Edit {
  const kinds = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);
  return {
    attribute(target, _rendered, p) {
      if (p.length !== 2 || p[0] !== 'spec' || p[1] !== 'replicas') return undefined;
      if (!kinds.has(target.kind) || !target.names.has(String(entry.name))) return undefined;
      return { located: locateInNode(k.source.file, entryNode, ['count']), extent: 'set', label: `replicas in ${k.source.file.path}` };
    },
  };
}

export function imageName(image: string): string {
  const noDigest = image.split('@')[0];
  const colon = noDigest.lastIndexOf(':');
  return colon > noDigest.lastIndexOf('/') ? noDigest.slice(0, colon) : noDigest;
}

/** `images: [{name, newName, newTag, digest}]` rewrites container images whose name matches. */
function images(k: Kustomization, entryNode: YamlNode, entry: any): Edit {
  const resulting = String(entry.newName ?? entry.name);
  const field = ['newTag', 'digest', 'newName'].find((f) => entry[f] !== undefined) ?? 'name';
  return {
    attribute(_target, rendered, p) {
      if (p[p.length - 1] !== 'image') return undefined;
      const value = valueAt(rendered, p);
      if (typeof value !== 'string' || imageName(value) !== resulting) return undefined;
      return { located: locateInNode(k.source.file, entryNode, [field]), extent: 'set', label: `images in ${k.source.file.path}` };
    },
  };
}

function namespace(k: Kustomization): Edit {
  return {
    attribute(_target, _rendered, p) {
      if (p.length !== 2 || p[0] !== 'metadata' || p[1] !== 'namespace') return undefined;
      return { located: locateInNode(k.source.file, k.root, ['namespace']), extent: 'set', label: `namespace in ${k.source.file.path}` };
    },
  };
}

function bodySelector(body: any): Selector {
  return { kind: body?.kind, name: body?.metadata?.name != null ? escapeRegex(String(body.metadata.name)) : undefined, namespace: body?.metadata?.namespace != null ? escapeRegex(String(body.metadata.namespace)) : undefined };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A patch given as a file path (relative to the kustomization) or as inline YAML text. */
function patchFragment(cache: SourceCache, k: Kustomization, value: unknown, valueNode: YamlNode | undefined, anchor: YamlNode): Fragment | undefined {
  if (typeof value !== 'string') return undefined;
  if (!value.includes('\n')) {
    const source = cache.get(path.resolve(k.dir, value));
    if (source) return fileFragment(source.file, source.documents);
  }
  return valueNode ? inlineFragment(k.source.file, valueNode, anchor) : undefined;
}

function patchEdits(fragment: Fragment, selector: Selector | undefined, forceJson: boolean): Edit[] {
  const edits: Edit[] = [];
  for (const doc of fragment.documents) {
    const label = `patch in ${fragment.file.path}`;
    if (Array.isArray(doc.object) || forceJson) {
      if (selector && Array.isArray(doc.object)) edits.push(json6902(fragment, doc.node, doc.object, selector, label));
    } else if (doc.object && typeof doc.object === 'object') {
      edits.push(strategicMerge(fragment, doc.node, doc.object, selector ?? bodySelector(doc.object), label));
    }
  }
  return edits;
}

/** The edits of one kustomization's own fields, in the order kustomize's builtin transformers run. */
export function editsOf(cache: SourceCache, k: Kustomization): Edit[] {
  return cache.remember(`edits:${k.dir}`, () => {
    const edits: Edit[] = [];
    const data = k.data ?? {};
    const each = (key: string, fn: (item: any, node: YamlNode | undefined, index: number) => void) => {
      if (!Array.isArray(data[key])) return;
      const list = listNode(k, key);
      data[key].forEach((item: any, index: number) => fn(item, list && isSeq(list) ? (list.items[index] as YamlNode) : undefined, index));
    };
    each('patchesStrategicMerge', (item, node) => {
      const fragment = node ? patchFragment(cache, k, item, node, node) : undefined;
      if (fragment) edits.push(...patchEdits(fragment, undefined, false));
    });
    each('patches', (item, node) => {
      if (!item || typeof item !== 'object' || !node || !isMap(node)) return;
      const valueNode = (item.path !== undefined ? node.get('path', true) : node.get('patch', true)) as YamlNode | undefined;
      const fragment = patchFragment(cache, k, item.path ?? item.patch, item.path !== undefined ? undefined : valueNode, node);
      if (fragment) edits.push(...patchEdits(fragment, item.target, false));
    });
    if (typeof data.namespace === 'string' && isMap(k.root)) edits.push(namespace(k));
    each('patchesJson6902', (item, node) => {
      if (!item || typeof item !== 'object' || !node || !isMap(node)) return;
      const valueNode = (item.path !== undefined ? undefined : node.get('patch', true)) as YamlNode | undefined;
      const fragment = patchFragment(cache, k, item.path ?? item.patch, valueNode, node);
      if (fragment) edits.push(...patchEdits(fragment, item.target ?? {}, true));
    });
    each('replicas', (item, node) => {
      if (item?.name !== undefined && node) edits.push(replicas(k, node, item));
    });
    each('images', (item, node) => {
      if (item?.name !== undefined && node) edits.push(images(k, node, item));
    });
    return edits;
  });
}
