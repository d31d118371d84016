import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canSkip, scanKind, splitDocuments } from '../../src/load/document-scan.js';
import { parseDeferred, parseResources, setFastReader } from '../../src/load/parse-resources.js';
import { lint } from '../../src/lint.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { parseSpan, parseStream, SKIPPED_DOCUMENT } from '../../src/load/yaml-stream.js';
import { relevantKinds } from '../../src/engine/relevant-kinds.js';
import { BUILTIN_RULES, CHANGE_RULES } from '../../src/registry.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { seededRandom as random } from '../helpers/random.js';

const KINDS = relevantKinds(BUILTIN_RULES, CHANGE_RULES)!;

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...yamlFiles(full));
    else if (/\.(ya?ml|json)$/.test(entry.name) && statSync(full).size < 4 * 1024 * 1024) out.push(full);
  }
  return out;
}

/** What a document is: its range and value. */
function describe(doc: ReturnType<typeof parseSpan>['documents'][number]): string {
  let value: unknown = null;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (error) {
    value = `toJS: ${(error as Error).message}`;
  }
  return JSON.stringify({ range: doc.range, value });
}

/**
 * For valid YAML, splitting at `---` lines and parsing each document alone gives exactly what parsing the stream
 * as one gives. (Broken YAML may differ on purpose: an unclosed quote ends at the next `---`, as in kubectl.)
 */
function assertSplitMatches(text: string, label: string): boolean {
  const whole = parseSpan(text);
  if (whole.documents.some((d) => d.errors.length > 0) || whole.streamErrors.length > 0) return false;
  const split = parseStream(text);
  assert.is(split.documents.length, whole.documents.length, `${label}: document count`);
  split.documents.forEach((doc, i) => assert.is(describe(doc), describe(whole.documents[i]), `${label}: document ${i}`));
  return true;
}

const VALID: Record<string, string> = {
  'block scalar before a marker': 'a: |\n  x\n---\nb: 1\n',
  'comments before the first marker': '# c\n---\na: 1\n',
  'empty document at the end': 'a: 1\n---\n',
  'comment-only document at the end': 'a: 1\n---\n# only a comment\n',
  'blank lines first': '\n\n---\na: 1\n',
  'marker followed by a tab': 'a: 1\n---\t\nb: 2\n',
  'CRLF line ends': 'a: 1\r\n---\r\nb: 2\r\n',
  'content on the marker line': '--- {a: 1}\n--- !!map\nb: 2\n',
  'nothing': '',
  'only a comment': '# hi\n',
  'three markers': '---\n---\n---\n',
};

test('splitting at --- lines gives the parser\'s documents (tricky valid cases)', () => {
  for (const [label, text] of Object.entries(VALID)) assert.ok(assertSplitMatches(text, label), `${label} should be valid YAML`);
});

test('splitting at --- lines gives the parser\'s documents (every valid example and fixture file)', () => {
  const files = [...yamlFiles(path.join(PROJECT_ROOT, 'examples')), ...yamlFiles(path.join(PROJECT_ROOT, 'test', 'fixtures')), ...yamlFiles(path.join(PROJECT_ROOT, 'test', 'hostile', 'fixtures'))];
  let compared = 0;
  for (const file of files) if (assertSplitMatches(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), path.relative(PROJECT_ROOT, file))) compared++;
  assert.ok(compared > 40, `compared ${compared} files`);
});

