// Lookups in constant tables by a string from the repository. `TABLE[key]` on a plain object also finds what
// every object inherits: a CSIDriver named `constructor` or a provisioner `toString` would read Object's own
// functions as table entries (a crash, or "toString is an in-tree provisioner").

/** `table[key]` when `key` is the table's own entry; undefined for anything inherited. */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
