// Manifests written as JSON (kubectl reads `.json` files; many repositories keep some) are YAML flow mappings, which
// the fast YAML reader (src/load/fast-yaml.ts) leaves to `yaml`. JSON.parse reads them far faster and, for the JSON
// that `yaml` reads without error, gives the value `yaml`'s `toJS()` gives, except where the two are checked apart
// here: duplicate keys (`yaml`, with pvlint's check, reports them; JSON.parse keeps the last), numbers JSON cannot hold
// or that two readers may round differently, nesting past the depth limit, `__proto__`. Anything else undecided, and
// any text JSON.parse refuses, is left to `yaml` (test/load/fast-yaml.test.ts compares both on generated documents).
import type { Limits } from './limits.js';

export interface JsonDocument {
  value: Record<string, unknown>;
  /** Values in it, as the node budgets count them (each object, array and scalar one, keys not). */
  values: number;
}

const MAX_SAFE_DIGITS = 15;

/**
 * `body` (one document's text, after any `---` line) as `yaml` would read it, when it is a JSON object and nothing
 * listed above sets the two readers apart; undefined otherwise. Tabs, carriage returns and Unicode line breaks are
 * refused by the caller before.
 */
export function readJsonDocument(body: string, limits: Limits): JsonDocument | undefined {
  if (body.includes('__proto__')) return undefined;
  // One pass outside strings: members (one `:` each), nesting, and the digits of each number.
  let colons = 0;
  let depth = 0;
  let deepest = 0;
  let digits = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 34) {
      // `"`: skip the string, escapes included (JSON.parse judges them).
      for (i++; i < body.length; i++) {
        const s = body.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34) break;
      }
      digits = 0;
      continue;
    }
    if (c >= 48 && c <= 57) {
      if (++digits > MAX_SAFE_DIGITS) return undefined;
      continue;
    }
    // `.`, `e`, `E`, `+`, `-` stay inside a number.
    if (c !== 46 && c !== 101 && c !== 69 && c !== 43 && c !== 45) digits = 0;
    if (c === 58) colons++;
    else if (c === 123 || c === 91) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  if (deepest > limits.maxDepth) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // Every member has its `:`; fewer keys than colons means a key was given twice.
  let members = 0;
  let values = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    values++;
    if (typeof item === 'number' && !Number.isFinite(item)) return undefined;
    if (Array.isArray(item)) for (const element of item) pending.push(element);
    else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        members++;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  if (members !== colons) return undefined;
  return { value: value as Record<string, unknown>, values };
}