test('documents start where the separator expression says (seeded texts of separators, near misses and line breaks)', () => {
  const SEPARATOR = /(?<![^\n\r])---(?=[ \t\r\n\u0085\u2028\u2029]|(?![\s\S]))/g;
  const CONTENT = /^[ \t]*[^#\s]/m;
  const byExpression = (text: string) => {
    const spans: { start: number; end: number }[] = [];
    let start = 0;
    let first = true;
    for (const match of text.matchAll(SEPARATOR)) {
      if (!first || CONTENT.test(text.slice(start, match.index))) spans.push({ start, end: match.index! });
      first = false;
      start = match.index!;
    }
    if (!first || CONTENT.test(text.slice(start))) spans.push({ start, end: text.length });
    return spans;
  };
  const PIECES = ['---', '----', '--- ', '---\t', '---\r', '---\u0085', '---\u2028', '---x', ' ---', 'a: 1', '# c', '', 'a: ---', '-- -', '---#'];
  const BREAKS = ['\n', '\r\n', '\r', '\u2028', '\u0085', ''];
  const next = random(3);
  for (let i = 0; i < 5000; i++) {
    let text = '';
    for (let k = Math.floor(next() * 7); k >= 0; k--) text += PIECES[Math.floor(next() * PIECES.length)] + BREAKS[Math.floor(next() * BREAKS.length)];
    assert.equal(splitDocuments(text)?.spans, byExpression(text), JSON.stringify(text));
  }
});

test('a broken document ends at the next --- line, as in kubectl, and the documents after it still parse', () => {
  const text = 'a: "unclosed\n---\nkind: PersistentVolumeClaim\n---\nb: [1,\n---\nc: 3\n';
  const stream = parseStream(text);
  assert.is(stream.documents.length, 4);
  assert.equal(stream.documents.map((d) => d.errors.length > 0), [true, false, true, false]);
  assert.equal(stream.documents[1].toJS(), { kind: 'PersistentVolumeClaim' });
  assert.equal(stream.documents[3].toJS(), { c: 3 });
  assert.is(parseStream('a: 1\n---x\nb: 2\n').documents.length, 1, '---x is not a marker');
});

test('skipped documents keep their index', () => {
  const text = 'kind: A\n---\nkind: B\n---\nkind: C\n';
  const stream = parseStream(text, undefined, (span) => text.slice(span.start, span.end).includes('B'));
  assert.is(stream.documents.length, 3);
  assert.is(stream.documents[1], SKIPPED_DOCUMENT);
  assert.equal(stream.documents[2].toJS(), { kind: 'C' });
});

test('directives and ... markers are left to the parser', () => {
  assert.is(splitDocuments('%YAML 1.2\n---\na: 1\n'), undefined);
  assert.is(splitDocuments('a: 1\n...\nb: 2\n'), undefined);
  assert.ok(splitDocuments('a: "..."\n'));
});

test('the kind is read only from a plain top-level kind: line', () => {
  const kind = (text: string) => scanKind(text, { start: 0, end: text.length });
  assert.is(kind('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n'), 'ConfigMap');
  assert.is(kind('---\napiVersion: v1\nkind: "Secret" # quoted\n'), 'Secret');
  assert.is(kind('apiVersion: v1\nkind: ConfigMap\r\ndata: {}\r\n'), 'ConfigMap');
  assert.is(kind('apiVersion: v1\nmetadata: {name: a}\n'), '', 'a block map without kind is not an object');
  // Anything the text cannot settle is parsed.
  assert.is(kind('{"apiVersion": "v1", "kind": "ConfigMap"}'), undefined, 'flow style');
  assert.is(kind('- a\n- b\n'), undefined, 'a list');
  assert.is(kind('apiVersion: v1\nkind: ConfigMap\nkind: PersistentVolumeClaim\n'), undefined, 'two kind lines');
  assert.is(kind('apiVersion: v1\n"kind": PersistentVolumeClaim\n'), undefined, 'quoted key');
  assert.is(kind('apiVersion: v1\n? kind\n: PersistentVolumeClaim\n'), undefined, 'explicit key');
  assert.is(kind('base: &b {kind: PersistentVolumeClaim}\n<<: *b\napiVersion: v1\n'), undefined, 'merge key');
  assert.is(kind('apiVersion: v1\nkind: &k ConfigMap\n'), undefined, 'anchored value');
  assert.is(kind('apiVersion: v1\nkind: !!str ConfigMap\n'), undefined, 'tagged value');
  assert.is(kind('--- !!map\napiVersion: v1\nkind: ConfigMap\n'), undefined, 'content on the marker line');
  assert.is(kind('apiVersion: v1\nkind:\n  ConfigMap\n'), undefined, 'value on the next line');
  assert.is(kind('  apiVersion: v1\n  kind: ConfigMap\n'), undefined, 'indented map');
});

/** scanKind as it was written with one regular expression per question: the line pass must answer the same. */
function scanKindByExpressions(body: string): string | undefined {
  if (/[\u0085\u2028\u2029\uFEFF]/.test(body)) return undefined;
  if (body.startsWith('---')) {
    const lineEnd = body.indexOf('\n');
    const rest = lineEnd === -1 ? body.slice(3) : body.slice(3, lineEnd);
    if (!/^[ \t]*(?:#.*)?\r?$/.test(rest)) return undefined;
    body = lineEnd === -1 ? '' : body.slice(lineEnd + 1);
  }
  const firstContent = /^[ \t]*[^#\s\r].*$/m.exec(body);
  if (!firstContent || !/^[A-Za-z_][\w./-]*[ \t]*:(?:[ \t\r]|$)/.test(firstContent[0])) return undefined;
  if (body.includes('<<') || /^["'?&!*{[|>@`%]/m.test(body)) return undefined;
  let kind: string | undefined;
  let lines = 0;
  for (const match of body.matchAll(/^kind[ \t]*:(.*)$/gm)) {
    if (++lines > 1) return undefined;
    kind = /^[ \t]*(["']?)([A-Za-z][A-Za-z0-9]*)\1[ \t]*(?:#.*)?\r?$/.exec(match[1])?.[2];
    if (kind === undefined) return undefined;
  }
  return kind ?? '';
}

test('the kind scan reads lines as its regular expressions did (5,000 seeded documents)', () => {
  const next = random(7);
  const LINES = [
    'apiVersion: v1', 'kind: ConfigMap', 'kind: "Secret" # c', "kind: 'PersistentVolumeClaim'", 'kind:  StatefulSet  ', 'kind:', 'kind: a b',
    'kind :Pod', 'kind\t: Pod', 'kindness: 1', 'kind: List', 'metadata:', '  name: a', '  kind: Nested', '# comment', '  # indented comment', '',
    '   ', '\t', '\u00a0x: 1', '\u00a0', 'x\u00a0: 1', '- item', '"quoted": 1', "'q': 1", '? key', '&a x: 1', '!t x: 1', '*a', '{a: 1}', '[a]',
    '|', '>', '@x', '`x`', '%x', '<<: *b', 'a: <<', 'data:', '  key: |', '    kind: InBlock', '_under: 1', 'a.b/c-d: 1', '1st: x', 'kind: Pod\u2028',
    'x: \ufeff', 'kind: Pod # c', 'a:b', 'a:', 'a :', 'spec: {kind: X}',
  ];
  let compared = 0;
  for (let i = 0; i < 5000; i++) {
    const lines: string[] = [];
    if (next() < 0.3) lines.push(['---', '--- # c', '--- x', '---  '][Math.floor(next() * 4)]);
    if (next() < 0.6) lines.push('apiVersion: v1');
    const n = 1 + Math.floor(next() * 8);
    // Mostly ordinary lines, so that many documents get past the first refusal.
    for (let k = 0; k < n; k++) lines.push(next() < 0.6 ? LINES[Math.floor(next() * 17)] : LINES[Math.floor(next() * LINES.length)]);
    const text = lines.join('\n') + (next() < 0.8 ? '\n' : '');
    const expected = scanKindByExpressions(text);
    assert.is(scanKind(text, { start: 0, end: text.length }), expected, JSON.stringify(text));
    if (expected !== undefined) compared++;
  }
  assert.ok(compared > 500, `${compared} documents with a kind or none`);
});

test('documents are skipped only when their kind is visible and not read, lists and markers kept', () => {
  const skip = (text: string) => canSkip(text, { start: 0, end: text.length }, KINDS);
  assert.ok(skip('apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n'));
  assert.ok(skip('apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n'));
  assert.ok(skip('replicaCount: 1\nimage: {tag: x}\n'), 'values.yaml-like map');
  assert.not.ok(skip('apiVersion: v1\nkind: PersistentVolumeClaim\n'));
  assert.not.ok(skip('apiVersion: apps/v1\nkind: StatefulSet\n'));
  assert.not.ok(skip('apiVersion: v1\nkind: List\nitems: []\n'));
  assert.not.ok(skip('apiVersion: v1\nkind: ConfigMapList\nitems: []\n'));
  assert.not.ok(skip('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    pvlint.dev/ignore: all\n'), 'suppression annotation');
  assert.not.ok(skip('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    argocd.argoproj.io/sync-wave: "1"\n'), 'Argo CD marker');
  assert.not.ok(skip('apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nspec: {prune: true}\n'), 'Flux Kustomization');
  assert.not.ok(skip('apiVersion: argoproj.io/v1alpha1\nkind: Application\n'), 'Argo CD Application');
});

test('the relevant kinds cover the model, the shape check and every rule; a rule without kinds means all', () => {
  for (const kind of ['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver', 'Namespace', 'StatefulSet', 'Deployment', 'CronJob', 'VolumeSnapshot', 'Service', 'ConfigMap']) {
    assert.ok(KINDS.has(kind), kind);
  }
  for (const rule of BUILTIN_RULES) for (const kind of rule.meta.kinds) assert.ok(KINDS.has(kind), `${rule.id}: ${kind}`);
  const anything = { ...BUILTIN_RULES[0], id: 'custom', meta: { ...BUILTIN_RULES[0].meta, kinds: [] } };
  assert.is(relevantKinds([...BUILTIN_RULES, anything], CHANGE_RULES), undefined);
});

test('parseResources with kinds: same resources and positions for read kinds, same document count, errors of skipped documents not reported', () => {
  const text = [
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: big}\nrules: [unclosed}\n',
    'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n',
    '# comment only\n',
    'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: broken\n',
    'apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: v1, kind: PersistentVolume, metadata: {name: pv}}\n  - {apiVersion: v1, kind: Secret, metadata: {name: s}}\n',
  ].join('---\n');
  const file = makeSourceFile('/x/a.yaml', 'a.yaml', text);
  const whole = parseResources(file);
  const scanned = parseResources(file, undefined, { parse: KINDS });
  assert.is(scanned.documentCount, whole.documentCount);
  assert.is(scanned.documentCount, 5);
  assert.is(scanned.skipped, 1);
  const view = (r: (typeof whole.resources)[number]) => `${r.id}@${r.docIndex}:${r.node.range?.join(',')}`;
  assert.equal(scanned.resources.map(view), whole.resources.map(view));
  // The Role's syntax error is gone; the claim's stays, at the same place with the same text.
  assert.is(whole.diagnostics.length, 2);
  assert.equal(scanned.diagnostics, whole.diagnostics.slice(1));
  assert.match(scanned.diagnostics[0].message, /document 4/);
});

test('Helm streams are parsed whole', () => {
  const text = '---\n# Source: chart/templates/sa.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: a}\n';
  const parsed = parseResources(makeSourceFile('/x/r.yaml', 'r.yaml', text), undefined, { parse: KINDS });
  assert.is(parsed.skipped, 0);
  assert.is(parsed.documents.length, 1);
  assert.is(parsed.resources.length, 1);
});


test('a deferred kind is parsed on the first ofKind, once, and then counts among the resources', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: conf}\nimmutable: true\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa}\n';
  const file = makeSourceFile('/x/c.yaml', 'c.yaml', text);
  const parsed = parseResources(file, undefined, { parse: new Set(['PersistentVolumeClaim']), defer: new Set(['ConfigMap']) });
  assert.is(parsed.resources.length, 0);
  assert.is(parsed.skipped, 2);
  assert.equal(parsed.deferred.map((d) => [d.kind, d.docIndex]), [['ConfigMap', 0]]);
  let loads = 0;
  const model = new StorageModel([], { scope: 's', deferred: new Map([['ConfigMap', () => (loads++, parseDeferred(parsed.deferred))]]) });
  assert.ok(model.hasKind('ConfigMap'));
  assert.is(loads, 0, 'hasKind does not parse');
  assert.is(model.resources.length, 0);
  const maps = model.ofKind('ConfigMap');
  assert.is(maps.length, 1);
  assert.is(maps[0].object.immutable, true);
  assert.is(maps[0].node.range?.[0], 0);
  model.ofKind('ConfigMap');
  assert.is(loads, 1);
  assert.is(model.resources.length, 1);
});

test('deferred documents give the same resources and positions with the fast reader as with yaml alone', () => {
  const text = [
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: nfs\nspec:\n  clusterIP: None\n  ports:\n    - port: 2049\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: anchored}\nspec: &s\n  ports: [{port: 111}]\n',
    'apiVersion: v1\nkind: ServiceList\nitems:\n  - apiVersion: v1\n    kind: Service\n    metadata: {name: in-list}\n',
    'apiVersion: v1\nkind: Service\nmetadata: {name: broken\n',
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: dup\n  name: again\n',
  ].join('---\n');
  const file = makeSourceFile('/x/s.yaml', 's.yaml', text);
  const parsed = parseResources(file, undefined, { parse: new Set(['PersistentVolumeClaim']), defer: new Set(['Service']) });
  // The list and the broken document are parsed (a list's kind is not skipped, a broken one's kind line is not read).
  assert.ok(parsed.deferred.length >= 3);
  const view = () => parseDeferred(parsed.deferred).map((r) => ({ id: r.id, docIndex: r.docIndex, object: r.object, range: r.node.range, metadata: (r.node as any).get?.('metadata', true)?.range }));
  const fast = view();
  setFastReader(false);
  let slow: ReturnType<typeof view>;
  try {
    slow = view();
  } finally {
    setFastReader(true);
  }
  assert.equal(fast, slow!);
  assert.ok(fast.some((r) => r.id === 'Service//nfs'));
});

test('lint() finds the same with and without the kind pre-scan (examples and hostile fixtures)', async () => {
  for (const dir of ['examples', 'test/hostile/fixtures', 'test/fixtures']) {
    const options = { paths: [dir], cwd: PROJECT_ROOT, skipMissingRenderers: true };
    const [scanned, full] = await Promise.all([lint(options), lint({ ...options, parseAllDocuments: true })]);
    const view = (r: Awaited<ReturnType<typeof lint>>) => JSON.stringify(r.findings.filter((f) => f.ruleId !== 'pvlint/parse' && f.ruleId !== 'pvlint/limit'));
    assert.ok(scanned.findings.length > 0, dir);
    assert.is(view(scanned), view(full), dir);
    assert.is(scanned.stats.documents, full.stats.documents, `${dir}: documents`);
    assert.ok(scanned.stats.resources <= full.stats.resources);
  }
});

test('letting parsed documents go (lazy positions) changes no finding and no position', async () => {
  for (const dir of ['examples', 'test/hostile/fixtures', 'test/fixtures']) {
    const options = { paths: [dir], cwd: PROJECT_ROOT, skipMissingRenderers: true };
    const [eager, lazy] = await Promise.all([lint(options), lint({ ...options, lazyPositionsAfterBytes: 0 })]);
    assert.ok(eager.findings.length > 0, dir);
    assert.is(JSON.stringify(lazy.findings), JSON.stringify(eager.findings), dir);
    assert.is(JSON.stringify(lazy.suppressed), JSON.stringify(eager.suppressed), dir);
  }
  const text = 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: PersistentVolumeClaim\n    metadata: {name: a}\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\n';
  const file = makeSourceFile('/x/l.yaml', 'l.yaml', text);
  const eager = parseResources(file, undefined, { parse: KINDS });
  const lazy = parseResources(file, undefined, { parse: KINDS }, true);
  assert.equal(lazy.resources.map((r) => r.node.range), eager.resources.map((r) => r.node.range));
});

test('a subPath into an immutable ConfigMap still reads the (deferred) ConfigMap', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const os = await import('node:os');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-defer-'));
  const deployment = (configMap: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-${configMap}}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - name: web\n          image: nginx\n          volumeMounts: [{name: conf, mountPath: /etc/app/app.conf, subPath: app.conf}]\n      volumes: [{name: conf, configMap: {name: ${configMap}}}]\n`;
  writeFileSync(path.join(dir, 'app.yaml'), [deployment('frozen'), deployment('live'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen}\nimmutable: true\ndata: {app.conf: x}\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: live}\ndata: {app.conf: x}\n'].join('---\n'));
  const result = await lint({ paths: [dir], cwd: dir, root: dir });
  const noUpdates = result.findings.filter((f) => f.ruleId === 'subpath-pitfalls');
  assert.is(noUpdates.length, 1, JSON.stringify(result.findings.map((f) => f.message)));
  assert.match(noUpdates[0].message, /web-live/);
});

test.run();
