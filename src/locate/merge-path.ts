// Translates a path in a rendered object into the same field of a source document (a base or a patch).
// List indices differ between them (patches merge list items by key and may add items), so list items
// are matched by their strategic-merge key, the way kustomize merged them, not by position.
import type { JsonPath } from '../types.js';
import { ownEntry } from '../engine/own-entry.js';

/** patchMergeKey of the Kubernetes lists pvlint's rules point into. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  env: 'name',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
};

function identity(listKey: string | undefined, item: any): ((candidate: any) => boolean) | undefined {
  if (item === null || typeof item !== 'object') return (candidate) => candidate === item;
  let key = listKey ? ownEntry(MERGE_KEYS, listKey) : undefined;
  if (!key && listKey === 'ports') key = 'containerPort' in item ? 'containerPort' : 'port';
  if (!key && 'name' in item) key = 'name';
  if (key && item[key] !== undefined) return (candidate) => candidate?.[key] === item[key];
  // volumeClaimTemplates and other lists of objects carry their identity in metadata.name.
  const name = item.metadata?.name;
  if (name !== undefined) return (candidate) => candidate?.metadata?.name === name;
  return undefined;
}

export interface Translated {
  /** The path in the document's own terms (its list indices). */
  path: (string | number)[];
  /** How many segments of the rendered path were found in the document. */
  matched: number;
}

/** Follows `path` through `rendered` and `document` side by side; stops at the first segment the document lacks. */
export function translatePath(document: any, rendered: any, path: JsonPath): Translated {
  const out: (string | number)[] = [];
  let doc = document;
  let ren = rendered;
  let listKey: string | undefined;
  for (const segment of path) {
    if (typeof segment === 'number') {
      if (!Array.isArray(doc)) break;
      const item = Array.isArray(ren) ? ren[segment] : undefined;
      const same = item === undefined ? undefined : identity(listKey, item);
      let index = same ? doc.findIndex(same) : -1;
      // No identity (a list the patch replaces wholesale, or a missing rendered item): same position.
      if (index === -1 && !same && segment < doc.length) index = segment;
      if (index === -1) break;
      out.push(index);
      doc = doc[index];
      ren = item;
    } else {
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !(segment in doc)) break;
      out.push(segment);
      doc = doc[segment];
      ren = ren !== null && typeof ren === 'object' ? ren[segment] : undefined;
      listKey = segment;
    }
  }
  return { path: out, matched: out.length };
}

export function valueAt(object: any, path: JsonPath): any {
  let current = object;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[segment as any];
  }
  return current;
}
