// Glob patterns for suppression entries: `*` and `?` stay within one path segment, `**` spans segments, `{a,b}` is a
// choice and `[...]` a character class (`[!...]` negated). Names (kind, namespace, name) have no segments, so there
// `*` matches anything.
//
// Matching runs the pattern as a set of positions advanced over the text one character at a time (a Thompson NFA):
// time is at most the text's length times the pattern's, whatever both hold. A regular expression with several `*`
// backtracks: `*-*-*-*-*-cache` against a 252-character name took 50 s. That is why this matcher exists instead of
// picomatch (installed with fast-glob): it compiles a glob to such a regular expression, and the
// patterns come from a repository's configuration. A malformed pattern (`[z-a]`) is refused
// with a message when the configuration is read (`globProblem`), never at match time.

type Token =
  | { t: 'char'; c: string }
  | { t: 'one' }
  /** `*` (within a segment) or `**` not followed by `/` (`cross`: across segments). */
  | { t: 'star'; cross: boolean }
  /** `**​/`: nothing, or anything ending with `/`. */
  | { t: 'dirs' }
  | { t: 'class'; negate: boolean; ranges: [number, number][] };

/** More alternatives than this from `{...}` choices is refused: each is matched on its own. */
const MAX_ALTERNATIVES = 256;

export class GlobError extends Error {}

/** The alternatives of `{a,b}` choices, nested ones too: `x{a,b{c,d}}` → `xa`, `xbc`, `xbd`. */
function expandBraces(glob: string): string[] {
  // Find the first `{` with its matching `}` (a `[...]` class is skipped: braces inside it are literal).
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '[') {
      const close = classEnd(glob, i);
      if (close !== -1) i = close;
    } else if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === ',' && depth === 1) {
      commas.push(i);
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        const before = glob.slice(0, open);
        const after = glob.slice(i + 1);
        const bounds = [open, ...commas, i];
        const out: string[] = [];
        for (let k = 0; k + 1 < bounds.length; k++) {
          for (const tail of expandBraces(glob.slice(bounds[k] + 1, bounds[k + 1]) + after)) {
            out.push(before + tail);
            if (out.length > MAX_ALTERNATIVES) throw new GlobError(`its {…} choices make more than ${MAX_ALTERNATIVES} patterns`);
          }
        }
        return out;
      }
    }
  }
  // An unclosed `{` is a choice that runs to the end, as it always has: `{a,b` is `a` or `b`.
  if (depth > 0) return expandBraces(`${glob}${'}'.repeat(depth)}`);
  return [glob];
}

/** The index of the `]` that closes the class opening at `start`, or -1 (a `]` right after `[` or `[!` is literal). */
function classEnd(glob: string, start: number): number {
  let i = start + 1;
  if (glob[i] === '!' || glob[i] === '^') i++;
  if (glob[i] === ']') i++;
  return glob.indexOf(']', i);
}

function tokenize(glob: string, segmented: boolean): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (segmented && glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        tokens.push(slash ? { t: 'dirs' } : { t: 'star', cross: true });
        i += slash ? 2 : 1;
      } else if (tokens.at(-1)?.t !== 'star') {
        // `**` in a name, or `***`: one star is the same pattern.
        tokens.push({ t: 'star', cross: !segmented });
      }
    } else if (c === '?') {
      tokens.push({ t: 'one' });
    } else if (c === '[') {
      const close = classEnd(glob, i);
      if (close === -1) {
        tokens.push({ t: 'char', c: '[' });
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      const ranges: [number, number][] = [];
      const chars = [...body];
      for (let k = 0; k < chars.length; k++) {
        let from = chars[k];
        if (from === '\\' && k + 1 < chars.length) from = chars[++k];
        if (chars[k + 1] === '-' && k + 2 < chars.length) {
          let to = chars[k + 2];
          k += 2;
          if (to === '\\' && k + 1 < chars.length) to = chars[++k];
          const lo = from.codePointAt(0)!;
          const hi = to.codePointAt(0)!;
          if (lo > hi) throw new GlobError(`the range [${from}-${to}] is backwards (${from} comes after ${to})`);
          ranges.push([lo, hi]);
        } else {
          const code = from.codePointAt(0)!;
          ranges.push([code, code]);
        }
      }
      tokens.push({ t: 'class', negate, ranges });
      i = close;
    } else if (c === '\\' && i + 1 < glob.length) {
      tokens.push({ t: 'char', c: glob[++i] });
    } else {
      tokens.push({ t: 'char', c });
    }
  }
  return tokens;
}

function classMatches(token: Extract<Token, { t: 'class' }>, char: string): boolean {
  const code = char.codePointAt(0)!;
  const inside = token.ranges.some(([lo, hi]) => code >= lo && code <= hi);
  return inside !== token.negate;
}

/** Adds `state` and every state reachable from it without reading a character. */
function addState(tokens: readonly Token[], states: Set<number>, state: number): void {
  while (!states.has(state)) {
    states.add(state);
    const token = tokens[state];
    if (!token || (token.t !== 'star' && token.t !== 'dirs')) return;
    state++;
  }
}

function run(tokens: readonly Token[], value: string, segmented: boolean): boolean {
  // A `**/` that has read characters may only be left through a `/`: it is `inside + i`, without the way out
  // (`addState`'s skip) that entering it has.
  const inside = tokens.length + 1;
  let states = new Set<number>();
  addState(tokens, states, 0);
  for (const char of value) {
    const next = new Set<number>();
    for (const state of states) {
      if (state >= inside) {
        next.add(state);
        if (char === '/') addState(tokens, next, state - inside + 1);
        continue;
      }
      const token = tokens[state];
      if (!token) continue;
      switch (token.t) {
        case 'char':
          if (token.c === char) addState(tokens, next, state + 1);
          break;
        case 'one':
          if (!segmented || char !== '/') addState(tokens, next, state + 1);
          break;
        case 'class':
          if ((!segmented || char !== '/') && classMatches(token, char)) addState(tokens, next, state + 1);
          break;
        case 'star':
          if (token.cross || char !== '/') addState(tokens, next, state);
          break;
        case 'dirs':
          next.add(inside + state);
          if (char === '/') addState(tokens, next, state + 1);
          break;
      }
    }
    if (next.size === 0) return false;
    states = next;
  }
  return states.has(tokens.length);
}

const compiled = new Map<string, Token[][]>();

function compile(glob: string, segmented: boolean): Token[][] {
  const key = `${segmented ? 'p' : 'n'}${glob}`;
  let alternatives = compiled.get(key);
  if (!alternatives) {
    alternatives = expandBraces(glob.replace(/^\.\//, '')).map((one) => tokenize(one, segmented));
    compiled.set(key, alternatives);
  }
  return alternatives;
}

/** Why `glob` is not a pattern pvlint can match, or undefined when it is. */
export function globProblem(glob: string): string | undefined {
  try {
    compile(glob, true);
    compile(glob, false);
    return undefined;
  } catch (error) {
    if (error instanceof GlobError) return `"${glob}" is not a valid glob: ${error.message}`;
    throw error;
  }
}

/** Whether `value` matches `glob` entirely. `segmented`: `value` is a path with `/` separators. */
export function globMatch(glob: string, value: string, segmented: boolean): boolean {
  let alternatives: Token[][];
  try {
    alternatives = compile(glob, segmented);
  } catch (error) {
    // Refused when the configuration was read; an API caller's bad pattern matches nothing.
    if (error instanceof GlobError) return false;
    throw error;
  }
  return alternatives.some((tokens) => run(tokens, value, segmented));
}
