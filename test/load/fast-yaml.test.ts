// The fast reader (src/load/fast-yaml.ts) against today's parse (`yaml`, as parseSpan + documentToJS read a
// document): wherever it gives a value, the value must be the one `yaml` gives, key order, -0 and NaN included; on
// anything `yaml` reports as an error it must give nothing. Checked on seeded generated documents built to hit the
// cases the two could disagree on (merge keys, YAML 1.1 booleans, duplicate keys, anchors and aliases, tags, every
// number form, block scalars and their chomping, flow collections, compact lists, comments), on seeded mutations of
// every manifest in examples/ and test/fixtures/, and through lint() with the reader on and off.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { splitDocuments, type DocumentSpan } from '../../src/load/document-scan.js';
import { fastDocumentNode, fastParseDocument, fastReadDocument } from '../../src/load/fast-yaml.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { locateInNode } from '../../src/load/locate-node.js';
import type { Node as YamlNode } from 'yaml';
import { resolveLimits } from '../../src/load/limits.js';
import { setFastReader } from '../../src/load/parse-resources.js';
import { documentToJS, parseSpan } from '../../src/load/yaml-stream.js';
import { lint } from '../../src/lint.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { pathsOf } from '../helpers/value-paths.js';
import { seededRandom as random } from '../helpers/random.js';

const fast = suite('fast YAML reader');
const LIMITS = resolveLimits();


/** `yaml`'s reading of the document: its value, or undefined when it reports an error or a limit. */
function yamlValue(text: string, span: DocumentSpan): { value: unknown } | undefined {
  const doc = parseSpan(text, LIMITS, span).documents[0];
  if (!doc || doc.errors.length > 0 || !doc.contents) return undefined;
  const converted = documentToJS(doc, undefined, LIMITS);
  return 'value' in converted ? { value: converted.value } : undefined;
}

/** Same value, same key order (isDeepStrictEqual ignores order; JSON ignores -0 and NaN: both together do not). */
function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b);
}

interface Tally {
  documents: number;
  read: number;
  /** Documents whose positions the fast reader gave. */
  located?: number;
}

/** Where every path of the document is, located in the fast reader's nodes and in `yaml`'s: the same regions. */
function comparePositions(text: string, span: DocumentSpan, value: unknown, where: string, tally: Tally): void {
  const node = fastDocumentNode(text, span, LIMITS);
  if (node === undefined) return;
  tally.located = (tally.located ?? 0) + 1;
  const expected = parseSpan(text, LIMITS, span).documents[0].contents as YamlNode;
  // Where the resource ends too (graphs place findings by it).
  assert.equal(node.range, expected.range, `${where}: the document's range differs in ${JSON.stringify(text.slice(span.start, span.end))}`);
  // Every node's start and end (the end past a trailing comment, range[2], is not kept), keys too.
  const walk = (a: any, b: any, at: string): void => {
    if (a === null || typeof a !== 'object' || b === null || typeof b !== 'object') return;
    if (a.range || b.range) assert.equal(a.range?.slice(0, 2), b.range?.slice(0, 2), `${where}: the range of ${at} differs in ${JSON.stringify(text.slice(span.start, span.end))}`);
    if (Array.isArray(a.items) && Array.isArray(b.items)) {
      a.items.forEach((item: any, i: number) => {
        if (item && 'key' in item) {
          walk(item.key, b.items[i]?.key, `${at}.${i}(key)`);
          walk(item.value, b.items[i]?.value, `${at}.${i}`);
        } else walk(item, b.items[i], `${at}.${i}`);
      });
    }
  };
  walk(node, expected, 'root');
  const file = makeSourceFile('/x.yaml', 'x.yaml', text);
  for (const p of pathsOf(value)) {
    const [fast, slow] = [locateInNode(file, node, p), locateInNode(file, expected, p)];
    if (!isDeepStrictEqual(fast, slow)) {
      assert.equal(fast, slow, `${where}: positions differ at ${p.join('.')} in\n${text.slice(span.start, span.end)}`);
    }
  }
}

