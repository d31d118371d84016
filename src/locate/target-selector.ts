// kustomize's patch target selection: group/version/kind, anchored regexes for name and namespace
// (matched against any name the object had in the chain), and label/annotation selectors.

/** What a patch can see of an object at the layer it applies to. */
export interface PatchTarget {
  apiVersion: string;
  kind: string;
  /** The original name and every name prefixes/suffixes gave it on the way up. */
  names: ReadonlySet<string>;
  namespaces: ReadonlySet<string>;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface Selector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

function anchored(pattern: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return undefined;
  }
}

function anyMatches(pattern: string | undefined, values: ReadonlySet<string>): boolean {
  if (pattern === undefined || pattern === '') return true;
  const re = anchored(pattern);
  if (!re) return false;
  for (const value of values) if (re.test(value)) return true;
  return false;
}

/** Equality (`a=b`, `a==b`, `a!=b`), existence (`a`, `!a`) and set (`a in (x,y)`, `a notin (x)`) requirements. */
export function matchesSelector(selector: string | undefined, values: Record<string, string>): boolean {
  if (!selector || selector.trim() === '') return true;
  const requirements = selector.match(/[^,(]+(?:\([^)]*\))?/g) ?? [];
  return requirements.every((raw) => {
    const req = raw.trim();
    let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(req);
    if (m) {
      const set = m[3].split(',').map((s) => s.trim());
      const has = m[1] in values && set.includes(values[m[1]]);
      return m[2] === 'in' ? has : !has;
    }
    m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(req);
    if (m) return m[2] === '!=' ? values[m[1]] !== m[3] : values[m[1]] === m[3];
    m = /^(!?)([\w./-]+)$/.exec(req);
    if (m) return m[1] === '!' ? !(m[2] in values) : m[2] in values;
    return false;
  });
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function selects(selector: Selector, target: PatchTarget): boolean {
  const { group, version } = splitApiVersion(target.apiVersion);
  if (selector.kind && selector.kind !== target.kind) return false;
  if (selector.group !== undefined && selector.group !== '' && selector.group !== group) return false;
  if (selector.version && selector.version !== version) return false;
  if (!anyMatches(selector.name, target.names)) return false;
  if (!anyMatches(selector.namespace, target.namespaces)) return false;
  return matchesSelector(selector.labelSelector, target.labels) && matchesSelector(selector.annotationSelector, target.annotations);
}
