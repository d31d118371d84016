// Worker threads parse large inputs; the result must be the one the main thread gives, whatever happens to them.
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchParser } from '../../src/pipeline/batch-parser.js';
import { resolveLimits } from '../../src/load/limits.js';
import { ParsePool } from '../../src/load/parse-pool.js';
import { parseResources, type ParsedFile } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { kindPlan } from '../../src/engine/relevant-kinds.js';
import { lint, type LintResult } from '../../src/lint.js';
import { BUILTIN_RULES, CHANGE_RULES } from '../../src/registry.js';
import { PROJECT_ROOT } from '../helpers/paths.js';

const view = (r: LintResult) => JSON.stringify({ findings: r.findings, suppressed: r.suppressed, scopes: r.scopes, stats: r.stats });

test('lint() with parse workers finds exactly what it finds without them (examples and fixtures, three copies)', async () => {
  // Enough files per batch for the workers to take them (a handful would stay on the main thread).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-pool-'));
  for (const copy of ['one', 'two', 'three']) {
    cpSync(path.join(PROJECT_ROOT, 'examples', 'plain'), path.join(dir, copy, 'plain'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'test', 'hostile', 'fixtures'), path.join(dir, copy, 'hostile'), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, 'test', 'fixtures'), path.join(dir, copy, 'fixtures'), { recursive: true });
  }
  const options = { paths: ['.'], cwd: dir, root: dir, skipMissingRenderers: true };
  const alone = await lint({ ...options, parseWorkers: 0 });
  const pooled = await lint({ ...options, parseWorkers: 2, parseWorkersMinFiles: 0 });
  assert.ok(alone.findings.length > 100);
  assert.is(view(pooled), view(alone));
});

function files() {
  return [
    makeSourceFile('/x/a.yaml', 'a.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: a}\nspec: {accessModes: [ReadWriteOnce]}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n'),
    makeSourceFile('/x/b.yaml', 'b.yaml', 'apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: [broken\n'),
    makeSourceFile('/x/c.yaml', 'c.yaml', '---\n# Source: chart/templates/pvc.yaml\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n'),
  ];
}

async function throughBatches(pool: ParsePool): Promise<ParsedFile[]> {
  const out: ParsedFile[] = [];
  const batches = new BatchParser(() => pool, resolveLimits(), kindPlan(BUILTIN_RULES, CHANGE_RULES), undefined, (_file, parsed) => out.push(parsed));
  // Enough files that the batch goes to the workers (a handful would be parsed on this thread).
  for (let i = 0; i < 16; i++) for (const file of files()) await batches.add(file);
  await batches.finish();
  return out;
}

const summary = (p: ParsedFile) => JSON.stringify({ ids: p.resources.map((r) => [r.id, r.docIndex, r.node.range]), diagnostics: p.diagnostics, documents: p.documentCount, skipped: p.skipped, helm: p.helm });

test('records from workers make the same resources, positions and diagnostics; Helm streams stay on this thread', async () => {
  const pool = new ParsePool(2);
  try {
    const pooled = await throughBatches(pool);
    const local = Array.from({ length: 16 }, () => files().map((f) => parseResources(f, resolveLimits(), kindPlan(BUILTIN_RULES, CHANGE_RULES)))).flat();
    assert.equal(pooled.map(summary), local.map(summary));
    assert.ok(pooled[2].helm);
    assert.ok(pooled[0].resources.every((r) => Object.getOwnPropertyDescriptor(r, 'node')?.get), 'made from a record: nodes on demand');
  } finally {
    await pool.close();
  }
});

test('a pool whose workers are gone: every file is parsed on this thread, nothing is lost', async () => {
  const pool = new ParsePool(1);
  await pool.close();
  const pooled = await throughBatches(pool);
  const local = Array.from({ length: 16 }, () => files().map((f) => parseResources(f, resolveLimits(), kindPlan(BUILTIN_RULES, CHANGE_RULES)))).flat();
  assert.equal(pooled.map(summary), local.map(summary));
});

test.run();