/** Values in a JSON value as the node budgets count them: each map, list and scalar one (keys not). */
function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, item) => n + countValues(item), 0);
  if (value !== null && typeof value === 'object') return 1 + Object.values(value).reduce((n: number, item) => n + countValues(item), 0);
  return 1;
}

/** Compares every document of `text`; returns how many the fast reader read. */
function compare(text: string, where: string, tally: Tally): void {
  const split = splitDocuments(text);
  if (!split) return;
  for (const span of split.spans) {
    tally.documents++;
    const read = fastReadDocument(text, span, LIMITS);
    const value = read?.value;
    if (value === undefined) continue;
    tally.read++;
    assert.is(read!.values, countValues(value), `${where}: values counted while reading`);
    const expected = yamlValue(text, span);
    if (!expected) assert.unreachable(`${where}: the fast reader read a document yaml rejects:\n${text.slice(span.start, span.end)}`);
    if (!same(value, expected!.value)) {
      assert.equal(value, expected!.value, `${where}: values differ for\n${text.slice(span.start, span.end)}\nfast: ${JSON.stringify(value)}\nyaml: ${JSON.stringify(expected!.value)}`);
    }
    comparePositions(text, span, value, where, tally);
  }
}

// --- generated documents ---------------------------------------------------------------------------------------

const SCALARS = [
  'web', 'data-0', 'ReadWriteOnce', '10Gi', '"10Gi"', "'10Gi'", '3', '"3"', '0', '-0', '+12', '007', '0o17', '0x1F', '0xZZ',
  '1.5', '1.50', '-.5', '.5', '1e3', '1E-3', '6.02e+23', '.inf', '-.Inf', '.NaN', '.nan', 'true', 'True', 'TRUE', 'false',
  'yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'N', '~', 'null', 'Null', 'NULL', '', 'tRue', 'nULL', '12345678901234567890',
  '9007199254740993', '1_000', '2001-12-14', '1:30', 'a:b', 'http://x.example/a?b=c#frag', 'a #comment', 'a#b', '"a \\" b"',
  '"tab\\tand\\nnewline"', '"\\u00e9"', '"\\x41"', "'it''s'", "'a \" b'", '"a\'b"', '@x', '`x`', '%x', '&anchor value', '*alias',
  '!!str 3', '!tag x', '20 23 * * *', '"*/5 * * * *"', "'& *'", 'a &b', 'a *b', 'a !b', 'x&y*z!', '"!x"', '& x', '* x', '! x',
  '&a [x]', '*a # c', '!t |', '!!int 3', '!<tag:yaml.org,2002:str> x', '[a, &x b]', '[a, *x]', '[!t a]', '{a: *x}', '{&x a: b}',
  '{a: !t b}', '[a *b, c&d]', 'nbsp\u00a0', '"q"\u00a0', 'ideographic\u3000 ', '[a\u00a0, b]', '[a, b]', '[]', '{}', '{a: 1, b: [2, 3]}', '[a, [b, c], {d: e}]', '[a,b]', '{a: b,}', '[a, ]', '[a: b]',
  '{a: 1, a: 2}', '[ "q", \'s\' ]', '[1, 1.5, true, null, ~]', '{"k": v}', '- x', '? x', ': x', '-x', '?x', ':x', '--x', 'a: b',
  '"unterminated', "'unterminated", '[unclosed', '{unclosed', 'a\tb', '"<<"', '<<', 'key with spaces', '#', ' # only comment',
];
const KEYS = [
  'name', 'kind', 'app.kubernetes.io/name', 'storage', '"quoted key"', "'single key'", 'x-y_z', 'on', 'yes', 'true', 'null', '~',
  '1', '0x10', '1.5', '<<', '__proto__', '"__proto__"', 'a b', 'key:x', '"k: v"', '? complex', '&a key', '*a', '!t key', '-dash',
  '"esc\\nkey"', 'ünïcode', 'name', 'k\u00a0', '"a *b"', 'a*b', 'a &b', 'a !b', '"&a"',
];

