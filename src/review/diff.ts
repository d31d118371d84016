// Where two manifests' values first differ, the way the API server compares them on update
// (apiequality.Semantic.DeepEqual): nil and empty maps and lists are equal, quantities compare by value.
import { compareQuantities, parseQuantity } from '../model/quantity.js';
import type { JsonPath } from '../types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** null, undefined, {} and [] are one value to the API server (nil and empty maps and slices compare equal). */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** Resource lists (`resources.requests`, `resources.limits`, `capacity`) hold quantities: "1Gi" equals "1024Mi". */
function isQuantityPath(path: JsonPath): boolean {
  const n = path.length;
  if (n < 2) return false;
  const parent = path[n - 2];
  if (parent === 'capacity') return true;
  return (parent === 'requests' || parent === 'limits') && n >= 3 && path[n - 3] === 'resources';
}

function scalarEqual(a: unknown, b: unknown, path: JsonPath): boolean {
  if (a === b) return true;
  if (isQuantityPath(path)) {
    const qa = parseQuantity(a);
    const qb = parseQuantity(b);
    if (qa && qb) return compareQuantities(qa, qb) === 0;
  }
  return false;
}

/**
 * The path (from `path`) of the first value that differs between `base` and `head`, or undefined when they are
 * equal. Keys are visited in the head's order, then keys only the base has; a key missing on one side is reported at
 * the key itself (the locator falls back to its parent when the working tree does not have it).
 */
export function firstDifference(base: unknown, head: unknown, path: JsonPath = []): JsonPath | undefined {
  if (isEmptyValue(base) && isEmptyValue(head)) return undefined;
  if (Array.isArray(base) && Array.isArray(head)) {
    const length = Math.max(base.length, head.length);
    for (let i = 0; i < length; i++) {
      if (i >= head.length) return path;
      if (i >= base.length) return [...path, i];
      const found = firstDifference(base[i], head[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (isPlainObject(base) && isPlainObject(head)) {
    const keys = [...Object.keys(head), ...Object.keys(base).filter((key) => !(key in head))];
    for (const key of keys) {
      const found = firstDifference(base[key], head[key], [...path, key]);
      if (found) return found;
    }
    return undefined;
  }
  if (isPlainObject(base) || isPlainObject(head) || Array.isArray(base) || Array.isArray(head)) return path;
  return scalarEqual(base, head, path) ? undefined : path;
}

export function valuesEqual(base: unknown, head: unknown): boolean {
  return firstDifference(base, head) === undefined;
}

/** A short rendering of a value for messages ("absent" for nothing). */
export function show(value: unknown): string {
  if (isEmptyValue(value)) return 'absent';
  if (typeof value === 'string') return `"${value}"`;
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
