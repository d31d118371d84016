// Glob patterns as regular expressions, for suppression entries: `*` and `?` stay within one path segment,
// `**` spans segments, `{a,b}` is a choice and `[...]` a character class. Names (kind, namespace, name) have
// no segments, so there `*` matches anything.
const cache = new Map<string, RegExp>();

function escape(char: string): string {
  return /[\\^$.|+()[\]{}*?]/.test(char) ? `\\${char}` : char;
}

function translate(glob: string, segmented: boolean): string {
  const any = segmented ? '[^/]*' : '.*';
  const one = segmented ? '[^/]' : '.';
  let out = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (segmented && glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else {
        out += any;
      }
    } else if (c === '?') {
      out += one;
    } else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        const body = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = close;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += escape(c);
    }
  }
  return out + ')'.repeat(braces);
}

/** Whether `value` matches `glob` entirely. `segmented`: `value` is a path with `/` separators. */
export function globMatch(glob: string, value: string, segmented: boolean): boolean {
  const key = `${segmented ? 'p' : 'n'}${glob}`;
  let regex = cache.get(key);
  if (!regex) {
    regex = new RegExp(`^${translate(glob.replace(/^\.\//, ''), segmented)}$`);
    cache.set(key, regex);
  }
  return regex.test(value);
}