function pick<T>(next: () => number, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)];
}

/** A block YAML document of maps and lists, with a few deliberate irregularities. */
function generate(next: () => number): string {
  const lines: string[] = [];
  const blockScalar = (indent: number) => {
    const header = pick(next, ['|', '|-', '|+', '>', '>-', '>+', '|2', '| # c', '|x']);
    const body: string[] = [];
    const n = 1 + Math.floor(next() * 4);
    const step = pick(next, [2, 2, 2, 4]);
    for (let i = 0; i < n; i++) {
      const r = next();
      if (r < 0.15) body.push('');
      else if (r < 0.22) body.push(' '.repeat(indent + step + 2));
      else if (r < 0.3) body.push(`${' '.repeat(indent + step + 2)}more indented ${i}`);
      else if (r < 0.34) body.push(`${' '.repeat(indent + step)}# not a comment ${i}`);
      else body.push(`${' '.repeat(indent + step)}line ${i}: ${pick(next, SCALARS)}`);
    }
    if (next() < 0.3) body.push('');
    return { header, body };
  };
  const map = (indent: number, depth: number, first?: string) => {
    const count = 1 + Math.floor(next() * 5);
    for (let i = 0; i < count; i++) {
      const pad = i === 0 && first !== undefined ? first : ' '.repeat(indent);
      const key = next() < 0.85 ? `k${Math.floor(next() * 6)}` : pick(next, KEYS);
      const r = next();
      if (next() < 0.05) lines.push(`${' '.repeat(indent)}# a comment`);
      if (next() < 0.04) lines.push('');
      if (r < 0.45 || depth > 4) lines.push(`${pad}${key}: ${pick(next, SCALARS)}${next() < 0.1 ? ' # trailing' : ''}`);
      else if (r < 0.6) {
        lines.push(`${pad}${key}:${next() < 0.1 ? ' # c' : ''}`);
        map(indent + pick(next, [2, 2, 4]), depth + 1);
      } else if (r < 0.8) {
        lines.push(`${pad}${key}:`);
        seq(indent + pick(next, [0, 2, 2, 4]), depth + 1);
      } else if (r < 0.9) {
        const { header, body } = blockScalar(indent);
        lines.push(`${pad}${key}: ${header}`, ...body);
      } else if (r < 0.95) {
        lines.push(`${pad}${key}:`);
      } else {
        lines.push(`${pad}<<: ${pick(next, ['*base', '{a: 1}', '[*a, *b]'])}`);
      }
      if (next() < 0.03) lines.push(`${' '.repeat(indent + 1)}continued plain ${i}`);
    }
  };
  const seq = (indent: number, depth: number) => {
    const count = 1 + Math.floor(next() * 4);
    for (let i = 0; i < count; i++) {
      const pad = ' '.repeat(indent);
      const r = next();
      if (r < 0.45 || depth > 4) lines.push(`${pad}- ${pick(next, SCALARS)}`);
      else if (r < 0.72) map(indent + 2, depth + 1, `${pad}- `);
      else if (r < 0.75) map(indent + 2 + 3, depth + 1, `${pad}- ${pick(next, ['&a', '!t', '*a', '&a ', '!!map'])} `);
      else if (r < 0.85) {
        lines.push(`${pad}-`);
        map(indent + 2, depth + 1);
      } else if (r < 0.92) {
        const { header, body } = blockScalar(indent);
        lines.push(`${pad}- ${header}`, ...body);
      } else lines.push(`${pad}- - ${pick(next, SCALARS)}`);
    }
  };
  if (next() < 0.3) lines.push(pick(next, ['---', '--- # doc', '---  ']));
  if (next() < 0.1) lines.push('# leading comment');
  lines.push(`apiVersion: ${pick(next, ['v1', 'apps/v1', '"v1"'])}`, `kind: ${pick(next, ['PersistentVolumeClaim', 'Deployment', 'StatefulSet'])}`);
  if (next() < 0.1) lines.push('base: &base {a: 1}');
  map(0, 0);
  return `${lines.join('\n')}${next() < 0.9 ? '\n' : ''}`;
}

