// Memory bounded by design: the limits that keep one document, one file and one run's memory bounded fire while the
// input is parsed, and many findings never overflow the stack on their way to a report.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EMPTY_DOCUMENT, parseStream } from '../../src/load/yaml-stream.js';
import { DEFAULT_LIMITS, MEMORY_CEILING } from '../../src/load/limits.js';
import { spawnSync } from 'node:child_process';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';
import { caseDir, lintBeside, lintIn, only, writeIn } from './helpers.js';
import { ParsePool } from '../../src/load/parse-pool.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { hugeFlowSequence, invalidClaims, manyEmptyDocuments } from './generators.js';

const test = suite('bounded memory');

test('a flow sequence past maxDocumentNodes is refused while it is parsed, at the document', async () => {
  const dir = caseDir();
  writeIn(dir, 'huge.yaml', hugeFlowSequence(5_000));
  const result = await lintBeside(dir, ['huge.yaml'], { limits: { maxDocumentNodes: 1_000 } });
  const limit = only(result, 'huge.yaml', 'pvlint/limit');
  assert.match(limit.message, /more than 1,000 values \(maxDocumentNodes\)/);
  assert.is(limit.location.region.startLine, 1);
});

test('the default node budget refuses a list of 300,000 one-character items before building it', () => {
  const text = hugeFlowSequence(300_000);
  const before = process.memoryUsage().heapUsed;
  const stream = parseStream(text);
  const grown = process.memoryUsage().heapUsed - before;
  assert.is(stream.limited.size, 1);
  assert.match([...stream.limited.values()][0].message, /maxDocumentNodes/);
  // Building it whole takes ~150 MB of syntax tree; stopping at the budget, a fraction of it.
  assert.ok(grown < 120 * 1024 * 1024, `heap grew by ${Math.round(grown / 1048576)} MB`);
});

