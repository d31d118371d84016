// Matches the objects of one environment across the two trees by kind, namespace (as the cluster sees it) and name.
import type { StorageModel } from '../model/storage-model.js';
import type { Resource } from '../types.js';
import type { EnvironmentChanges, ResourcePair } from './change-rule.js';

export function objectKey(model: StorageModel, resource: Resource): string {
  return `${resource.kind}/${model.namespaceOf(resource) ?? ''}/${resource.name}`;
}

/** The first definition of each key: a duplicate within one tree is another rule's business. */
function index(model: StorageModel): Map<string, Resource> {
  const byKey = new Map<string, Resource>();
  for (const resource of model.resources) {
    const key = objectKey(model, resource);
    if (!byKey.has(key)) byKey.set(key, resource);
  }
  return byKey;
}

export function pairEnvironment(base: StorageModel, head: StorageModel): EnvironmentChanges {
  const baseIndex = index(base);
  const headIndex = index(head);
  const pairs = new Map<string, ResourcePair[]>();
  const removed = new Map<string, Resource[]>();
  const added = new Map<string, Resource[]>();
  const headOf = new Map<Resource, Resource>();
  const baseOf = new Map<Resource, Resource>();
  const push = <T>(map: Map<string, T[]>, kind: string, value: T) => {
    const list = map.get(kind);
    if (list) list.push(value);
    else map.set(kind, [value]);
  };
  for (const [key, resource] of baseIndex) {
    const other = headIndex.get(key);
    if (other) {
      push(pairs, resource.kind, { base: resource, head: other });
      headOf.set(resource, other);
      baseOf.set(other, resource);
    } else {
      push(removed, resource.kind, resource);
    }
  }
  for (const [key, resource] of headIndex) if (!baseIndex.has(key)) push(added, resource.kind, resource);
  return {
    pairs: (kind) => pairs.get(kind) ?? [],
    removed: (kind) => removed.get(kind) ?? [],
    added: (kind) => added.get(kind) ?? [],
    headOf: (resource) => headOf.get(resource),
    baseOf: (resource) => baseOf.get(resource),
  };
}