fast('generated documents: the same value as yaml wherever the fast reader reads one (4,000 seeded documents)', () => {
  const next = random(12);
  const tally: Tally = { documents: 0, read: 0 };
  for (let i = 0; i < 4000; i++) {
    const text = generate(next);
    compare(text, `generated #${i}`, tally);
  }
  // Not vacuous: many generated documents are plain enough for the fast reader, many are not.
  assert.ok(tally.read > tally.documents * 0.1 && tally.read < tally.documents * 0.9, `read ${tally.read} of ${tally.documents}`);
  assert.ok((tally.located ?? 0) > tally.read * 0.5, `positions of ${tally.located} of the ${tally.read} read`);
});

/** A JSON document, sometimes with what sets JSON.parse and `yaml` apart (duplicate keys, big numbers, depth). */
function generateJson(next: () => number): string {
  const STRINGS = ['web', '', 'a b', 'it\'s', 'q"q', 'back\\slash', 'tab\there', 'nl\nx', '\u00e9\u4e2d', '\ud83d\ude00', '\u2028', '#x', 'a: b', '- x', '{x}', '*a', '&a', '!t', '---', '...', '10Gi', 'true', 'null', '1e3'];
  const NUMBERS = ['0', '-0', '1', '-12', '1.5', '1.0', '1e3', '1E-3', '6.02e+23', '1e400', '-1e400', '1e-400', '123456789012345', '1234567890123456', '12345678901234567890', '0.1234567890123456789', '9007199254740993'];
  const value = (depth: number): string => {
    const r = next();
    if (depth > 5 || r < 0.45) {
      const s = next();
      if (s < 0.5) return JSON.stringify(pick(next, STRINGS));
      if (s < 0.8) return pick(next, NUMBERS);
      return pick(next, ['true', 'false', 'null']);
    }
    if (r < 0.7) return `[${Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)).join(pick(next, [',', ', ', ',\n  ']))}]`;
    return object(depth + 1);
  };
  const object = (depth: number): string => {
    const keys = Array.from({ length: Math.floor(next() * 5) }, () => (next() < 0.8 ? `k${Math.floor(next() * 6)}` : pick(next, ['__proto__', '', 'a b', '1', '2', 'kind', 'x'.repeat(1100), 'é'])));
    const members = keys.map((k) => `${JSON.stringify(k)}${pick(next, [': ', ':', ' : ', '\n: '])}${value(depth)}`);
    return `{${pick(next, ['', '\n  ', ' '])}${members.join(pick(next, [', ', ',', ',\n  ', ',\n']))}${pick(next, ['', '\n', ' '])}}`;
  };
  let deep = '';
  if (next() < 0.03) deep = '{"d": '.repeat(120) + '1' + '}'.repeat(120);
  const body = `{"apiVersion": "v1", "kind": "ConfigMap"${next() < 0.9 ? `, "data": ${deep || object(1)}` : ''}}`;
  const prefix = pick(next, ['', '', '---\n', '--- \n', '\n\n', '  ', '# c\n', '---\n  ']);
  const suffix = pick(next, ['\n', '', '\n\n', ' \n', '\n# c\n', ',', '\t', '\r\n']);
  return prefix + body + suffix;
}

