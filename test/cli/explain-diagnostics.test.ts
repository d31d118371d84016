// `pvlint explain` serves every id a report can contain: the rules, and pvlint's own diagnostics (pvlint/render,
// pvlint/parse, …) from their one table, DIAGNOSTICS (src/engine/diagnostic.ts), which the reports read as DIAGNOSTIC_DOCS. A scan of the sources finds every diagnostic id pvlint
// can report, so a new one without a page fails here.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DIAGNOSTICS, FATAL_DIAGNOSTICS } from '../../src/engine/diagnostic.js';
import { DIAGNOSTIC_DOCS } from '../../src/report/rule-docs.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { MISSING_CLAIM } from '../helpers/manifests.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';

const explain = suite('pvlint explain: diagnostics');

// `pvlint/<name>` strings in the sources that are SARIF property names, not diagnostic ids.
const PROPERTY_NAMES = new Set(['pvlint/environments', 'pvlint/resource', 'pvlint/path', 'pvlint/catalogueId']);

function sourceIds(): Set<string> {
  const ids = new Set<string>();
  const dir = path.join(PROJECT_ROOT, 'src');
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (!name.endsWith('.ts')) continue;
    const text = readFileSync(path.join(dir, name), 'utf8');
    for (const match of text.matchAll(/['`](pvlint\/[a-z][a-z-]*)['`]/g)) if (!PROPERTY_NAMES.has(match[1])) ids.add(match[1]);
  }
  return ids;
}

explain('every diagnostic id in the sources and the fatal set has a page in the one table', () => {
  const table = new Set(DIAGNOSTIC_DOCS.map((d) => d.id));
  assert.equal([...table], Object.keys(DIAGNOSTICS));
  const ids = new Set([...sourceIds(), ...FATAL_DIAGNOSTICS]);
  assert.ok(ids.has('pvlint/render') && ids.has('pvlint/parse'), [...ids].join(' '));
  for (const id of ids) assert.ok(table.has(id), `${id} is reported but has no entry in DIAGNOSTICS (src/engine/diagnostic.ts)`);
});

explain('pvlint explain <id> prints the page of each diagnostic, exit 0', () => {
  const cwd = tempTree({});
  for (const doc of DIAGNOSTIC_DOCS) {
    const run = runPvlint(['explain', doc.id], { cwd });
    assert.is(run.code, 0, `${doc.id}: ${run.stderr}`);
    assert.ok(run.stdout.startsWith(`${doc.id} (reported by pvlint itself, not by a rule)\n`), run.stdout);
    assert.ok(run.stdout.includes(doc.summary));
    assert.ok(run.stdout.includes(doc.why));
    if (doc.fix) assert.ok(run.stdout.includes(doc.fix), doc.id);
  }
  assert.match(runPvlint(['explain', 'pvlint/render'], { cwd }).stdout, /exit code 2/);
});

explain('every id of a real report is explained: the ids of a run with a parse error and findings', () => {
  const cwd = tempTree({
    'broken.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: x\n',
    'deploy.yaml': MISSING_CLAIM,
  });
  const report = JSON.parse(runPvlint(['-f', 'json', '.'], { cwd }).stdout);
  const ids = new Set<string>(report.findings.map((f: any) => f.ruleId));
  assert.ok(ids.has('pvlint/parse'), [...ids].join(' '));
  for (const id of ids) assert.is(runPvlint(['explain', id], { cwd }).code, 0, id);
  assert.is(runPvlint(['explain', 'pvlint/nonsense'], { cwd }).code, 2);
});

explain.run();
