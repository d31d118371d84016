// What kustomize tells about where a rendered object comes from, recorded for the locate stage: the base document it
// was built from (matched through the overlay chain's name prefixes and suffixes), the generator that made it, or why
// neither can be pointed at (a remote base, an unreadable source).
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import { chainToFile, nameHistory, namespaceHistory, type Chain } from './overlay-chain.js';
import type { KustomizeOrigin } from './origin.js';
import type { Kustomization } from './kustomization.js';
import type { CachedSource, SourceCache, SourceDocument } from './source-cache.js';
import type { Origin, RenderOrigin, Resource } from '../types.js';

/** The object as kustomize rendered it, before later stages derived copies of it. */
export interface RenderedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | undefined;
  object: any;
}

export interface BaseMatch {
  chain?: Chain;
  source: CachedSource;
  doc?: SourceDocument;
  /** Every name the object had on the way up the chain, and every namespace. */
  names: Set<string>;
  namespaces: Set<string>;
}

/** The objects of a source file, with `kind: *List` documents unwrapped into their items (kustomize does so too). */
function objectsIn(source: CachedSource): SourceDocument[] {
  return source.documents.flatMap((d) => {
    const items = d.object?.items;
    if (!/List$/.test(String(d.object?.kind ?? '')) || !Array.isArray(items)) return [d];
    const seq = isMap(d.node) ? (d.node.get('items', true) as YamlNode | undefined) : undefined;
    return items.map((object: any, i: number) => ({ docIndex: d.docIndex, object, node: (seq && isSeq(seq) ? (seq.items[i] as YamlNode) : undefined) ?? d.node }));
  });
}

/**
 * The document of the source file that became the object. Matching costs a parse of the source file: only findings
 * (and the removed-object check) need it, so it is matched on first use, once.
 */
export class BaseDocument {
  private matched?: BaseMatch;

  constructor(
    private readonly cache: SourceCache,
    private readonly rootDir: string,
    private readonly originFile: string,
    readonly source: CachedSource,
    private readonly rendered: RenderedObject,
    private readonly outerLayer?: () => Kustomization | undefined,
  ) {}

  get match(): BaseMatch {
    return (this.matched ??= this.find());
  }

  private find(): BaseMatch {
    const { rendered, source } = this;
    const inner = chainToFile(this.cache, this.rootDir, this.originFile);
    const outer = inner ? this.outerLayer?.() : undefined;
    const chain = inner && outer ? { ...inner, groups: [...inner.groups, outer] } : inner;
    const groups = chain?.groups ?? [];
    const candidates = objectsIn(source).filter((d) => d.object?.kind === rendered.kind && d.object?.metadata?.name != null);
    const forward = (d: SourceDocument) => nameHistory(groups, rendered.kind, String(d.object.metadata.name));
    let doc = candidates.find((d) => forward(d).at(-1) === rendered.name);
    if (!doc && candidates.length === 1) doc = candidates[0];
    if (!doc) {
      // Transformers pvlint does not replay (suffix plugins, replacements) still leave the base name inside.
      doc = candidates
        .filter((d) => rendered.name.includes(String(d.object.metadata.name)))
        .sort((a, b) => String(b.object.metadata.name).length - String(a.object.metadata.name).length)[0];
    }
    const names = new Set([rendered.name, ...(doc ? forward(doc) : [])]);
    const ownNamespace = doc?.object?.metadata?.namespace;
    const namespaces = new Set(namespaceHistory(groups, ownNamespace == null ? undefined : String(ownNamespace)));
    if (rendered.namespace !== undefined) namespaces.add(rendered.namespace);
    return { chain, source, doc, names, namespaces };
  }
}

interface KustomizeSourceCommon extends Origin {
  kind: 'kustomize';
  cache: SourceCache;
  /** The rendered root (absolute). */
  rootDir: string;
  rendered: RenderedObject;
}

/** Where the fields of a kustomize-rendered object are written. */
export type KustomizeSource = KustomizeSourceCommon &
  (
    | { from: 'base'; base: BaseDocument }
    | { from: 'generator'; /** The kustomization holding the generator (absolute). */ configuredIn: string; generator: string | undefined }
    | { from: 'root'; /** Why nothing closer than the root's kustomization can be pointed at. */ why: string }
  );

export interface KustomizeSourceInput {
  cache: SourceCache;
  rootDir: string;
  annotation: KustomizeOrigin | undefined;
  /** `annotation.path` / `annotation.configuredIn` as absolute paths in the user's tree. */
  originFile?: string;
  configuredIn?: string;
  resource: Resource;
  /** See KustomizeRenderOptions.outerLayer. */
  outerLayer?: () => Kustomization | undefined;
}

export function recordKustomizeSource(input: KustomizeSourceInput): { origin: RenderOrigin; source: KustomizeSource } {
  const { cache, rootDir, annotation, resource } = input;
  const rendered: RenderedObject = { apiVersion: resource.apiVersion, kind: resource.kind, name: resource.name, namespace: resource.namespace, object: resource.object };
  const common: KustomizeSourceCommon = { kind: 'kustomize', cache, rootDir, rendered };
  if (input.configuredIn) {
    const generator = annotation?.configuredBy?.kind;
    return { origin: { renderer: 'kustomize', note: `generated by ${generator ?? 'a generator'}` }, source: { ...common, from: 'generator', configuredIn: input.configuredIn, generator } };
  }
  if (annotation?.repo) {
    const why = `comes from the remote base ${annotation.repo}${annotation.ref ? `?ref=${annotation.ref}` : ''} (${annotation.path ?? ''}), which is not in this repo`;
    return { origin: { renderer: 'kustomize', note: why }, source: { ...common, from: 'root', why } };
  }
  const source = input.originFile ? cache.get(input.originFile) : undefined;
  if (!source) {
    const why = input.originFile ? `kustomize named ${cache.displayPath(input.originFile)} as the source, but it cannot be read` : 'kustomize did not record where this object came from';
    return { origin: { renderer: 'kustomize', note: why }, source: { ...common, from: 'root', why } };
  }
  const base = new BaseDocument(cache, rootDir, input.originFile!, source, rendered, input.outerLayer);
  return {
    origin: {
      renderer: 'kustomize',
      file: source.file,
      get docIndex() {
        return base.match.doc?.docIndex;
      },
    },
    source: { ...common, from: 'base', base },
  };
}