test('many empty documents: light placeholders, and the rest of the file past maxFileDocuments is refused', async () => {
  const dir = caseDir();
  writeIn(dir, 'dashes.yaml', manyEmptyDocuments(3_000) + 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: late\n');
  const result = await lintBeside(dir, ['dashes.yaml'], { limits: { maxFileDocuments: 1_000 } });
  const limit = only(result, 'dashes.yaml', 'pvlint/limit');
  assert.match(limit.message, /more than 1,000 YAML documents \(maxFileDocuments\)/);
  assert.is(limit.location.region.startLine, 1_001);
  const stream = parseStream(manyEmptyDocuments(50_000));
  assert.is(stream.documents.length, 50_000);
  assert.ok(stream.documents.every((doc) => Object.getPrototypeOf(doc) === EMPTY_DOCUMENT), 'empty documents are light objects over one shared placeholder');
});

test('14,000 invalid claims in one file: every format reports them (no stack overflow)', () => {
  const dir = caseDir();
  writeIn(dir, 'claims.yaml', invalidClaims(14_000));
  for (const format of ['text', 'json', 'github']) {
    // The reports are megabytes: more than spawnSync's default buffer.
    const run = spawnSync(process.execPath, [BIN, '--format', format, 'claims.yaml'], { cwd: dir, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
    assert.is(run.stderr.includes('internal error'), false, `${format}: ${run.stderr.slice(0, 300)}`);
    assert.is(run.status, 1, `${format}: exit ${run.status} ${run.error ?? ''}`);
    assert.ok(run.stdout.split('claim-spec-invalid').length > 14_000, `${format}: every finding is reported`);
  }
});

test('the memory ceiling: the README states the numbers of limits.ts, and a run stays under them', () => {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const stated = /never needs more than (\d+)× its input, at\s+most\s+([\d.]+) GiB\*\* \(plus Node's own ~(\d+) MiB/.exec(readme);
  assert.ok(stated, 'the README states the ceiling');
  assert.is(Number(stated![1]), MEMORY_CEILING.perInputByte);
  assert.is(Number(stated![2]) * 1024 ** 3, MEMORY_CEILING.maxBytes);
  assert.is(Number(stated![3]) * 1024 ** 2, MEMORY_CEILING.baseBytes);
  assert.match(readme, new RegExp(`\\| \`maxTotalNodes\` \\| ${DEFAULT_LIMITS.maxTotalNodes.toLocaleString('en-US')} \\|`));
  // A run on 1 MB of small claims that all have a finding (each needs its positions): measured in the child itself.
  const dir = caseDir();
  const text = invalidClaims(6_000);
  writeIn(dir, 'claims.yaml', text);
  const probe = "process.on('exit', () => process.stderr.write(`maxrss=${process.resourceUsage().maxRSS * 1024}\\n`))";
  const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, BIN, '--format', 'json', 'claims.yaml'], { cwd: dir, encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  const rss = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
  assert.ok(rss > 0, run.stderr);
  const allowed = MEMORY_CEILING.baseBytes + MEMORY_CEILING.perInputByte * Buffer.byteLength(text);
  assert.ok(rss <= allowed, `peak ${Math.round(rss / 1048576)} MB > ${Math.round(allowed / 1048576)} MB allowed`);
});

test('maxTotalNodes: parsing stops inside the file that reaches it, the rest of the run says so', async () => {
  const dir = caseDir();
  writeIn(dir, 'a.yaml', invalidClaims(300));
  writeIn(dir, 'b.yaml', invalidClaims(300));
  const result = await lintBeside(dir, ['a.yaml', 'b.yaml'], { limits: { maxTotalNodes: 8_000 } });
  const limits = result.findings.filter((f) => f.ruleId === 'pvlint/limit');
  assert.ok(limits.length >= 1, 'a limit finding');
  assert.ok(limits.every((f) => /maxTotalNodes/.test(f.message)), limits.map((f) => f.message).join('\n'));
  assert.ok(result.stats.resources < 600, `resources: ${result.stats.resources}`);
});

test('a parse worker parses no more than the node budget the run has left: the rest come back for the main thread to refuse', async () => {
  const files = Array.from({ length: 40 }, (_, i) => makeSourceFile(`/claims/c${i}.yaml`, `claims/c${i}.yaml`, invalidClaims(1)));
  const pool = new ParsePool(1);
  try {
    const perFile = parseStream(files[0].text).nodes;
    const budget = { ...DEFAULT_LIMITS, maxTotalNodes: perFile * 10 };
    const records = await pool.parse(files, budget, undefined);
    const parsed = records.filter((r) => r !== null);
    assert.is(parsed.length, 10, `the worker parsed ${parsed.length} files of ${perFile} values each within ${budget.maxTotalNodes}`);
    assert.ok(parsed.reduce((n, r) => n + ('nodes' in r! ? r.nodes : 0), 0) <= budget.maxTotalNodes);
  } finally {
    await pool.close();
  }
});

test('rendered environments count against the run\'s node budget, after the loose manifests', async () => {
  if (!HAS_KUSTOMIZE) return warnSkipped('rendered output against the node budget');
  const dir = caseDir();
  writeIn(dir, 'loose/claims.yaml', invalidClaims(6));
  writeIn(dir, 'app/claims.yaml', invalidClaims(6));
  writeIn(dir, 'app/kustomization.yaml', 'resources: [claims.yaml]\n');
  const limits = { maxTotalNodes: 100, maxDocumentNodes: 30 };
  // Each alone fits the budget; together they do not.
  for (const alone of ['loose', 'app']) {
    const result = await lintIn(dir, [alone], { limits });
    assert.equal(result.findings.filter((f) => f.ruleId === 'pvlint/limit').map((f) => f.message), [], alone);
  }
  const both = await lintIn(dir, ['loose', 'app'], { limits });
  const limit = both.findings.filter((f) => f.ruleId === 'pvlint/limit');
  assert.is(limit.length, 1, JSON.stringify(limit.map((f) => f.message)));
  assert.match(limit[0].message, /^app: .*this environment's rendered objects hold [\d,]+, past the 100 limit for one run \(maxTotalNodes\)/);
  assert.is(limit[0].location.file, 'app');
  assert.not.ok(both.findings.some((f) => f.location.file === 'app/claims.yaml' && f.ruleId !== 'pvlint/limit'), 'the rendered objects are not linted');
  assert.ok(both.findings.some((f) => f.location.file === 'loose/claims.yaml'));
});

test('a document the fast reader accepts under maxDocumentNodes (130,000 items: 260,000 tokens) is located without an internal error', async () => {
  const dir = caseDir();
  writeIn(dir, 'long.yaml', hugeFlowSequence(130_000));
  // The default run (the fast reader reads it); `--parse-all-documents` refuses it by its token count instead.
  const result = await lintIn(dir, ['long.yaml']);
  assert.ok(result.findings.some((f) => f.location.file === 'long.yaml' && f.location.region.startLine === 5), 'a finding at the claim');
});

test.run();
