// Post-build substitution applied to rendered objects, and the locator of the result: a finding on a value
// that came from a variable points at the line that defines the variable, with the `${VAR}` placeholder in
// the source as related location; every other path is located by the object's own (kustomize) locator.
import { parse } from 'yaml';
import { locate } from '../locate/locate.js';
import { deriveResource, resourceId } from '../load/parse-resources.js';
import { substituteString, type Expansion } from './envsubst.js';
import type { VariableSource } from './flux-variables.js';
import type { JsonPath, Located, Resource } from '../types.js';

export const SUBSTITUTE_MARKER = 'kustomize.toolkit.fluxcd.io/substitute';

interface SubstitutedValue {
  path: JsonPath;
  expansions: Expansion[];
}

export interface SubstitutionResult {
  resource: Resource;
  /** Placeholders left as written (unknown or unset variables), by path. */
  unresolved: { path: JsonPath; variables: string[] }[];
}

function optedOut(object: any): boolean {
  const metadata = object?.metadata ?? {};
  return metadata.labels?.[SUBSTITUTE_MARKER] === 'disabled' || metadata.annotations?.[SUBSTITUTE_MARKER] === 'disabled';
}

/**
 * Flux substitutes the YAML text and parses it again, so `replicas: ${N}` becomes a number: a plain scalar that is
 * only substituted text is typed again the same way.
 */
function retyped(value: string): unknown {
  if (value.includes('\n') || value.trim() !== value || value === '') return value;
  try {
    const typed = parse(value);
    return typeof typed === 'number' || typeof typed === 'boolean' || typed === null ? typed : value;
  } catch {
    return value;
  }
}

function substituteTree(value: unknown, variables: ReadonlyMap<string, string | undefined>, at: JsonPath, found: SubstitutedValue[]): unknown {
  if (typeof value === 'string') {
    const result = substituteString(value, variables);
    if (!result.changed) return value;
    if (result.expansions.length > 0) found.push({ path: at, expansions: result.expansions });
    return retyped(result.value);
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteTree(item, variables, [...at, i], found));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = substituteTree(item, variables, [...at, key], found);
    return out;
  }
  return value;
}

function startsWith(p: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= p.length && prefix.every((segment, i) => segment === p[i]);
}

function substitutionLocator(original: Resource, values: SubstitutedValue[], sources: ReadonlyMap<string, VariableSource>): (p: JsonPath) => Located {
  return (p) => {
    const placeholder = locate(original, p);
    const value = values.find((v) => startsWith(p, v.path));
    if (!value) return placeholder;
    const defined = value.expansions.filter((e) => e.outcome === 'variable' && sources.has(e.variable));
    if (defined.length === 0) {
      const defaulted = value.expansions.find((e) => e.outcome === 'default');
      return defaulted ? { ...placeholder, note: `the value is the default of ${defaulted.text}: no postBuild variable ${defaulted.variable} is set` } : placeholder;
    }
    const [first, ...others] = defined;
    const source = sources.get(first.variable)!;
    const at = source.definedAt();
    return {
      location: at.location,
      related: [
        { message: `${first.text} is substituted here (variable from ${source.label})`, location: placeholder.location },
        ...others.map((e) => ({ message: `${e.text} is defined here (${sources.get(e.variable)!.label})`, location: sources.get(e.variable)!.definedAt().location })),
      ],
      ...(at.note ? { note: at.note } : {}),
    };
  };
}

/** The object after substitution, or the same object when nothing in it is substituted. */
export function substituteResource(resource: Resource, variables: ReadonlyMap<string, string | undefined>, sources: ReadonlyMap<string, VariableSource>): SubstitutionResult {
  if (optedOut(resource.object)) return { resource, unresolved: [] };
  const found: SubstitutedValue[] = [];
  const object = substituteTree(resource.object, variables, [], found) as any;
  if (found.length === 0 && JSON.stringify(object) === JSON.stringify(resource.object)) return { resource, unresolved: [] };
  const metadata = object?.metadata ?? {};
  const name = typeof metadata.name === 'string' ? metadata.name : resource.name;
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : resource.namespace;
  const derived = deriveResource(resource, {
    object,
    name,
    namespace,
    id: resourceId(resource.kind, namespace, name),
    locate: substitutionLocator(resource, found, sources),
  });
  const unresolved = found
    .map((v) => ({ path: v.path, variables: v.expansions.filter((e) => e.outcome === 'unresolved').map((e) => e.variable) }))
    .filter((u) => u.variables.length > 0);
  return { resource: derived, unresolved };
}
