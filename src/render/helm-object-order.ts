// helm template prints the objects of one kind in an order that changes from run to run (it collects the rendered
// templates in a Go map), so rules that name "the first" workload or claim of a pair would change their message
// between two runs over the same commit. Rendered objects are put in one order: kind, namespace, name, then stream.
import type { Resource } from '../types.js';

export function inStableOrder<T extends Resource>(resources: readonly T[]): T[] {
  const key = (r: Resource) => `${r.kind}\u0000${r.namespace ?? ''}\u0000${r.name}`;
  return [...resources].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : a.docIndex - b.docIndex;
  });
}
