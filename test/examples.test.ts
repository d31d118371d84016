// The bundled examples: every `# expect: <rule>` marker is a finding at that line, and nothing else fires.
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint } from '../src/lint.js';
import { actualMarkers, expectedMarkers } from './helpers/rule-tester.js';
import { PROJECT_ROOT } from './helpers/paths.js';

const examples = suite('examples');

examples('every pitfall in examples/plain fires exactly where its marker says, and the fixed twins are clean', async () => {
  const result = await lint({ paths: ['examples/plain'], cwd: PROJECT_ROOT });
  const files = await fg('examples/plain/**/*.{yaml,yml}', { cwd: PROJECT_ROOT });
  assert.ok(files.length >= 5);
  for (const file of files.sort()) {
    const expected = expectedMarkers(readFileSync(path.join(PROJECT_ROOT, file), 'utf8'));
    assert.equal(actualMarkers(result.findings, file), expected, file);
  }
  const stray = result.findings.filter((f) => !files.includes(f.location.file));
  assert.equal(stray.map((f) => `${f.ruleId} ${f.location.file}`), []);
});

examples.run();
