// YAML values that JSON has no type for, as the API server would see them. kubectl turns YAML into JSON through
// sigs.k8s.io/yaml (go-yaml, then encoding/json): `!!binary` becomes the decoded bytes as a string, `!!timestamp`
// an RFC 3339 string, `!!set` a map of nulls, `!!omap`/`!!pairs` a map. The `yaml` library gives Uint8Array, Date,
// Set, Map, bigint and (for `!!merge` on a scalar) a symbol instead, which nothing after the parser expects.

/** Replaces, in place and without recursion, every non-JSON value inside `root`; returns the new root. */
export function toJsonValue(root: unknown): unknown {
  const box = { root };
  const stack: [Record<string | number, unknown>, string | number][] = [[box as Record<string, unknown>, 'root']];
  while (stack.length > 0) {
    const [parent, key] = stack.pop()!;
    const value = plain(parent[key]);
    if (value !== parent[key]) parent[key] = value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value as unknown as Record<number, unknown>, i]);
    } else if (value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) stack.push([value as Record<string, unknown>, k]);
    }
  }
  return box.root;
}

function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') return Number(value);
    // `!!merge` on a scalar: the `yaml` library's merge-key marker, a symbol. As text it is the key it stands for.
    if (typeof value === 'symbol') return value.description ?? '';
    if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
    return value;
  }
  if (Array.isArray(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  if (value instanceof Set) {
    const out: Record<string, unknown> = {};
    for (const item of value) defineField(out, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item), null);
    return out;
  }
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) defineField(out, typeof k === 'object' && k !== null ? JSON.stringify(k) : String(k), v);
    return out;
  }
  return value;
}

/** Sets `key` as an own data field, even `__proto__`. */
function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
