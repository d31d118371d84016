// Imports run one way along the pipeline (test/architecture/layers.ts says which way and why), and no import cycle
// closes anywhere in src/ and rules/. A failure prints each offending import as `from.ts -> to.ts`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { backArrows, cycleArrows, importArrows, layerOf, sourceFiles, type ImportArrow, type Layer } from './import-graph.js';
import { LAYERS } from './layers.js';
import { PROJECT_ROOT } from '../helpers/paths.js';

/**
 * Imports that run against the flow (or close a cycle) while a branch removes them, each with a line saying by whom.
 * Empty since the model's topic modules read it through ModelView; a stale line fails this test, and nothing may be
 * added to it: fix the import instead.
 */
const KNOWN_VIOLATIONS: readonly string[] = [];

/** What is wrong with the imports under `root`: unlayered files, unresolved imports, back arrows, cycles, stale known entries. */
function directionProblems(root: string, layers: readonly Layer[], known: readonly string[]): string[] {
  const files = sourceFiles(root, ['src', 'rules']);
  const { arrows, unresolved } = importArrows(root, files);
  const problems: string[] = [];
  for (const file of files) if (layerOf(layers, file) === undefined) problems.push(`${file} belongs to no layer: add it to test/architecture/layers.ts`);
  for (const u of unresolved) problems.push(`unresolved relative import: ${u}`);
  const allowed = new Set(known);
  const back = backArrows(layers, arrows);
  for (const arrow of back) if (!allowed.has(arrow)) problems.push(`against the flow: ${arrow}`);
  const rest: ImportArrow[] = arrows.filter((a) => !allowed.has(`${a.from} -> ${a.to}`));
  for (const cycle of cycleArrows(rest)) problems.push(`import cycle:\n    ${cycle.join('\n    ')}`);
  const present = new Set(arrows.map((a) => `${a.from} -> ${a.to}`));
  for (const entry of known) if (!present.has(entry)) problems.push(`KNOWN_VIOLATIONS lists an import that no longer exists; delete it: ${entry}`);
  return problems;
}

const direction = suite('import direction');

direction('src/ and rules/ import only along the pipeline, without cycles', () => {
  const problems = directionProblems(PROJECT_ROOT, LAYERS, KNOWN_VIOLATIONS);
  assert.ok(problems.length === 0, `\n  ${problems.join('\n  ')}\n`);
});

direction('every layer of the table names something that exists', () => {
  const files = sourceFiles(PROJECT_ROOT, ['src', 'rules']);
  for (const layer of LAYERS) {
    for (const member of layer.members) {
      const exists = member.endsWith('/') ? files.some((f) => f.startsWith(member)) : files.includes(member);
      assert.ok(exists, `${layer.name}: ${member} matches no source file`);
    }
  }
});

/** A throwaway tree with these files, checked with a three-layer table. */
function checkTree(files: Record<string, string>, known: readonly string[] = []): string[] {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pvlint-imports-'));
  try {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    mkdirSync(path.join(root, 'rules'), { recursive: true });
    const layers: Layer[] = [
      { name: 'load', members: ['src/load/'] },
      { name: 'engine', members: ['src/engine/'] },
      { name: 'cli', members: ['src/cli/'] },
    ];
    return directionProblems(root, layers, known);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

direction('the check fails on an import against the flow, type-only and re-exports included', () => {
  const base = { 'src/engine/run.ts': "import { read } from '../load/read.js';\nexport const run = read;\n", 'src/cli/main.ts': "import { run } from '../engine/run.js';\nexport const main = run;\n" };
  assert.equal(checkTree({ ...base, 'src/load/read.ts': 'export const read = 1;\n' }), []);
  assert.equal(checkTree({ ...base, 'src/load/read.ts': "import type { main } from '../cli/main.js';\nexport const read = 1;\n" }), [
    'against the flow: src/load/read.ts -> src/cli/main.ts',
    'import cycle:\n    src/cli/main.ts -> src/engine/run.ts\n    src/engine/run.ts -> src/load/read.ts\n    src/load/read.ts -> src/cli/main.ts',
  ]);
  assert.equal(checkTree({ ...base, 'src/load/read.ts': "export { run } from '../engine/run.js';\nexport const read = 1;\n" })[0], 'against the flow: src/load/read.ts -> src/engine/run.ts');
  // A dynamic import with a literal name is an import too; one in a comment or a string is not.
  assert.equal(checkTree({ ...base, 'src/load/read.ts': "export const read = () => import('../cli/main.js');\n" })[0], 'against the flow: src/load/read.ts -> src/cli/main.ts');
  assert.equal(checkTree({ ...base, 'src/load/read.ts': "// import { main } from '../cli/main.js';\nexport const read = \"import '../cli/main.js'\";\n" }), []);
});

direction('the check fails on a cycle inside one layer, and on a known violation that is gone', () => {
  const problems = checkTree({ 'src/load/a.ts': "import { b } from './b.js';\nexport const a = b;\n", 'src/load/b.ts': "import type { a } from './a.js';\nexport const b = 1;\n" });
  assert.equal(problems, ['import cycle:\n    src/load/a.ts -> src/load/b.ts\n    src/load/b.ts -> src/load/a.ts']);
  assert.equal(checkTree({ 'src/load/a.ts': 'export const a = 1;\n' }, ['src/load/a.ts -> src/cli/x.ts']), ['KNOWN_VIOLATIONS lists an import that no longer exists; delete it: src/load/a.ts -> src/cli/x.ts']);
});

direction('a file outside every layer fails', () => {
  assert.equal(checkTree({ 'src/new-stage/a.ts': 'export const a = 1;\n' }), ['src/new-stage/a.ts belongs to no layer: add it to test/architecture/layers.ts']);
});

direction.run();
