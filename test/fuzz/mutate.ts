// Seeded mutations of manifest bytes: truncation, byte flips, indentation changes, key deletion, type swaps and the
// hostile constructs of issue 9 (anchors, merge keys, templates, deep nesting, CRLF, BOM, duplicate keys).
// Everything is a pure function of the random stream, so a case is reproduced from (seed, index) alone.

/** mulberry32: small, fast, good enough to pick mutations. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The random stream of case `index` under `seed`: independent of every other case. */
export function caseRandom(seed: number, index: number): () => number {
  let h = 2166136261 ^ seed;
  for (const n of [seed, index, seed ^ index]) {
    h = Math.imul(h ^ (n & 0xffff), 16777619);
    h = Math.imul(h ^ (n >>> 16), 16777619);
  }
  return rng(h >>> 0);
}

type Random = () => number;

const int = (random: Random, n: number) => Math.floor(random() * n);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)];

function lines(bytes: Buffer): string[] {
  return bytes.toString('latin1').split('\n');
}

function join(parts: string[]): Buffer {
  return Buffer.from(parts.join('\n'), 'latin1');
}

const KEY_LINE = /^(\s*(?:- )?)([\w./-]+):(\s*)(.*)$/;

const SCALARS = ['"3"', '3', '10', '"10"', 'true', 'yes', 'null', '~', '[]', '{}', '[ReadWriteOnce]', 'ReadWriteOnce', '{toString: 1}', '-1', '2147483648', '1.5', '0x1F', '"10Gi"', "''", '&a x', '*a', '*missing'];

export interface Mutation {
  name: string;
  apply(bytes: Buffer, random: Random): Buffer;
}

