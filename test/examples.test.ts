// The bundled examples: every `# expect: <rule>` marker is a finding at that line, and nothing else fires.
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readLintConfig } from '../src/config/lint-config.js';
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

examples('examples/cluster-version fires with its own .pvlint.yaml (cluster facts), exactly where its markers say', async () => {
  const cwd = path.join(PROJECT_ROOT, 'examples/cluster-version');
  const config = await readLintConfig(cwd);
  assert.ok(config, 'examples/cluster-version/.pvlint.yaml is read');
  const result = await lint({ ...config!.options, paths: ['.'], cwd });
  const files = await fg('**/*.{yaml,yml}', { cwd });
  assert.ok(files.length >= 1);
  for (const file of files.sort()) {
    const expected = expectedMarkers(readFileSync(path.join(cwd, file), 'utf8'));
    const findings = result.findings.filter((f) => !f.ruleId.startsWith('pvlint/'));
    assert.equal(actualMarkers(findings, `examples/cluster-version/${file}`), expected, file);
  }
});

examples.run();
