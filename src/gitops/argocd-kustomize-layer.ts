// An Argo CD Application's `kustomize:` block read as a kustomization: the repo-server runs `kustomize edit` in the
// source path before it builds it (argo-cd util/kustomize/kustomize.go: Build; [ARGO:kustomize]), so its `patches`,
// `replicas`, `namespace` and name prefix or suffix are the outermost layer of every object of that build, and a
// finding on a field one of them sets belongs at that line of the Application (or of the ApplicationSet template).
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { Kustomization } from '../render/kustomization.js';
import type { SourceCache } from '../render/source-cache.js';
import { writtenObject, type SourceAt } from './argocd-helm-values.js';
import { canonical, writtenDocument } from './flux-spec-layer.js';

/**
 * The `kustomize:` block of the source at `at` as a kustomization layer, when the Application is written in the
 * repository as it is applied. A list an ApplicationSet template wrote with expressions in it is not what the build
 * applied: it is left out rather than credited to those lines.
 */
export function argoKustomizeLayer(cache: SourceCache, at: SourceAt, applied: unknown): Kustomization | undefined {
  const written = writtenDocument(cache, writtenObject(at.holder));
  if (!written) return undefined;
  let node: YamlNode | undefined = written.node;
  for (const segment of [...at.path, 'kustomize']) node = isMap(node) || isSeq(node) ? (node.get(segment, true) as YamlNode | undefined) : undefined;
  if (!node || !isMap(node)) return undefined;
  const data = node.toJSON();
  if (data === null || typeof data !== 'object') return undefined;
  const own = applied !== null && typeof applied === 'object' ? (applied as Record<string, unknown>) : {};
  for (const key of Object.keys(data)) if (canonical(data[key]) !== canonical(own[key])) delete data[key];
  // Argo CD's `images` are `kustomize edit set image` arguments (strings), not kustomization entries.
  delete data.images;
  return {
    dir: `${written.source.file.absPath}#argocd-kustomize-${written.docIndex}-${at.path.join('.')}`,
    source: written.source,
    root: node,
    data,
    isComponent: false,
    resources: [],
    components: [],
  };
}