export const MUTATIONS: readonly Mutation[] = [
  { name: 'truncate', apply: (b, r) => b.subarray(0, int(r, b.length + 1)) },
  {
    name: 'byte-flip',
    apply: (b, r) => {
      const out = Buffer.from(b);
      const n = 1 + int(r, 4);
      for (let i = 0; i < n && out.length > 0; i++) out[int(r, out.length)] = pick(r, [0x00, 0x09, 0x0d, 0x22, 0x27, 0x3a, 0x5b, 0x7b, 0x7c, 0x2d, 0x26, 0x2a, 0xc3, 0xe9, 0xff, int(r, 256)]);
      return out;
    },
  },
  {
    name: 'indent',
    apply: (b, r) => {
      const ls = lines(b);
      const i = int(r, ls.length);
      const choice = int(r, 3);
      if (choice === 0) ls[i] = ' '.repeat(1 + int(r, 4)) + ls[i];
      else if (choice === 1) ls[i] = ls[i].replace(/^ {1,4}/, '');
      else ls[i] = ls[i].replace(/^ {2}/, '\t');
      return join(ls);
    },
  },
  {
    name: 'delete-key',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      if (keyed.length === 0) return b;
      const i = pick(r, keyed);
      const indent = /^\s*/.exec(ls[i])![0].length;
      let end = i + 1;
      // With its block when the value is nested below it.
      if (r() < 0.5) while (end < ls.length && (ls[end].trim() === '' || /^\s*/.exec(ls[end])![0].length > indent)) end++;
      ls.splice(i, end - i);
      return join(ls);
    },
  },
  {
    name: 'type-swap',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      if (keyed.length === 0) return b;
      const i = pick(r, keyed);
      const m = KEY_LINE.exec(ls[i])!;
      const value = m[4].trim();
      let swapped = pick(r, SCALARS);
      if (/^\d+$/.test(value) && r() < 0.5) swapped = `"${value}"`;
      else if (/^\[(.*)\]$/.test(value) && r() < 0.5) swapped = value.slice(1, -1);
      else if (value !== '' && !/^[[{"']/.test(value) && r() < 0.3) swapped = `[${value}]`;
      ls[i] = `${m[1]}${m[2]}: ${swapped}`;
      return join(ls);
    },
  },
  {
    name: 'duplicate-line',
    apply: (b, r) => {
      const ls = lines(b);
      const i = int(r, ls.length);
      ls.splice(i, 0, ls[i]);
      return join(ls);
    },
  },
  {
    name: 'anchor-alias',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      if (keyed.length < 2) return b;
      const [a, c] = [pick(r, keyed), pick(r, keyed)].sort((x, y) => x - y);
      const ma = KEY_LINE.exec(ls[a])!;
      ls[a] = `${ma[1]}${ma[2]}: &x ${ma[4]}`;
      const mc = KEY_LINE.exec(ls[c])!;
      ls[c] = r() < 0.5 ? `${mc[1]}${mc[2]}: *x` : `${mc[1]}<<: *x`;
      return join(ls);
    },
  },
  {
    name: 'go-template',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      if (keyed.length === 0) return join([...ls, '{{- if .Values.enabled }}', 'x: 1', '{{- end }}']);
      const i = pick(r, keyed);
      const m = KEY_LINE.exec(ls[i])!;
      ls[i] = `${m[1]}${m[2]}: ${pick(r, ['{{ .Values.x }}', '"{{ .Values.x }}"', '{{ include "x" . | nindent 4 }}'])}`;
      if (r() < 0.3) ls.splice(i, 0, '{{- if .Values.enabled }}');
      return join(ls);
    },
  },
  { name: 'crlf', apply: (b) => Buffer.from(b.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1') },
  { name: 'bom', apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) },
  {
    name: 'deep-nesting',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      // 20 to 3000 levels, log-uniform: around maxDepth, and past the depth where the YAML library overflows its stack.
      const depth = Math.round(20 * Math.pow(150, r()));
      const nested = r() < 0.5 ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`;
      if (keyed.length === 0) return join([...ls, `deep: ${nested}`]);
      const i = pick(r, keyed);
      const m = KEY_LINE.exec(ls[i])!;
      ls[i] = `${m[1]}${m[2]}: ${nested}`;
      return join(ls);
    },
  },
  {
    name: 'document-split',
    apply: (b, r) => {
      const ls = lines(b);
      ls.splice(int(r, ls.length + 1), 0, pick(r, ['---', '...', '--- |', '%YAML 1.1', '---\nkind: List\napiVersion: v1\nitems: [[], {}, 3]']));
      return join(ls);
    },
  },
  {
    // Maps with a toString key where a string belongs: String() and template literals throw on them.
    name: 'poison-object',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      if (keyed.length === 0) return b;
      const named = keyed.filter((i) => /\b(?:name|namespace|claimName|storageClassName|volumeName|driver|volumeHandle|provisioner|mountPath|subPath|kind)\b/.test(ls[i]));
      const i = pick(r, named.length > 0 && r() < 0.7 ? named : keyed);
      const m = KEY_LINE.exec(ls[i])!;
      ls[i] = `${m[1]}${m[2]}: ${pick(r, ['{toString: 1}', '{valueOf: 1, toString: 2}', '[{toString: 1}]', '{__proto__: {a: 1}}', '{constructor: 1}'])}`;
      return join(ls);
    },
  },
  {
    // Seeds become storage objects, so type swaps reach the fields the rules read.
    name: 'storage-kind',
    apply: (b, r) => {
      const text = b.toString('latin1');
      const kind = pick(r, ['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'Deployment', 'StatefulSet', 'DaemonSet', 'CronJob', 'Pod', 'Job', 'HorizontalPodAutoscaler', 'List']);
      return Buffer.from(text.replace(/^kind:.*$/m, `kind: ${kind}`), 'latin1');
    },
  },
  {
    // Thousands of keys in one map: the YAML library's duplicate-key check is quadratic.
    name: 'wide-map',
    apply: (b, r) => {
      const ls = lines(b);
      const keyed = ls.map((l, i) => (KEY_LINE.test(l) ? i : -1)).filter((i) => i >= 0);
      const i = keyed.length > 0 ? pick(r, keyed) : 0;
      const indent = /^\s*/.exec(ls[i] ?? '')![0];
      const n = 500 + int(r, 5000);
      const added = Array.from({ length: n }, (_, k) => `${indent}wide${k}: ${k % 7 === 0 ? '"x"' : k}`);
      if (r() < 0.3) added.push(`${indent}wide${int(r, n)}: again`);
      ls.splice(i + 1, 0, ...added);
      return join(ls);
    },
  },
  {
    // Many anchors and aliases in one document: the YAML library resolves each alias by a scan of all of them.
    name: 'alias-storm',
    apply: (b, r) => {
      const n = 100 + int(r, 3000);
      const anchors = Array.from({ length: n }, (_, k) => `  - &s${k} v${k}`);
      const aliases = Array.from({ length: n }, (_, k) => `  - *s${int(r, n) === 0 ? 0 : k}`);
      return join([...lines(b), 'storm-anchors:', ...anchors, 'storm-aliases:', ...aliases]);
    },
  },
  {
    name: 'swap-lines',
    apply: (b, r) => {
      const ls = lines(b);
      if (ls.length < 2) return b;
      const i = int(r, ls.length - 1);
      [ls[i], ls[i + 1]] = [ls[i + 1], ls[i]];
      return join(ls);
    },
  },
];

export interface MutatedInput {
  bytes: Buffer;
  mutations: string[];
}

/** One to three mutations of `seed` bytes, chosen by `random`. */
export function mutate(source: Buffer, random: Random): MutatedInput {
  let bytes = source;
  const mutations: string[] = [];
  const n = 1 + int(random, 3);
  for (let i = 0; i < n; i++) {
    const m = pick(random, MUTATIONS);
    bytes = m.apply(bytes, random);
    mutations.push(m.name);
  }
  return { bytes, mutations };
}
