// The path an object took from the kustomization that first read it up to the root being rendered,
// as the ordered list of kustomizations whose transformers it passed through. Names are recomputed
// forward along that list, so a base document is found by the name it has before prefixes/suffixes.
import { loadKustomization, type Entry, type Kustomization } from './kustomization.js';
import type { SourceCache } from './source-cache.js';

/** How an object entered a kustomization: one of its resources (file or directory), component j, or its generators. */
type Via = { type: 'resource' } | { type: 'component'; index: number } | { type: 'generator' };

interface Link {
  k: Kustomization;
  via: Via;
}

export interface Chain {
  root: Kustomization;
  /** The kustomization that lists the file (or holds the generator). */
  holder: Kustomization;
  /** Kustomizations whose transformers applied to the object, innermost first (components before their parent). */
  groups: Kustomization[];
}

/** kustomize's PrefixSuffixTransformer leaves these names alone. */
const UNPREFIXED = new Set(['CustomResourceDefinition', 'APIService', 'Namespace']);

function localKustomizations(cache: SourceCache, entries: readonly Entry[]): (Kustomization | undefined)[] {
  return entries.map((e) => (e.type === 'kustomization' ? loadKustomization(cache, e.abs!) : undefined));
}

/** A component applies its own components first, then itself. */
function expandComponent(cache: SourceCache, component: Kustomization, seen: Set<string>): Kustomization[] {
  if (seen.has(component.dir)) return [];
  seen.add(component.dir);
  const inner = localKustomizations(cache, component.components).flatMap((c) => (c ? expandComponent(cache, c, seen) : []));
  return [...inner, component];
}

function groupsOf(cache: SourceCache, link: Link): Kustomization[] {
  // Components run after resources are accumulated and before generators; the kustomization's own transformers run last.
  if (link.via.type === 'generator') return [link.k];
  const from = link.via.type === 'component' ? link.via.index + 1 : 0;
  const components = localKustomizations(cache, link.k.components.slice(from));
  return [...components.flatMap((c) => (c ? expandComponent(cache, c, new Set()) : [])), link.k];
}

function search(cache: SourceCache, k: Kustomization, holds: (k: Kustomization) => Via | undefined, stack: Set<string>): Link[] | undefined {
  const direct = holds(k);
  if (direct) return [{ k, via: direct }];
  stack.add(k.dir);
  try {
    const children: [Kustomization | undefined, Via][] = [
      ...localKustomizations(cache, k.resources).map((c): [Kustomization | undefined, Via] => [c, { type: 'resource' }]),
      ...localKustomizations(cache, k.components).map((c, index): [Kustomization | undefined, Via] => [c, { type: 'component', index }]),
    ];
    for (const [child, via] of children) {
      if (!child || stack.has(child.dir)) continue;
      const found = search(cache, child, holds, stack);
      if (found) return [...found, { k, via }];
    }
    return undefined;
  } finally {
    stack.delete(k.dir);
  }
}

function chainFor(cache: SourceCache, rootDir: string, key: string, holds: (k: Kustomization) => Via | undefined): Chain | undefined {
  return cache.remember(`chain:${rootDir}:${key}`, () => {
    const root = loadKustomization(cache, rootDir);
    if (!root) return undefined;
    const links = search(cache, root, holds, new Set());
    if (!links) return undefined;
    return { root, holder: links[0].k, groups: links.flatMap((link) => groupsOf(cache, link)) };
  });
}

/** The chain from the kustomization listing `file` in its resources up to `rootDir`. */
export function chainToFile(cache: SourceCache, rootDir: string, file: string): Chain | undefined {
  return chainFor(cache, rootDir, `file:${file}`, (k) =>
    [...k.resources, ...k.components].some((e) => e.type === 'file' && e.abs === file) ? { type: 'resource' } : undefined,
  );
}

/** The chain from the kustomization whose generators produced an object up to `rootDir`. */
export function chainToGenerator(cache: SourceCache, rootDir: string, kustomizationFile: string): Chain | undefined {
  return chainFor(cache, rootDir, `generator:${kustomizationFile}`, (k) => (k.source.file.absPath === kustomizationFile ? { type: 'generator' } : undefined));
}

/** Names of an object after each group, starting with the name in its source file. */
export function nameHistory(groups: readonly Kustomization[], kind: string, name: string): string[] {
  const names = [name];
  let current = name;
  for (const k of groups) {
    if (UNPREFIXED.has(kind)) break;
    const prefix = typeof k.data?.namePrefix === 'string' ? k.data.namePrefix : '';
    const suffix = typeof k.data?.nameSuffix === 'string' ? k.data.nameSuffix : '';
    if (prefix === '' && suffix === '') continue;
    current = prefix + current + suffix;
    names.push(current);
  }
  return names;
}

/** Namespaces an object had: its own, then each `namespace:` of the chain. */
export function namespaceHistory(groups: readonly Kustomization[], namespace: string | undefined): string[] {
  const namespaces = namespace === undefined ? [] : [namespace];
  for (const k of groups) if (typeof k.data?.namespace === 'string') namespaces.push(k.data.namespace);
  return namespaces;
}
