// metav1.LabelSelector semantics (LabelSelectorAsSelector): matchLabels and matchExpressions are ANDed;
// an empty selector matches everything; NotIn and DoesNotExist match objects without the label.

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export type SelectorVerdict =
  | { matches: true }
  | { matches: false; failed: string }
  | { matches: false; invalid: string };

/** Whether `labels` satisfy `selector`; `failed` names the first requirement that does not hold. */
export function matchSelector(selector: LabelSelector, labels: Record<string, unknown> | undefined): SelectorVerdict {
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (String(have[key]) !== String(value) || !(key in have)) return { matches: false, failed: `${key}=${value}` };
  }
  for (const req of selector.matchExpressions ?? []) {
    const present = Object.prototype.hasOwnProperty.call(have, req.key);
    const value = present ? String(have[req.key]) : undefined;
    const values = (req.values ?? []).map(String);
    switch (req.operator) {
      case 'In':
        if (values.length === 0) return { matches: false, invalid: `${req.key} In requires values` };
        if (!present || !values.includes(value!)) return { matches: false, failed: `${req.key} in (${values.join(', ')})` };
        break;
      case 'NotIn':
        if (values.length === 0) return { matches: false, invalid: `${req.key} NotIn requires values` };
        if (present && values.includes(value!)) return { matches: false, failed: `${req.key} notin (${values.join(', ')})` };
        break;
      case 'Exists':
        if (!present) return { matches: false, failed: `${req.key} exists` };
        break;
      case 'DoesNotExist':
        if (present) return { matches: false, failed: `!${req.key}` };
        break;
      default:
        return { matches: false, invalid: `unknown operator ${JSON.stringify(req.operator)}` };
    }
  }
  return { matches: true };
}
