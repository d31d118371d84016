// A short, seeded fuzz run inside `npm test`: 200 mutations of examples/ (never /work/shared, which a user's
// clone does not have) must keep every invariant of harness.ts. The full run is `npm run fuzz`.
import os from 'node:os';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runFuzz } from './harness.js';

const test = suite('fuzz smoke');

test('200 seeded mutations of the examples: no crash, no hang, diagnostics with paths, other files unchanged', async () => {
  const report = await runFuzz({
    seed: 20240917,
    count: 200,
    workers: Math.min(2, os.availableParallelism?.() ?? os.cpus().length),
    spawnEvery: 50,
    orderEvery: 4,
  });
  assert.is(report.outcomes.length, 200);
  const described = report.failures
    .slice(0, 5)
    .map((f) => `case ${f.index} (${f.source}; ${f.mutations.join(', ')}):\n  ${f.failures.join('\n  ')}`)
    .join('\n\n');
  assert.is(report.failures.length, 0, `${report.failures.length} failing inputs; reproduce with npm run fuzz -- --seed ${report.seed} --case <n>\n${described}`);
  assert.ok(report.spawned >= 4, `only ${report.spawned} inputs went through the binary`);
  // The mutations reached both kinds of broken input.
  assert.ok(report.outcomes.some((o) => o.verdict === 'unparsable'));
  assert.ok(report.outcomes.some((o) => o.verdict === 'unreadable'));
});

test.run();
