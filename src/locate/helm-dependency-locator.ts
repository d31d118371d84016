// Where a finding on an object rendered from a chart dependency pvlint supplied is reported. The field is matched
// against the scalars under the dependency's key in the umbrella's values files (as HelmRelease values are, see
// helm-values-locator.ts) and reported at the value's line. A field no value explains (a claim name the chart makes
// from the release name and a `persistence.<id>` key) is reported at the values entry named like the list item the
// field is in (the volume `ebooks` ↔ `persistence.ebooks`), else (for a `file://` dependency) at its template in the
// repository, else at the values entry the object is rendered from (CronJob `x-backup` ↔ `controllers.backup`), else
// at the dependency's entry in Chart.yaml; the template is always named as related location.
import { locateInNode } from '../load/locate-node.js';
import { dependencyEntry, type HelmDependencySource, type ValuesFilePlace } from '../render/dependency-source.js';
import { firstMapDocument, type SourceCache } from '../render/source-cache.js';
import { locateHelmTemplate } from './helm-template-locator.js';
import { dotted, keyResemblance, matchEntry, matchValue } from './helm-values-locator.js';
import { valueAt } from './merge-path.js';
import type { JsonPath, Located, Resource } from '../types.js';

const UNKNOWN_LINE = { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 };

/** The line of a values scalar in its values file. */
export function locateValuesFile(cache: SourceCache, at: ValuesFilePlace): Located {
  const source = cache.get(at.file);
  const document = firstMapDocument(source);
  if (source && document) return locateInNode(source.file, document.node, at.path);
  return { location: { file: cache.displayPath(at.file), region: UNKNOWN_LINE } };
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
function namedEntries(cache: SourceCache, files: readonly string[], keys: readonly string[], name: string): { at: ValuesFilePlace; path: string[] }[] {
  const found: { at: ValuesFilePlace; path: string[] }[] = [];
  for (const file of [...files].reverse()) {
    if (!file.startsWith(`${cache.root}/`)) continue;
    const document = firstMapDocument(cache.get(file));
    if (!document) continue;
    let level: { node: unknown; path: string[] }[] = [{ node: valueAt(document.object, [...keys]), path: [] }];
    for (let depth = 0; depth < 4 && level.length > 0; depth++) {
      const next: typeof level = [];
      for (const { node, path } of level) {
        if (!node || typeof node !== 'object' || Array.isArray(node)) continue;
        for (const [key, value] of Object.entries(node)) {
          if (key === name) found.push({ at: { file, path: [...keys, ...path, key] }, path: [...path, key] });
          next.push({ node: value, path: [...path, key] });
        }
      }
      level = next;
    }
  }
  return found;
}

const lastKey = (p: readonly (string | number)[]) => [...p].reverse().find((s): s is string => typeof s === 'string');

/** The leaf's key and the field's resemble each other, as matchValue scores it. */
function keysResemble(leafPath: readonly (string | number)[], p: JsonPath): boolean {
  return keyResemblance(lastKey(leafPath), lastKey(p)) > 0;
}

/** A field of an object rendered from a supplied dependency: the value or values entry that configures it, else the dependency. */
export function locateHelmDependency(origin: HelmDependencySource, resource: Resource, p: JsonPath): Located {
  const { cache, keys } = origin;
  const message = `rendered from dependency ${origin.label}, template ${origin.template}`;
  const templateAt = (): Located => (origin.inRepository ? locateHelmTemplate(origin.inRepository, p) : dependencyEntry(cache, origin));
  const related = (): NonNullable<Located['related']> => [{ message, location: templateAt().location }];
  const match = matchValue(origin.leaves, resource.object, p);
  // A value equal to the field under an unrelated key, outside the entry named like the field's volume or
  // container (a claim `registry` and an image `repository: registry`), is weaker evidence than that entry.
  const item = !match || !keysResemble(match.leaf.path, p) ? enclosingItemName(resource.object, p) : undefined;
  const named = item ? namedEntries(cache, origin.valuesFiles, keys, item) : [];
  const within = match && named.some((entry) => entry.path.every((key, i) => match.leaf.path[i] === key));
  if (item && named.length > 0 && !within) {
    const entry = named[0];
    return { ...locateValuesFile(cache, entry.at), related: related(), note: `${dotted([...keys, ...entry.path])} configures ${item}, which ${dotted(p)} belongs to (matched by the name of the item; Helm keeps no line mapping)` };
  }
  if (match) {
    const located = locateValuesFile(cache, match.leaf.at);
    const written = match.leaf.path[0] === 'global' ? match.leaf.path : [...keys, ...match.leaf.path];
    return { ...located, related: [...(located.related ?? []), ...related()], note: `the value ${dotted(written)} sets ${dotted(p)} (matched by value and key; Helm keeps no line mapping)` };
  }
  if (origin.inRepository) return { ...templateAt(), related: related() };
  const entry = matchEntry(origin.leaves, resource.object);
  if (entry) {
    const { at, path } = entry.leaf;
    const cut = path.length - entry.depth;
    if (at.path.length >= cut) {
      const key = dotted([...keys, ...path.slice(0, entry.depth)]);
      return { ...locateValuesFile(cache, { file: at.file, path: at.path.slice(0, at.path.length - cut) }), related: related(), note: `no value of the chart sets ${dotted(p)}; ${key} is the values entry ${resource.kind} "${resource.name}" is rendered from` };
    }
  }
  return { ...dependencyEntry(cache, origin), related: related(), note: `rendered from dependency ${origin.label} (${origin.template}); no value of the chart sets ${dotted(p)}` };
}
