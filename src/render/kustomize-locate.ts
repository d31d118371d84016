// Where a finding on a kustomize-rendered object belongs: the patch of the overlay chain that set the
// field (with the base as related location), else the field in the base document, else the generator
// entry for generated objects, else the base document's `kind:` line with a note saying why.
import path from 'node:path';
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import { firstLineRegion, regionOf } from '../load/source-file.js';
import { locateInNode } from '../locate/locate-node.js';
import { editsOf, type Attribution } from './kustomize-edits.js';
import { loadKustomization, type Kustomization } from './kustomization.js';
import { translatePath, valueAt } from './merge-path.js';
import { chainToFile, chainToGenerator, nameHistory, namespaceHistory, type Chain } from './overlay-chain.js';
import type { KustomizeOrigin } from './origin.js';
import type { CachedSource, SourceCache, SourceDocument } from './source-cache.js';
import type { PatchTarget } from './target-selector.js';
import type { JsonPath, Located, RenderOrigin, Resource, SourceLocation } from '../types.js';
import { ownEntry } from '../engine/own-entry.js';

export interface KustomizeLocatorInput {
  cache: SourceCache;
  /** The rendered root (absolute). */
  rootDir: string;
  origin: KustomizeOrigin | undefined;
  /** `origin.path` / `origin.configuredIn` as absolute paths in the user's tree. */
  originFile?: string;
  configuredIn?: string;
  resource: Resource;
}

const GENERATOR_FIELDS: Record<string, string> = {
  ConfigMapGenerator: 'configMapGenerator',
  SecretGenerator: 'secretGenerator',
  HelmChartInflationGenerator: 'helmCharts',
};

/** kustomize appends `-<10 chars>` of content hash to generated names unless disabled. */
function isGeneratedName(actual: string, expected: string): boolean {
  return actual === expected || (actual.startsWith(`${expected}-`) && /^[a-z0-9]{10}$/.test(actual.slice(expected.length + 1)));
}

