// Broken and hostile files: each is a diagnostic at its file (and line, when there is one), never a crash, and the
// findings of a good file linted beside it are exactly those of linting it alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { at, caseDir, findingsIn, fixtureText, lintBeside, only, writeIn } from './helpers.js';

const test = suite('hostile inputs');

test('a half-written file: the complete document is linted, the cut one is pvlint/parse at its line', async () => {
  const dir = caseDir(['half-written.yaml']);
  const result = await lintBeside(dir, ['half-written.yaml']);
  const parse = only(result, 'half-written.yaml', 'pvlint/parse');
  assert.is(at(parse), 'half-written.yaml:15');
  assert.match(parse.message, /document 2/);
  // Document 1 still produced resources: the run saw more than the cut document.
  assert.ok(result.stats.resources >= 4, `resources: ${result.stats.resources}`);
});

test('a file truncated at every byte never crashes and always names itself when it does not parse', async () => {
  const dir = caseDir();
  const text = fixtureText('good.yaml');
  for (let cut = 0; cut < text.length; cut += 37) {
    writeIn(dir, 'cut.yaml', text.slice(0, cut));
    const result = await lintBeside(dir, ['cut.yaml']);
    for (const f of findingsIn(result, 'cut.yaml')) {
      assert.ok(f.location.region.startLine >= 1 && f.location.region.startLine <= text.slice(0, cut).split('\n').length + 1, `${cut}: line ${f.location.region.startLine}`);
    }
  }
});

test('Go template markers outside a chart: counted as a template, not linted, no pvlint/parse', async () => {
  const dir = caseDir(['go-template.yaml']);
  const result = await lintBeside(dir, ['go-template.yaml']);
  assert.equal(result.findings.filter((f) => f.location.file.endsWith('go-template.yaml')).map((f) => f.ruleId), []);
  assert.ok(result.templateFiles?.some((f) => f.endsWith('go-template.yaml')), 'listed as a template');
  assert.ok((result.stats.templates ?? 0) >= 1);
});

test('tabs as indentation: pvlint/parse at the tab', async () => {
  const dir = caseDir(['tabs.yaml']);
  const result = await lintBeside(dir, ['tabs.yaml']);
  const parse = only(result, 'tabs.yaml', 'pvlint/parse');
  assert.is(at(parse), 'tabs.yaml:4');
  assert.match(parse.message, /Tabs/);
});

test('CRLF line ends and a byte-order mark change nothing: the same findings at the same lines and columns', async () => {
  const dir = caseDir(['crlf.yaml', 'bom.yaml']);
  const plain = await lintBeside(dir, []);
  const shape = (file: string, result = plain) =>
    findingsIn(result, file).map((f) => `${f.ruleId}@${f.location.region.startLine}:${f.location.region.startColumn}-${f.location.region.endLine}:${f.location.region.endColumn}`);
  for (const name of ['crlf.yaml', 'bom.yaml']) {
    const result = await lintBeside(dir, [name]);
    assert.equal(shape(name, result), shape('good.yaml'), name);
  }
});

test('duplicate keys: pvlint/parse at the second key (kubectl rejects them too)', async () => {
  const dir = caseDir(['duplicate-keys.yaml']);
  const result = await lintBeside(dir, ['duplicate-keys.yaml']);
  const parse = only(result, 'duplicate-keys.yaml', 'pvlint/parse');
  assert.is(at(parse), 'duplicate-keys.yaml:11');
  assert.match(parse.message, /storageClassName/);
});

test('duplicate keys in a 20,000-key map are found in linear time', async () => {
  const dir = caseDir();
  let text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: wide}\ndata:\n';
  for (let i = 0; i < 20_000; i++) text += `  key${i}: v\n`;
  text += '  key7: again\n';
  writeIn(dir, 'wide.yaml', text);
  const start = Date.now();
  const result = await lintBeside(dir, ['wide.yaml']);
  assert.is(at(only(result, 'wide.yaml', 'pvlint/parse')), 'wide.yaml:20005');
  assert.ok(Date.now() - start < 30_000, `took ${Date.now() - start} ms`);
});

