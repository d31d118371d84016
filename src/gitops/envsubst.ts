// Flux's post-build variable substitution on one string (fluxcd/pkg envsubst, as kustomize-controller runs it):
// only `${var}` forms are expanded, `$${var}` is emitted as `${var}`, `${v:=d}` / `${v:-d}` / `${v=d}` take the
// default when the variable is empty or unset. Unlike the controller (strict mode fails on an unset variable), a
// variable pvlint does not know stays as written: the linter must not invent a value, nor fail the cluster.

export const VARIABLE_NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;

/** One `${...}` expression of a string and what became of it. */
export interface Expansion {
  variable: string;
  /** The expression as written, e.g. `${APP:=web}`. */
  text: string;
  /** `variable`: the variable's value; `default`: the expression's default; `unresolved`: kept as written. */
  outcome: 'variable' | 'default' | 'unresolved';
}

export interface SubstitutedString {
  value: string;
  expansions: Expansion[];
  /** Whether the text had anything to substitute or unescape. */
  changed: boolean;
}

/** Values of variables; `undefined` for a variable that exists but whose value pvlint cannot read (SOPS). */
export type Variables = ReadonlyMap<string, string | undefined>;

/** Index of the `}` that closes the `${` at `start`, counting nested `${`. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function caseOperation(value: string, op: string): string | undefined {
  switch (op) {
    case '^':
      return value.charAt(0).toUpperCase() + value.slice(1);
    case '^^':
      return value.toUpperCase();
    case ',':
      return value.charAt(0).toLowerCase() + value.slice(1);
    case ',,':
      return value.toLowerCase();
    default:
      return undefined;
  }
}

function expand(body: string, text: string, variables: Variables): { value?: string; expansion: Expansion } {
  const length = /^#([_A-Za-z][_A-Za-z0-9]*)$/.exec(body);
  const name = length ? length[1] : /^[_A-Za-z][_A-Za-z0-9]*/.exec(body)?.[0];
  if (!name) return { expansion: { variable: body, text, outcome: 'unresolved' } };
  const rest = length ? '' : body.slice(name.length);
  const known = variables.has(name);
  const value = variables.get(name);
  const unresolved = { expansion: { variable: name, text, outcome: 'unresolved' as const } };
  const defaulted = /^:?[=-]/.exec(rest);
  if (defaulted) {
    // `${v=d}` exists in the parser only with `=`; the default applies when the value is empty or unset.
    if (known && value === undefined) return unresolved;
    if (value) return { value, expansion: { variable: name, text, outcome: 'variable' } };
    const fallback = substituteString(rest.slice(defaulted[0].length), variables).value;
    return { value: fallback, expansion: { variable: name, text, outcome: 'default' } };
  }
  if (value === undefined) return unresolved;
  if (length) return { value: String(value.length), expansion: { variable: name, text, outcome: 'variable' } };
  if (rest === '') return { value, expansion: { variable: name, text, outcome: 'variable' } };
  const cased = caseOperation(value, rest);
  // Other bash operations (substrings, pattern removal and replacement) are not evaluated: the text stays.
  return cased === undefined ? unresolved : { value: cased, expansion: { variable: name, text, outcome: 'variable' } };
}

export function substituteString(text: string, variables: Variables): SubstitutedString {
  if (!text.includes('${')) return { value: text, expansions: [], changed: false };
  let out = '';
  const expansions: Expansion[] = [];
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf('${', i);
    if (at === -1) break;
    if (at > 0 && text[at - 1] === '$') {
      // `$${var}`: the escape; one `$` goes, the expression is emitted as written.
      const end = closingBrace(text, at);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, at - 1) + text.slice(at, stop);
      i = stop;
      continue;
    }
    const end = closingBrace(text, at);
    if (end === -1) break;
    const expression = text.slice(at, end + 1);
    const result = expand(text.slice(at + 2, end), expression, variables);
    expansions.push(result.expansion);
    out += text.slice(i, at) + (result.value ?? expression);
    i = end + 1;
  }
  out += text.slice(i);
  return { value: out, expansions, changed: out !== text || expansions.length > 0 };
}
