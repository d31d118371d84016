// A Flux Kustomization's own `spec` read as a kustomization: the controller applies its `patches`, `images` and
// `namePrefix`/`nameSuffix` on top of the directory it builds, so they are the outermost layer of every object of
// that build, and a finding on a field one of them sets belongs at that line of the Flux object.
import { isMap, type Node as YamlNode } from 'yaml';
import type { Kustomization } from '../render/kustomization.js';
import type { KustomizeSource } from '../render/kustomize-source.js';
import type { CachedSource, SourceCache } from '../render/source-cache.js';
import type { Resource } from '../types.js';

interface Written {
  source: CachedSource;
  node: YamlNode;
  docIndex: number;
}

/** The document a user edits to change the Flux object: its own, or the base document of a rendered one. */
export function writtenDocument(cache: SourceCache, k: Resource): Written | undefined {
  const origin = k.sourceOrigin;
  if (!origin) {
    const source = cache.get(k.file.absPath);
    return source ? { source, node: k.node, docIndex: k.docIndex } : undefined;
  }
  const kustomize = origin as KustomizeSource;
  if (kustomize.kind !== 'kustomize' || kustomize.from !== 'base') return undefined;
  const match = kustomize.base.match;
  return match.doc ? { source: match.source, node: match.doc.node, docIndex: match.doc.docIndex } : undefined;
}

/** JSON with map keys sorted: kustomize prints the Flux object it built with its keys in its own order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
}

/**
 * The Flux Kustomization's `spec` as a kustomization layer, when the object is written in the repository as it is
 * applied (a substituted one has no such text) and its spec is a map.
 */
export function fluxSpecLayer(cache: SourceCache, k: Resource): Kustomization | undefined {
  const written = writtenDocument(cache, k);
  if (!written || !isMap(written.node)) return undefined;
  const spec = written.node.get('spec', true) as YamlNode | undefined;
  if (!isMap(spec)) return undefined;
  const data = spec.toJSON();
  if (data === null || typeof data !== 'object') return undefined;
  // A parent's patch may have replaced the list the build applies (a `spec.patches` default for every child): then
  // the written lines are not what ran, and the edits are left out rather than credited to them.
  for (const key of ['patches', 'images']) {
    if (canonical(data[key]) !== canonical(k.object?.spec?.[key])) delete data[key];
  }
  return {
    dir: `${written.source.file.absPath}#flux-kustomization-${written.docIndex}`,
    source: written.source,
    root: spec,
    data,
    isComponent: false,
    resources: [],
    components: [],
  };
}
