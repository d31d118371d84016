// helm's coalescing of values documents (a chart's values.yaml, then each values file, then inline values): maps merge
// key by key, anything else — a list, a scalar, null — replaces what the earlier document had.
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Merges `source` into `target` and returns `target`; maps taken from `source` are copied, so it is never changed later. */
export function coalesceValues(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isMap(existing) && isMap(value)) coalesceValues(existing, value);
    else target[key] = isMap(value) ? structuredClone(value) : value;
  }
  return target;
}
