// Where an object rendered from a chart dependency pvlint supplied (one not in the repository) comes from, recorded for
// the locate stage (src/locate/helm-dependency-locator.ts): helm names the dependency in the object's `# Source:`
// (`umbrella/charts/<alias or name>/templates/…`), and the umbrella configures it with the values under that key, so
// the record holds those values as scalars with the place each is written, the dependency's entry in Chart.yaml, and
// for a `file://` dependency its template in the repository.
import { locateInNode } from '../load/locate-node.js';
import { recordHelmTemplate, type HelmTemplateSource } from './helm-source.js';
import { leavesOf, valueAt, type ValueLeaf } from './helm-release/release-values.js';
import { firstMapDocument, type SourceCache } from './source-cache.js';
import type { JsonPath, Located, Origin, RenderOrigin, Resource } from '../types.js';

/** Where a scalar of the umbrella's values is written: a path in one of its values files (absolute path). */
export interface ValuesFilePlace {
  file: string;
  path: JsonPath;
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

export interface HelmDependencySource extends Origin, Pick<DependencyPlace, 'keys' | 'label' | 'declaredIn' | 'index'> {
  kind: 'helm-dependency';
  cache: SourceCache;
  /** The object's template, relative to the dependency's chart directory. */
  template: string;
  /** The umbrella's values files, in the order helm applies them. */
  valuesFiles: readonly string[];
  /** The scalars under the dependency's key (and `global`), paths relative to the dependency's values. */
  leaves: readonly ValueLeaf<ValuesFilePlace>[];
  /** A `file://` dependency: its template in the repository. */
  inRepository?: HelmTemplateSource;
}

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
 * later files winning, each with the place it is written. Paths are relative to the dependency's values.
 */
export function dependencyValueLeaves(cache: SourceCache, files: readonly string[], keys: readonly string[]): ValueLeaf<ValuesFilePlace>[] {
  const written: ValueLeaf<ValuesFilePlace>[] = [];
  for (const file of files) {
    if (!file.startsWith(`${cache.root}/`)) continue;
    const document = firstMapDocument(cache.get(file));
    if (!document) continue;
    const at = (prefix: readonly (string | number)[]) => (p: (string | number)[]): ValuesFilePlace => ({ file, path: [...prefix, ...p] });
    leavesOf(valueAt(document.object, keys), [], at(keys), written);
    leavesOf(valueAt(document.object, ['global']), ['global'], at([]), written);
  }
  const last = new Map<string, ValueLeaf<ValuesFilePlace>>();
  for (const leaf of written) last.set(JSON.stringify(leaf.path), leaf);
  return [...last.values()];
}

/** Where the dependency is declared: its `dependencies` entry. */
export function dependencyEntry(cache: SourceCache, place: Pick<DependencyPlace, 'declaredIn' | 'index'>): Located {
  const source = cache.get(place.declaredIn);
  const document = firstMapDocument(source);
  if (source && document) return locateInNode(source.file, document.node, ['dependencies', place.index]);
  return { location: { file: cache.displayPath(place.declaredIn), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } } };
}

/**
 * The origin of one object rendered from the dependency at `place` (template `template` of it); `valuesFiles` are the
 * umbrella's values files, in the order helm applies them.
 */
export function recordHelmDependency(cache: SourceCache, resource: Resource, template: string, leaves: readonly ValueLeaf<ValuesFilePlace>[], valuesFiles: readonly string[], place: DependencyPlace): { origin: RenderOrigin; source: HelmDependencySource } {
  const inRepository = place.sourceDir ? recordHelmTemplate(cache, place.sourceDir, template, resource).source : undefined;
  const declared = cache.get(place.declaredIn);
  const origin: RenderOrigin = { renderer: 'helm', ...(declared ? { file: declared.file } : {}), note: `rendered from dependency ${place.label}, template ${template}` };
  const source: HelmDependencySource = {
    kind: 'helm-dependency',
    cache,
    keys: place.keys,
    label: place.label,
    declaredIn: place.declaredIn,
    index: place.index,
    template,
    valuesFiles,
    leaves,
    ...(inRepository ? { inRepository } : {}),
  };
  return { origin, source };
}