fast('JSON documents: the same value as yaml wherever JSON.parse reads one (3,000 seeded documents)', () => {
  const next = random(21);
  const tally: Tally = { documents: 0, read: 0 };
  for (let i = 0; i < 3000; i++) compare(generateJson(next), `json #${i}`, tally);
  assert.ok(tally.read > tally.documents * 0.15 && tally.read < tally.documents * 0.9, `read ${tally.read} of ${tally.documents}`);
  // Duplicate keys are yaml's to report, whatever JSON.parse makes of them.
  const duplicate = '{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1", "a": "2"}}\n';
  assert.is(fastParseDocument(duplicate, { start: 0, end: duplicate.length }, LIMITS), undefined);
  const plain = '---\n{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "spec": {"ports": [{"port": 80}], "x": -0, "y": 1e3}\n}\n';
  assert.ok(same(fastParseDocument(plain, { start: 0, end: plain.length }, LIMITS), { apiVersion: 'v1', kind: 'Service', spec: { ports: [{ port: 80 }], x: -0, y: 1000 } }));
});

fast('the cases the two readers could disagree on are left to yaml or read the same', () => {
  const cases: [string, unknown][] = [
    ['a: yes\nb: on\nc: y\nd: NO\n', { a: 'yes', b: 'on', c: 'y', d: 'NO' }],
    ['a: true\nb: False\nc: ~\nd:\ne: null\n', { a: true, b: false, c: null, d: null, e: null }],
    ['a: 0o17\nb: 0x1F\nc: 007\nd: -0\ne: 1.50\nf: .inf\ng: -.Inf\nh: .NaN\ni: 1e3\n', { a: 15, b: 31, c: 7, d: -0, e: 1.5, f: 'Infinity', g: '-Infinity', h: 'NaN', i: 1000 }],
    ['a: |\n  x\n\n  y\n\n\nb: >-\n  p\n  q\n\n  r\n', { a: 'x\n\ny\n', b: 'p q\nr' }],
    ['a: |+\n  x\n\nb: 1\n', { a: 'x\n\n', b: 1 }],
    ['a:\n- 1\n- k: v\n  j: [x, "y", {z: 1}]\nb: {}\n', { a: [1, { k: 'v', j: ['x', 'y', { z: 1 }] }], b: {} }],
    ["a: 'it''s'\nb: \"q\\\"\\n\"\n", { a: "it's", b: 'q"\n' }],    // `*`, `&` and `!` inside a scalar are text, not an alias, an anchor or a tag.
    // Only spaces end a plain scalar: a trailing no-break space is part of it.
    ['a: b\u00a0\nk\u00a0: v\nf: [x\u00a0, y]\n', { a: 'b\u00a0', 'k\u00a0': 'v', f: ['x\u00a0', 'y'] }],
    ['schedule: "20 23 * * *"\nb: 0 * * * *\nc: a && b\nd: [x *y, "&z"]\ne: wow!\n', { schedule: '20 23 * * *', b: '0 * * * *', c: 'a && b', d: ['x *y', '&z'], e: 'wow!' }],
  ];
  for (const [text, value] of cases) {
    const span = splitDocuments(text)!.spans[0];
    const read = fastParseDocument(text, span, LIMITS);
    assert.ok(read !== undefined, `the fast reader should read:\n${text}`);
    assert.ok(same(read, value), `${text}\n→ ${JSON.stringify(read)}`);
    assert.ok(same(yamlValue(text, span)!.value, value), `yaml disagrees with the expectation for\n${text}`);
  }
  const leftToYaml = [
    'a: 1\na: 2\n', // duplicate key: yaml reports it
    'base: &b {x: 1}\nc:\n  <<: *b\n', // anchors, aliases, merge keys
    'a: !!str 3\n', // tags
    'a: b\n  c\n', // multi-line plain scalar
    'a: "x\n  y"\n', // multi-line quoted scalar
    'a:\tb\n', // tab
    '1: x\n', // a key that is not a string
    '__proto__: x\n',
    'a: [1,\n  2]\n', // multi-line flow
    'a: >\n  x\n    more indented\n', // folded with more-indented lines
    '- a\n- b\n', // not a map at the top
    'a: b: c\n',
    // An anchor, an alias or a tag wherever a node starts.
    'a: &x 1\nb: 2\n',
    'a:\n- &x k: v\n',
    'a:\n  - *x\n',
    'a: [b, *x]\n',
    'a: {b: &x c}\n',
    'a: !t |\n  x\n',
    'a: !!str\n  b: c\n',
    '&x a: 1\n',
    'a:\n  !t b: 1\n',
  ];
  for (const text of leftToYaml) {
    assert.is(fastParseDocument(text, splitDocuments(text)!.spans[0], LIMITS), undefined, `should be left to yaml:\n${text}`);
  }
});