test('anchors and merge keys are resolved as kubectl does: the merged volumes are linted', async () => {
  const dir = caseDir(['anchors-merge.yaml']);
  const result = await lintBeside(dir, ['anchors-merge.yaml']);
  const missing = only(result, 'anchors-merge.yaml', 'pod-missing-pvc');
  assert.match(missing.message, /merged-claim/);
  assert.equal(findingsIn(result, 'anchors-merge.yaml').filter((f) => f.ruleId.startsWith('pvlint/')), []);
});

test('a billion-laughs alias bomb is refused at once with pvlint/limit', async () => {
  const dir = caseDir(['billion-laughs.yaml']);
  const start = Date.now();
  const result = await lintBeside(dir, ['billion-laughs.yaml']);
  const limit = only(result, 'billion-laughs.yaml', 'pvlint/limit');
  assert.is(at(limit), 'billion-laughs.yaml:1');
  assert.match(limit.message, /maxAliasCount/);
  assert.ok(Date.now() - start < 10_000, `took ${Date.now() - start} ms`);
});

test('thousands of anchors and aliases (quadratic in the YAML library) are refused before composing', async () => {
  const dir = caseDir();
  let text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many}\ndata:\n  a:\n';
  for (let i = 0; i < 20_000; i++) text += `    - &a${i} x\n`;
  text += '  b:\n';
  for (let i = 0; i < 20_000; i++) text += `    - *a${i}\n`;
  writeIn(dir, 'aliases.yaml', text);
  const start = Date.now();
  const result = await lintBeside(dir, ['aliases.yaml']);
  assert.match(only(result, 'aliases.yaml', 'pvlint/limit').message, /20000 anchors and 20000 aliases/);
  assert.ok(Date.now() - start < 30_000, `took ${Date.now() - start} ms`);
});

test('one large anchor repeated by many aliases is refused (expansion bound), not walked a thousand times', async () => {
  const dir = caseDir();
  let text = 'apiVersion: v1\nkind: List\nx-big: &big\n';
  for (let i = 0; i < 5_000; i++) text += `  k${i}: v\n`;
  text += 'items:\n';
  for (let i = 0; i < 900; i++) text += '  - *big\n';
  writeIn(dir, 'expand.yaml', text);
  const result = await lintBeside(dir, ['expand.yaml']);
  assert.match(only(result, 'expand.yaml', 'pvlint/limit').message, /expand/);
});

test('a binary file named .yaml is pvlint/read, not a parse error', async () => {
  const dir = caseDir(['binary.yaml']);
  const result = await lintBeside(dir, ['binary.yaml']);
  assert.match(only(result, 'binary.yaml', 'pvlint/read').message, /binary/);
});

test('bytes that are not UTF-8: pvlint/read at the line and column of the first bad byte', async () => {
  const dir = caseDir(['non-utf8.yaml']);
  const result = await lintBeside(dir, ['non-utf8.yaml']);
  const read = only(result, 'non-utf8.yaml', 'pvlint/read');
  assert.is(at(read), 'non-utf8.yaml:4');
  assert.is(read.location.region.startColumn, 12);
  assert.match(read.message, /not valid UTF-8 \(0xe9/);
});

test('UTF-16 files are named as such', async () => {
  const dir = caseDir();
  writeIn(dir, 'utf16.yaml', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('apiVersion: v1\n', 'utf16le')]));
  const result = await lintBeside(dir, ['utf16.yaml']);
  assert.match(only(result, 'utf16.yaml', 'pvlint/read').message, /UTF-16/);
});

