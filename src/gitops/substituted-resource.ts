// Post-build substitution applied to rendered objects, recording for the locate stage which values came from which
// variables: a finding on such a value points at the line that defines the variable, with the `${VAR}` placeholder
// in the source as related location; every other path is located as in the object it was substituted in.
import { parse } from 'yaml';
import { deriveResource, resourceId } from '../load/parse-resources.js';
import { substituteString, type Expansion } from './envsubst.js';
import type { VariableSource } from './flux-variables.js';
import type { JsonPath, Origin, Resource } from '../types.js';

export const SUBSTITUTE_MARKER = 'kustomize.toolkit.fluxcd.io/substitute';

export interface SubstitutedValue {
  path: JsonPath;
  expansions: Expansion[];
}

/** A resource after Flux's postBuild substitution: where it was before, and which values variables set. */
export interface SubstitutionSource extends Origin {
  kind: 'flux-substitution';
  original: Resource;
  values: readonly SubstitutedValue[];
  sources: ReadonlyMap<string, VariableSource>;
  /** A named source pvlint could not read (or an absent optional one) may set variables the repository does not. */
  unknownSources?: boolean;
}

export interface SubstitutionResult {
  resource: Resource;
  /** Placeholders left as written (unknown or unset variables), by path. */
  unresolved: { path: JsonPath; variables: string[] }[];
}

/** A resource that opts out of substitution with the label or annotation `kustomize.toolkit.fluxcd.io/substitute: disabled`. */
export function optedOut(object: any): boolean {
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

/** The object after substitution, or the same object when nothing in it is substituted. */
export function substituteResource(resource: Resource, variables: ReadonlyMap<string, string | undefined>, sources: ReadonlyMap<string, VariableSource>, unknownSources = false): SubstitutionResult {
  if (optedOut(resource.object)) return { resource, unresolved: [] };
  const found: SubstitutedValue[] = [];
  const object = substituteTree(resource.object, variables, [], found) as any;
  if (found.length === 0 && JSON.stringify(object) === JSON.stringify(resource.object)) return { resource, unresolved: [] };
  const metadata = object?.metadata ?? {};
  const name = typeof metadata.name === 'string' ? metadata.name : resource.name;
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : resource.namespace;
  const substitution: SubstitutionSource = { kind: 'flux-substitution', original: resource, values: found, sources, ...(unknownSources ? { unknownSources } : {}) };
  const derived = deriveResource(resource, {
    object,
    name,
    namespace,
    id: resourceId(resource.kind, namespace, name),
    sourceOrigin: substitution,
  });
  const unresolved = found
    .map((v) => ({ path: v.path, variables: v.expansions.filter((e) => e.outcome === 'unresolved').map((e) => e.variable) }))
    .filter((u) => u.variables.length > 0);
  return { resource: derived, unresolved };
}