fast('limits: a document over maxDocumentBytes or nested past maxDepth is left to yaml (which reports it)', () => {
  const deep = Array.from({ length: 12 }, (_, i) => `${' '.repeat(2 * i)}k${i}:`).join('\n') + ' x\n';
  const span = splitDocuments(deep)!.spans[0];
  assert.ok(fastParseDocument(deep, span, LIMITS) !== undefined);
  assert.is(fastParseDocument(deep, span, { ...LIMITS, maxDepth: 5 }), undefined);
  assert.is(fastParseDocument(deep, span, { ...LIMITS, maxDocumentBytes: 10 }), undefined);
});

function manifests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...manifests(full));
    else if (/\.ya?ml$/.test(entry.name) && statSync(full).size < 1024 * 1024) out.push(full);
  }
  return out;
}

const MUTATIONS: ((line: string, next: () => number) => string)[] = [
  (line) => ` ${line}`,
  (line) => line.replace(/^ {1,2}/, ''),
  (line) => `${line} # comment`,
  (line) => line.replace(': ', ':'),
  (line) => line.replace(/: (.+)$/, ': $1: x'),
  (line) => line.replace(/: (.+)$/, ': &a $1'),
  (line) => line.replace(/: (.+)$/, ': *a'),
  (line) => line.replace(/: (.+)$/, ': !!str $1'),
  (line) => line.replace(/: (.+)$/, ': "$1'),
  (line) => line.replace(/: (.+)$/, ": '$1'"),
  (line) => line.replace(/: (.+)$/, ': [$1'),
  (line) => line.replace(/: (.+)$/, ': yes'),
  (line) => line.replace(/: (.+)$/, ': 0x1F'),
  (line) => line.replace(/^(\s*)/, '$1<<: {a: 1}\n$1'),
  (line) => line.replace(/^(\s*)/, '$1\t'),
  (line) => line.replace(/^(\s*)- /, '$1-'),
  (line, next) => line.slice(0, Math.floor(next() * line.length)),
  (line) => `${line}\n${line}`,
];

fast('mutated manifests of examples/ and test/fixtures/: the same value as yaml wherever the fast reader reads one', () => {
  const next = random(99);
  const tally: Tally = { documents: 0, read: 0 };
  const files = [...manifests(path.join(PROJECT_ROOT, 'examples')), ...manifests(path.join(PROJECT_ROOT, 'test', 'fixtures'))];
  assert.ok(files.length > 50);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    compare(text, path.relative(PROJECT_ROOT, file), tally);
    const lines = text.split('\n');
    for (let m = 0; m < 6; m++) {
      const copy = [...lines];
      for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
        const at = Math.floor(next() * copy.length);
        copy[at] = pick(next, MUTATIONS)(copy[at], next);
      }
      compare(copy.join('\n'), `${path.relative(PROJECT_ROOT, file)} (mutated)`, tally);
    }
  }
  assert.ok(tally.read > tally.documents * 0.3, `read ${tally.read} of ${tally.documents}`);
  assert.ok((tally.located ?? 0) > tally.read * 0.5, `positions of ${tally.located} of the ${tally.read} read`);
});

fast('lint() gives the same report with the fast reader and with yaml alone (examples/)', async () => {
  const run = async () => {
    const result = await lint({ paths: ['examples/plain', 'examples/custom-rules'], cwd: PROJECT_ROOT });
    return JSON.stringify({ findings: result.findings, stats: result.stats, scopes: result.scopes });
  };
  const withFast = await run();
  setFastReader(false);
  try {
    assert.is(await run(), withFast);
  } finally {
    setFastReader(true);
  }
});

fast.run();
