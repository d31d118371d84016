// Where a finding on a kustomize-rendered object belongs: the patch of the overlay chain that set the
// field (with the base as related location), else the field in the base document, else the generator
// entry for generated objects, else the base document's `kind:` line with a note saying why.
import path from 'node:path';
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import { firstLineRegion, regionOf } from '../load/source-file.js';
import { locateInNode } from '../load/locate-node.js';
import { editsOf, type Attribution } from './kustomize-edits.js';
import { loadKustomization, type Kustomization } from '../render/kustomization.js';
import { translatePath, valueAt } from './merge-path.js';
import { chainToGenerator, nameHistory, type Chain } from '../render/overlay-chain.js';
import type { BaseMatch, KustomizeSource, RenderedObject } from '../render/kustomize-source.js';
import type { CachedSource, SourceCache } from '../render/source-cache.js';
import type { PatchTarget } from './target-selector.js';
import type { JsonPath, Located, SourceLocation } from '../types.js';
import { ownEntry } from '../engine/own-entry.js';

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

/** What a patch can see of the object at the layer it applies to: every name and namespace it had on the way up. */
function targetOf(rendered: RenderedObject, base: BaseMatch): PatchTarget {
  const metadata = rendered.object?.metadata ?? {};
  return {
    apiVersion: rendered.apiVersion,
    kind: rendered.kind,
    names: base.names,
    namespaces: base.namespaces,
    labels: metadata.labels && typeof metadata.labels === 'object' ? metadata.labels : {},
    annotations: metadata.annotations && typeof metadata.annotations === 'object' ? metadata.annotations : {},
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

function locateInBase(origin: KustomizeSource, base: BaseMatch, p: JsonPath): Located {
  const resource = origin.rendered;
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
  const writer = lastWriter(origin.cache, base.chain, targetOf(resource, base), rendered, p);
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
function locateDataKey(cache: SourceCache, holder: Kustomization, entry: any, entryNode: YamlNode, key: string): Located | undefined {
  const file = holder.source.file;
  const literals: unknown[] = Array.isArray(entry.literals) ? entry.literals : [];
  const literal = literals.findIndex((l) => typeof l === 'string' && l.startsWith(`${key}=`));
  if (literal !== -1) return locateInNode(file, entryNode, ['literals', literal]);
  const files: unknown[] = Array.isArray(entry.files) ? entry.files : [];
  const named = files.findIndex((f) => typeof f === 'string' && (f.startsWith(`${key}=`) || path.basename(f) === key));
  if (named !== -1) return locateInNode(file, entryNode, ['files', named]);
  const envs: string[] = [...(Array.isArray(entry.envs) ? entry.envs : []), ...(typeof entry.env === 'string' ? [entry.env] : [])];
  for (const env of envs) {
    const source = cache.get(path.resolve(holder.dir, env));
    if (!source) continue;
    const match = new RegExp(`^[ \\t]*${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*=.*$`, 'm').exec(source.file.text);
    if (match) return { location: { file: source.file.path, region: regionOf(source.file, match.index, match.index + match[0].length) } };
  }
  return undefined;
}

/** The kustomization and the generator entry that produced a generated object (index -1 when not identified). */
function generatorEntry(origin: KustomizeSource & { from: 'generator' }): { holder: Kustomization; field: string; entries: any[]; index: number } | undefined {
  const { cache, rendered: resource, configuredIn } = origin;
  const chain = chainToGenerator(cache, origin.rootDir, configuredIn);
  const holder = chain?.holder ?? loadKustomization(cache, path.dirname(configuredIn));
  if (!holder) return undefined;
  const field = ownEntry(GENERATOR_FIELDS, origin.generator ?? 'generator') ?? 'generators';
  const entries: any[] = Array.isArray(holder.data?.[field]) ? holder.data[field] : [];
  const groups = chain?.groups ?? [holder];
  let index = entries.findIndex((e) => e?.name != null && isGeneratedName(resource.name, nameHistory(groups, resource.kind, String(e.name)).at(-1)!));
  if (index === -1 && entries.length === 1) index = 0;
  return { holder, field, entries, index };
}

/** The repository file a generated ConfigMap's or Secret's data key was read from (a `files:` entry), if it was. */
export function generatedDataFile(origin: KustomizeSource, key: string): CachedSource | undefined {
  if (origin.from !== 'generator') return undefined;
  const found = generatorEntry(origin);
  if (!found || found.index === -1) return undefined;
  const files: unknown[] = Array.isArray(found.entries[found.index]?.files) ? found.entries[found.index].files : [];
  const named = files.find((f): f is string => typeof f === 'string' && (f.startsWith(`${key}=`) || path.basename(f) === key));
  if (named === undefined) return undefined;
  const relative = named.startsWith(`${key}=`) ? named.slice(key.length + 1) : named;
  return origin.cache.get(path.resolve(found.holder.dir, relative));
}

function locateGenerated(origin: KustomizeSource & { from: 'generator' }, p: JsonPath): Located {
  const { cache, rendered: resource, configuredIn } = origin;
  const generator = origin.generator ?? 'generator';
  const found = generatorEntry(origin);
  if (!found) return fallbackToRoot(origin, `generated by ${generator} in ${configuredIn}, which could not be read`);
  const { holder, field, entries, index } = found;
  const entryNode = index === -1 ? undefined : generatorEntryNode(holder, field, index);
  if (!entryNode) {
    return { ...locateInNode(holder.source.file, holder.root, [field]), note: `generated by ${generator}; the entry producing "${resource.name}" was not identified` };
  }
  if ((p[0] === 'data' || p[0] === 'binaryData' || p[0] === 'stringData') && typeof p[1] === 'string') {
    const found = locateDataKey(cache, holder, entries[index], entryNode, p[1]);
    if (found) return found;
  }
  return { ...locateInNode(holder.source.file, entryNode, ['name']), note: `generated by the ${field} entry "${entries[index].name}"` };
}

function fallbackToRoot(origin: KustomizeSource, why: string): Located {
  const root = loadKustomization(origin.cache, origin.rootDir);
  const location = root ? fileStart(root.source) : { file: origin.cache.displayPath(origin.rootDir), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
  return { location, note: why };
}

/** A field of a kustomize-rendered object: in the base document or the patch that set it, the generator, or the root. */
export function locateKustomized(origin: KustomizeSource, p: JsonPath): Located {
  if (origin.from === 'generator') return locateGenerated(origin, p);
  if (origin.from === 'root') return fallbackToRoot(origin, origin.why);
  return locateInBase(origin, origin.base.match, p);
}
