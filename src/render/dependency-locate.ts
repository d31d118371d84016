// Where a finding on an object rendered from a chart dependency pvlint supplied (one not in the repository) is
// reported: helm names the dependency in the object's `# Source:` (`umbrella/charts/<alias or name>/templates/…`),
// and the umbrella configures it with the values under that key. So the field is matched against the scalars under
// the dependency's key in the umbrella's values files (as HelmRelease values are, see values-locate.ts) and reported
// at the value's line. A field no value explains (a claim name the chart makes from the release name and a
// `persistence.<id>` key) is reported at the values entry named like the list item the field is in (the volume
// `ebooks` ↔ `persistence.ebooks`), else at the dependency's entry in Chart.yaml (or, for a `file://` dependency, at
// its template in the repository); the template is always named as related location.
import { locateInNode } from '../locate/locate-node.js';
import { helmTemplateLocator } from './helm-locate.js';
import { leavesOf, valueAt, type ValueLeaf } from './helm-release/release-values.js';
import { dotted, matchValue } from './helm-release/values-locate.js';
import { firstMapDocument, type SourceCache } from './source-cache.js';
import type { JsonPath, Located, RenderOrigin, Resource } from '../types.js';

/** `umbrella/charts/a/charts/b/templates/x.yaml` → the dependency keys `a`, `b` and the template `templates/x.yaml`. */
export function dependencyPath(source: string): { keys: string[]; template: string } | undefined {
  const segments = source.split('/').slice(1);
  const keys: string[] = [];
  while (segments.length >= 2 && segments[0] === 'charts') {
    keys.push(segments[1]);
    segments.splice(0, 2);
  }
  return keys.length > 0 ? { keys, template: segments.join('/') } : undefined;
}

/**
 * The scalars under `keys` (and the `global` values every dependency sees) in the values files of the repository,
 * later files winning, each with the line it is written on. Paths are relative to the dependency's values.
 */
export function dependencyValueLeaves(cache: SourceCache, files: readonly string[], keys: readonly string[]): ValueLeaf[] {
  const written: ValueLeaf[] = [];
  for (const file of files) {
    if (!file.startsWith(`${cache.root}/`)) continue;
    const source = cache.get(file);
    const document = firstMapDocument(source);
    if (!source || !document) continue;
    const at = (prefix: readonly (string | number)[]) => (p: (string | number)[]) => () => locateInNode(source.file, document.node, [...prefix, ...p]);
    leavesOf(valueAt(document.object, keys), [], at(keys), written);
    leavesOf(valueAt(document.object, ['global']), ['global'], at([]), written);
  }
  const last = new Map<string, ValueLeaf>();
  for (const leaf of written) last.set(JSON.stringify(leaf.path), leaf);
  return [...last.values()];
}

/** The `name` of the deepest list item on the way to `p` (a volume, a container), if any. */
function enclosingItemName(object: unknown, p: JsonPath): string | undefined {
  for (let i = p.length; i > 0; i--) {
    if (typeof p[i - 1] !== 'number') continue;
    const item = valueAt(object, p.slice(0, i));
    if (item && typeof item === 'object' && typeof (item as Record<string, unknown>).name === 'string') return (item as Record<string, string>).name;
  }
  return undefined;
}

/** Map keys `name` under `keys` in the values files (shallowest first, the last file first): where that item is configured. */
function namedEntries(cache: SourceCache, files: readonly string[], keys: readonly string[], name: string): { located: () => Located; path: string[] }[] {
  const found: { located: () => Located; path: string[] }[] = [];
  for (const file of [...files].reverse()) {
    if (!file.startsWith(`${cache.root}/`)) continue;
    const source = cache.get(file);
    const document = firstMapDocument(source);
    if (!source || !document) continue;
    let level: { node: unknown; path: string[] }[] = [{ node: valueAt(document.object, keys), path: [] }];
    for (let depth = 0; depth < 4 && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const { node, path } of level) {
        if (!node || typeof node !== 'object' || Array.isArray(node)) continue;
        for (const [key, value] of Object.entries(node)) {
          if (key === name) found.push({ located: () => locateInNode(source.file, document.node, [...keys, ...path, key]), path: [...path, key] });
          next.push({ node: value, path: [...path, key] });
        }
      }
      level = next;
    }
  }
  return found;
}