test('deep nesting past maxDepth is pvlint/limit at the document, without a stack overflow', async () => {
  const dir = caseDir();
  for (const [name, body] of [
    ['deep-flow.yaml', '['.repeat(50_000) + ']'.repeat(50_000)],
    ['deep-map.yaml', '{a: '.repeat(20_000) + '1' + '}'.repeat(20_000)],
    // A block map shows its kind to the pre-scan; a kind no rule reads would be skipped unparsed.
    ['deep-block.yaml', 'kind: PersistentVolumeClaim\n' + Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}a:`).join('\n') + ' 1'],
  ] as const) {
    writeIn(dir, name, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\n---\n${body}\n`);
    const result = await lintBeside(dir, [name]);
    const limit = only(result, name, 'pvlint/limit');
    assert.is(at(limit), `${name}:5`);
    assert.match(limit.message, /document 2: .*100 levels deep \(maxDepth\)/);
  }
});

test('nesting within maxDepth parses, and maxDepth is configurable', async () => {
  const dir = caseDir();
  writeIn(dir, 'nested.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nested}\ndata: {x: "${'['.repeat(10)}"}\nextra: ${'['.repeat(90)}${']'.repeat(90)}\n`);
  const fine = await lintBeside(dir, ['nested.yaml']);
  assert.equal(findingsIn(fine, 'nested.yaml'), []);
  const strict = await lintBeside(dir, ['nested.yaml'], { limits: { maxDepth: 20 } });
  assert.match(only(strict, 'nested.yaml', 'pvlint/limit').message, /20 levels/);
});

test('numbers where strings belong, strings where lists belong: pvlint/shape at the field, and no misleading rule finding', async () => {
  const dir = caseDir(['wrong-types.yaml']);
  const result = await lintBeside(dir, ['wrong-types.yaml']);
  const shapes = findingsIn(result, 'wrong-types.yaml').filter((f) => f.ruleId === 'pvlint/shape');
  assert.equal(
    shapes.map((f) => `${f.severity}@${f.location.region.startLine}:${f.data.field}`),
    ['error@7:spec.accessModes', 'note@10:spec.resources.requests.storage', 'error@18:spec.replicas', 'note@46:spec.resources.requests.storage'],
  );
  assert.match(shapes[0].message, /the string "ReadWriteOnce", not a list/);
  assert.match(shapes[2].message, /the string "3", not an integer.*write 3 without quotes/);
  assert.match(shapes[1].message, /10 bytes/);
  // `readOnly: yes` is a YAML 1.1 boolean, as kubectl reads it: no finding.
  assert.not.ok(shapes.some((f) => String(f.data.field).includes('readOnly')));
  // The PVC whose accessModes is a string is rejected by the API: claim-spec-invalid does not also say
  // "no access modes", and nothing else is reported about it or the Deployment.
  const others = findingsIn(result, 'wrong-types.yaml').filter((f) => f.ruleId !== 'pvlint/shape');
  assert.not.ok(others.some((f) => f.location.region.startLine < 38), others.map((f) => `${f.ruleId}@${f.location.region.startLine}`).join(', '));
});

test('a map with a toString key where a string belongs never crashes a rule or the parser', async () => {
  const dir = caseDir();
  writeIn(
    dir,
    'tostring.yaml',
    `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {toString: 1, valueOf: 2}
  namespace: {toString: 1}
  annotations: {volume.beta.kubernetes.io/storage-class: {toString: 1}}
spec:
  accessModes: [{toString: 1}]
  storageClassName: {toString: 1}
  volumeName: {toString: 1}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec:
  claimRef: {name: {toString: 1}, namespace: {valueOf: 1}}
  csi: {driver: {toString: 1}, volumeHandle: {toString: 1}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h}
spec:
  scaleTargetRef: {kind: {toString: 1}, name: {toString: 1}}
  maxReplicas: 3
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers: [{name: {toString: 1}, volumeMounts: [{name: {toString: 1}, mountPath: {toString: 1}, subPath: {toString: 1}}]}]
      volumes: [{name: v, persistentVolumeClaim: {claimName: {toString: 1}}}]
`,
  );
  const result = await lintBeside(dir, ['tostring.yaml']);
  assert.ok(findingsIn(result, 'tostring.yaml').filter((f) => f.ruleId === 'pvlint/shape').length >= 8);
  assert.not.ok(result.fatal);
});

test('kind: List of lists: nested items are linted at their own lines', async () => {
  const dir = caseDir(['list-of-lists.yaml']);
  const result = await lintBeside(dir, ['list-of-lists.yaml']);
  const missing = only(result, 'list-of-lists.yaml', 'pod-missing-pvc');
  assert.is(at(missing), 'list-of-lists.yaml:30');
  assert.ok(result.stats.resources >= 5);
});

test('a 50 MB generated file is refused by maxFileBytes at once, without reading it', async () => {
  const dir = caseDir();
  const doc = fixtureText('good.yaml');
  const chunk = `${doc}---\n`.repeat(Math.ceil(1_048_576 / (doc.length + 4)));
  writeIn(dir, 'huge.yaml', chunk.repeat(50));
  const start = Date.now();
  const result = await lintBeside(dir, ['huge.yaml']);
  const limit = only(result, 'huge.yaml', 'pvlint/limit');
  assert.match(limit.message, /file is 5\d\.\d MiB, larger than the 16 MiB limit \(maxFileBytes\)/);
  assert.ok(Date.now() - start < 10_000, `took ${Date.now() - start} ms`);
});

test('a document over maxDocumentBytes is refused; the other documents of the file are linted', async () => {
  const dir = caseDir();
  let big = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n';
  for (let i = 0; big.length < 600_000; i++) big += `  key${i}: "${'x'.repeat(40)}"\n`;
  writeIn(dir, 'big-doc.yaml', `${big}---\n${fixtureText('wrong-types.yaml').split('---\n')[0]}`);
  const result = await lintBeside(dir, ['big-doc.yaml'], { limits: { maxDocumentBytes: 512 * 1024 } });
  const limit = only(result, 'big-doc.yaml', 'pvlint/limit');
  assert.is(at(limit), 'big-doc.yaml:1');
  assert.match(limit.message, /document 1: document is 5\d\d\.\d KiB, larger than the 512 KiB limit \(maxDocumentBytes\)/);
  // The second document (a PVC with a string accessModes) was still read.
  assert.ok(findingsIn(result, 'big-doc.yaml').some((f) => f.ruleId === 'pvlint/shape'));
});

test('maxTotalBytes: files past the budget are not read, each one named', async () => {
  const dir = caseDir();
  const text = fixtureText('wrong-types.yaml');
  for (const name of ['a.yaml', 'b.yaml', 'c.yaml']) writeIn(dir, `more/${name}`, text);
  const size = Buffer.byteLength(fixtureText('good.yaml')) + 2 * Buffer.byteLength(text);
  const result = await lintBeside(dir, ['more'], { limits: { maxTotalBytes: size } });
  assert.match(only(result, 'more/c.yaml', 'pvlint/limit').message, /maxTotalBytes/);
  assert.ok(findingsIn(result, 'more/a.yaml').length > 0 && findingsIn(result, 'more/b.yaml').length > 0);
});

test('maxFiles: a directory with too many manifests is refused as a whole; other arguments are linted', async () => {
  const dir = caseDir();
  for (let i = 0; i < 30; i++) writeIn(dir, `many/f${i}.yaml`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
  const result = await lintBeside(dir, ['many'], { limits: { maxFiles: 10 } });
  const limit = only(result, 'many', 'pvlint/limit');
  assert.match(limit.message, /more than 10 manifest files \(maxFiles\)/);
  assert.equal(result.findings.filter((f) => f.location.file.startsWith('many/')), []);
});

test.run();
