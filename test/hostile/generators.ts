// Generated hostile inputs, made at test time (nothing large is committed): huge flow sequences, many empty
// documents, every YAML tag, hostile names and glob patterns. The fuzz suite draws from the same generators.
import { rng } from '../fuzz/mutate.js';

/** A PVC whose `accessModes` flow sequence holds `count` one-character items. */
export function hugeFlowSequence(count: number): string {
  return [
    'apiVersion: v1',
    'kind: PersistentVolumeClaim',
    'metadata:',
    '  name: huge',
    'spec:',
    `  accessModes: [${Array.from({ length: count }, () => 'a').join(',')}]`,
    '  resources:',
    '    requests:',
    '      storage: 1Gi',
    '',
  ].join('\n');
}

/** `count` lines of `---`: as many empty documents. */
export function manyEmptyDocuments(count: number): string {
  return '---\n'.repeat(count);
}

/** `count` PVCs with an invalid storage size: one error (and one note) each. */
export function invalidClaims(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(`---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c${i}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Xi\n`);
  }
  return parts.join('');
}

/** The YAML 1.1 and 1.2 tags, local and unknown ones, each put where a field the rules read sits. */
export const YAML_TAGS = [
  '!!binary aGVsbG8=', '!!merge x', '!!str x', '!!int 3', '!!float 1.5', '!!bool true', '!!null', '!!timestamp 2001-12-14',
  '!!set {a, b}', '!!omap [a: 1, b: 2]', '!!pairs [a: 1]', '!!map {a: 1}', '!!seq [a]', '!!value x', '!!yaml x',
  '!local x', '!<tag:example.com,2000:x> y', '!!python/object:os.system x', '! x', '!!int x',
];

/** A PVC with `value` (a tagged YAML value) in place of labels, storage and accessModes. */
export function taggedClaims(): string {
  return YAML_TAGS.map((tag, i) =>
    [
      '---',
      'apiVersion: v1',
      'kind: PersistentVolumeClaim',
      'metadata:',
      `  name: tagged-${i}`,
      `  labels: ${tag}`,
      'spec:',
      `  accessModes: ${tag}`,
      `  storageClassName: ${tag}`,
      '  resources:',
      '    requests:',
      `      storage: ${tag}`,
      '',
    ].join('\n'),
  ).join('');
}

/** Names a repository may hold that must never reach a terminal or a CI log as they are. */
export const HOSTILE_NAMES = [
  '::error file=README.md,line=1::x',
  '  ::warning::indented',
  '##[error]old-style',
  '\u001b]0;pwned\u0007title',
  '\u001b[2J\u001b[Hclear',
  'carriage\rreturn',
  'line\nfeed',
  'nul\u0000byte',
  'del\u007f',
  'c1\u009b31m',
  'bidi\u202eevil',
  'sep\u2028arator',
  '100%25 %0A percent',
  'comma,colon:both',
  'constructor',
  '__proto__',
  'toString',
];

/** Glob patterns that are malformed, or that backtracking matchers take exponential time on. */
export const HOSTILE_GLOBS = ['[z-a]', '[', '**/[', '{a,b', '*-*-*-*-*-cache', '*a*a*a*a*a*a*a*a*b', '?'.repeat(300), '\\', '!(a|b'];

/** A seeded random stream (the fuzz harness's mulberry32): fuzz cases are the same on every run. */
export const seeded = rng;

/** A random string drawn from the characters that escaping must handle. */
export function hostileString(random: () => number, length: number): string {
  const alphabet = ['a', ':', ':', ',', '%', '\r', '\n', '\u001b', '\u0007', '\u009b', '\u202e', '\u2028', '#', '[', ' ', '\t', '\u0000', '\\', 'é', '💥'];
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}