const normalizedKey = (key: string | number | undefined) => (typeof key === 'string' ? key.toLowerCase().replace(/[-_]/g, '') : '');

/** The leaf's key and the field's resemble each other (the same, or one contains the other), as values-locate.ts scores it. */
function keysResemble(leafPath: readonly (string | number)[], p: JsonPath): boolean {
  const a = normalizedKey([...leafPath].reverse().find((s) => typeof s === 'string'));
  const b = normalizedKey([...p].reverse().find((s) => typeof s === 'string'));
  return a !== '' && b !== '' && (a === b || (a.length >= 4 && b.length >= 4 && (a.includes(b) || b.includes(a))));
}

/** A supplied dependency as its objects' locator needs it. */
export interface DependencyPlace {
  keys: readonly string[];
  /** `app-template 5.1.0 from https://…`, with how it was rendered. */
  label: string;
  /** Absolute path of the Chart.yaml (or requirements.yaml) that declares it, and its index there. */
  declaredIn: string;
  index: number;
  /** A `file://` dependency's directory in the repository. */
  sourceDir?: string;
}

/** Where the dependency is declared: its `dependencies` entry. */
export function dependencyEntry(cache: SourceCache, place: Pick<DependencyPlace, 'declaredIn' | 'index'>): Located {
  const source = cache.get(place.declaredIn);
  const document = firstMapDocument(source);
  if (source && document) return locateInNode(source.file, document.node, ['dependencies', place.index]);
  return { location: { file: cache.displayPath(place.declaredIn), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } } };
}

/**
 * Origin and locator of one object rendered from the dependency at `place` (template `template` of it); `files` are
 * the umbrella's values files, in the order helm applies them.
 */
export function dependencyLocator(cache: SourceCache, resource: Resource, template: string, leaves: readonly ValueLeaf[], files: readonly string[], place: DependencyPlace): { origin: RenderOrigin; locate: (p: JsonPath) => Located } {
  const inRepository = place.sourceDir ? helmTemplateLocator(cache, place.sourceDir, template, resource) : undefined;
  const message = `rendered from dependency ${place.label}, template ${template}`;
  const related = (p: JsonPath): Located['related'] => [{ message, location: inRepository ? inRepository.locate(p).location : dependencyEntry(cache, place).location }];
  const declared = cache.get(place.declaredIn);
  const origin: RenderOrigin = { renderer: 'helm', ...(declared ? { file: declared.file } : {}), note: message };
  return {
    origin,
    locate: (p) => {
      const match = matchValue(leaves, resource.object, p);
      // A value equal to the field under an unrelated key, outside the entry named like the field's volume or
      // container (a claim `registry` and an image `repository: registry`), is weaker evidence than that entry.
      const item = !match || !keysResemble(match.leaf.path, p) ? enclosingItemName(resource.object, p) : undefined;
      const named = item ? namedEntries(cache, files, place.keys, item) : [];
      const within = match && named.some((entry) => entry.path.every((key, i) => match.leaf.path[i] === key));
      if (item && named.length > 0 && !within) {
        const entry = named[0];
        return { ...entry.located(), related: related(p), note: `${dotted([...place.keys, ...entry.path])} configures ${item}, which ${dotted(p)} belongs to (matched by the name of the item; Helm keeps no line mapping)` };
      }
      if (match) {
        const located = match.leaf.locate();
        const written = match.leaf.path[0] === 'global' ? match.leaf.path : [...place.keys, ...match.leaf.path];
        return { ...located, related: [...(located.related ?? []), ...(related(p) ?? [])], note: `the value ${dotted(written)} sets ${dotted(p)} (matched by value and key; Helm keeps no line mapping)` };
      }
      if (inRepository) return { ...inRepository.locate(p), related: related(p) };
      const entry = dependencyEntry(cache, place);
      return { ...entry, related: related(p), note: `rendered from dependency ${place.label} (${template}); no value of the chart sets ${dotted(p)}` };
    },
  };
}
