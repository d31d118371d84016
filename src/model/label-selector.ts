// Reads a `metav1.LabelSelector` as written in YAML into the typed form `matchSelector` expects, rejecting the
// shapes the API would reject (matchExpressions that is not a list, values that are not a list, …).
import type { LabelSelector, LabelSelectorRequirement } from './selector.js';

export type ParsedSelector = { selector: LabelSelector } | { invalid: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function toLabelSelector(raw: unknown): ParsedSelector {
  if (!isPlainObject(raw)) return { invalid: 'the selector is not a map' };
  const selector: LabelSelector = {};
  if (raw.matchLabels != null) {
    if (!isPlainObject(raw.matchLabels)) return { invalid: 'matchLabels is not a map' };
    selector.matchLabels = Object.fromEntries(Object.entries(raw.matchLabels).map(([k, v]) => [k, String(v)]));
  }
  if (raw.matchExpressions != null) {
    if (!Array.isArray(raw.matchExpressions)) return { invalid: 'matchExpressions is not a list' };
    const requirements: LabelSelectorRequirement[] = [];
    for (const entry of raw.matchExpressions) {
      if (!isPlainObject(entry) || entry.key == null || entry.operator == null) return { invalid: 'a matchExpressions entry lacks key or operator' };
      if (entry.values != null && !Array.isArray(entry.values)) return { invalid: `values of ${String(entry.key)} is not a list` };
      requirements.push({
        key: String(entry.key),
        operator: String(entry.operator),
        ...(Array.isArray(entry.values) ? { values: entry.values.map(String) } : {}),
      });
    }
    selector.matchExpressions = requirements;
  }
  return { selector };
}