function fileStart(source: CachedSource): SourceLocation {
  return { file: source.file.path, region: firstLineRegion(source.file) };
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

interface BaseMatch {
  chain?: Chain;
  source: CachedSource;
  doc?: SourceDocument;
  target: PatchTarget;
}

function findBase(input: KustomizeLocatorInput, source: CachedSource): BaseMatch {
  const { cache, rootDir, resource } = input;
  const chain = chainToFile(cache, rootDir, input.originFile!);
  const groups = chain?.groups ?? [];
  const candidates = objectsIn(source).filter((d) => d.object?.kind === resource.kind && d.object?.metadata?.name != null);
  const forward = (d: SourceDocument) => nameHistory(groups, resource.kind, String(d.object.metadata.name));
  let doc = candidates.find((d) => forward(d).at(-1) === resource.name);
  if (!doc && candidates.length === 1) doc = candidates[0];
  if (!doc) {
    // Transformers pvlint does not replay (suffix plugins, replacements) still leave the base name inside.
    doc = candidates
      .filter((d) => resource.name.includes(String(d.object.metadata.name)))
      .sort((a, b) => String(b.object.metadata.name).length - String(a.object.metadata.name).length)[0];
  }
  const names = new Set([resource.name, ...(doc ? forward(doc) : [])]);
  const ownNamespace = doc?.object?.metadata?.namespace;
  const namespaces = new Set(namespaceHistory(groups, ownNamespace == null ? undefined : String(ownNamespace)));
  if (resource.namespace !== undefined) namespaces.add(resource.namespace);
  const metadata = resource.object?.metadata ?? {};
  return {
    chain,
    source,
    doc,
    target: {
      apiVersion: resource.apiVersion,
      kind: resource.kind,
      names,
      namespaces,
      labels: metadata.labels && typeof metadata.labels === 'object' ? metadata.labels : {},
      annotations: metadata.annotations && typeof metadata.annotations === 'object' ? metadata.annotations : {},
    },
  };
}

/** The last edit along the chain (outermost kustomization, last patch) that wrote the path. */
function lastWriter(cache: SourceCache, chain: Chain | undefined, target: PatchTarget, rendered: any, p: JsonPath): Attribution | undefined {
  if (!chain) return undefined;
  const edits = chain.groups.flatMap((k) => editsOf(cache, k));
  for (let i = edits.length - 1; i >= 0; i--) {
    const found = edits[i].attribute(target, rendered, p);
    if (found) return found;
  }
  return undefined;
}

function locateInBase(input: KustomizeLocatorInput, base: BaseMatch, p: JsonPath): Located {
  const { resource } = input;
  const file = base.source.file;
  if (!base.doc) {
    return {
      location: fileStart(base.source),
      note: `no ${resource.kind} that becomes "${resource.name}" was found in ${file.path}; pointing at the file`,
    };
  }
  const rendered = resource.object;
  const translated = translatePath(base.doc.object, rendered, p);
  // The deepest field of the path the base has; with none of it there, the document's `kind:` line.
  const inBase = locateInNode(file, base.doc.node, translated.matched === 0 && p.length > 0 ? ['kind'] : translated.path);
  const missing = p.slice(translated.matched).join('.');
  const baseLocated: Located = translated.matched === p.length ? { location: inBase.location } : { location: inBase.location, note: `${missing} is not set here` };
  const writer = lastWriter(input.cache, base.chain, base.target, rendered, p);
  if (writer && (writer.extent === 'set' || translated.matched < p.length)) {
    return {
      location: writer.located.location,
      related: [{ message: `base ${resource.kind} in ${file.path}`, location: inBase.location }],
      ...(writer.located.note ? { note: writer.located.note } : {}),
    };
  }
  if (writer) return { location: inBase.location, related: [{ message: `also changed by the ${writer.label}`, location: writer.located.location }] };
  if (translated.matched < p.length && valueAt(rendered, p) !== undefined) {
    return {
      location: inBase.location,
      note: `${missing} is not in ${file.path} and no patch, replicas or images entry of the overlay chain sets it (another kustomize transformer did); pointing at the closest field`,
    };
  }
  return baseLocated;
}

function generatorEntryNode(holder: Kustomization, field: string, index: number): YamlNode | undefined {
  const list = isMap(holder.root) ? (holder.root.get(field, true) as YamlNode | undefined) : undefined;
  return list && isSeq(list) ? (list.items[index] as YamlNode | undefined) : undefined;
}

/** A data key of a generated ConfigMap/Secret: its literal, its file entry, or its line in an env file. */
function locateDataKey(input: KustomizeLocatorInput, holder: Kustomization, entry: any, entryNode: YamlNode, key: string): Located | undefined {
  const file = holder.source.file;
  const literals: unknown[] = Array.isArray(entry.literals) ? entry.literals : [];
  const literal = literals.findIndex((l) => typeof l === 'string' && l.startsWith(`${key}=`));
  if (literal !== -1) return locateInNode(file, entryNode, ['literals', literal]);
  const files: unknown[] = Array.isArray(entry.files) ? entry.files : [];
  const named = files.findIndex((f) => typeof f === 'string' && (f.startsWith(`${key}=`) || path.basename(f) === key));
  if (named !== -1) return locateInNode(file, entryNode, ['files', named]);
  const envs: string[] = [...(Array.isArray(entry.envs) ? entry.envs : []), ...(typeof entry.env === 'string' ? [entry.env] : [])];
  for (const env of envs) {
    const source = input.cache.get(path.resolve(holder.dir, env));
    if (!source) continue;
    const match = new RegExp(`^[ \\t]*${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*=.*$`, 'm').exec(source.file.text);
    if (match) return { location: { file: source.file.path, region: regionOf(source.file, match.index, match.index + match[0].length) } };
  }
  return undefined;
}

function locateGenerated(input: KustomizeLocatorInput, p: JsonPath): Located {
  const { cache, resource, origin } = input;
  const chain = chainToGenerator(cache, input.rootDir, input.configuredIn!);
  const holder = chain?.holder ?? loadKustomization(cache, path.dirname(input.configuredIn!));
  const generator = origin?.configuredBy?.kind ?? 'generator';
  if (!holder) return fallbackToRoot(input, `generated by ${generator} in ${input.configuredIn}, which could not be read`);
  const field = ownEntry(GENERATOR_FIELDS, generator) ?? 'generators';
  const entries: any[] = Array.isArray(holder.data?.[field]) ? holder.data[field] : [];
  const groups = chain?.groups ?? [holder];
  let index = entries.findIndex((e) => e?.name != null && isGeneratedName(resource.name, nameHistory(groups, resource.kind, String(e.name)).at(-1)!));
  if (index === -1 && entries.length === 1) index = 0;
  const entryNode = index === -1 ? undefined : generatorEntryNode(holder, field, index);
  if (!entryNode) {
    return { ...locateInNode(holder.source.file, holder.root, [field]), note: `generated by ${generator}; the entry producing "${resource.name}" was not identified` };
  }
  if ((p[0] === 'data' || p[0] === 'binaryData' || p[0] === 'stringData') && typeof p[1] === 'string') {
    const found = locateDataKey(input, holder, entries[index], entryNode, p[1]);
    if (found) return found;
  }
  return { ...locateInNode(holder.source.file, entryNode, ['name']), note: `generated by the ${field} entry "${entries[index].name}"` };
}

function fallbackToRoot(input: KustomizeLocatorInput, why: string): Located {
  const root = loadKustomization(input.cache, input.rootDir);
  const location = root ? fileStart(root.source) : { file: input.cache.displayPath(input.rootDir), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
  return { location, note: why };
}

/** Builds the locator of one rendered object; the base document is matched once, edits are checked per finding. */
export function kustomizeLocator(input: KustomizeLocatorInput): { origin: RenderOrigin; locate: (p: JsonPath) => Located } {
  const { origin } = input;
  if (input.configuredIn) {
    return { origin: { renderer: 'kustomize', note: `generated by ${origin?.configuredBy?.kind ?? 'a generator'}` }, locate: (p) => locateGenerated(input, p) };
  }
  if (origin?.repo) {
    const why = `comes from the remote base ${origin.repo}${origin.ref ? `?ref=${origin.ref}` : ''} (${origin.path ?? ''}), which is not in this repo`;
    return { origin: { renderer: 'kustomize', note: why }, locate: () => fallbackToRoot(input, why) };
  }
  const source = input.originFile ? input.cache.get(input.originFile) : undefined;
  if (!source) {
    const why = input.originFile
      ? `kustomize named ${input.cache.displayPath(input.originFile)} as the source, but it cannot be read`
      : 'kustomize did not record where this object came from';
    return { origin: { renderer: 'kustomize', note: why }, locate: () => fallbackToRoot(input, why) };
  }
  // Matching the base document costs a parse of the source file: only findings need it, so do it on first use.
  let base: BaseMatch | undefined;
  const match = () => (base ??= findBase(input, source));
  return {
    origin: {
      renderer: 'kustomize',
      file: source.file,
      get docIndex() {
        return match().doc?.docIndex;
      },
    },
    locate: (p) => locateInBase(input, match(), p),
  };
}
