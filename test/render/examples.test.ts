// examples/kustomize and examples/helm: every `# expect: <rule>` marker (in patches and templates) is a
// finding at that line, nothing else fires, and findings name their environments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import fg from 'fast-glob';
import os from 'node:os';
import path from 'node:path';
import { lint } from '../../src/lint.js';
import { actualMarkers, expectedMarkers } from '../helpers/rule-tester.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { HAS_KUSTOMIZE, warnSkipped } from './helpers.js';

const test = suite('examples: rendered Kustomize and Helm');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('examples/kustomize test');
const originalPath = process.env.PATH;

async function checkMarkers(dir: string, findings: Awaited<ReturnType<typeof lint>>['findings']): Promise<void> {
  // The committed Helm render repeats the template's markers (helm keeps comments); its findings live in the template.
  const files = (await fg(`${dir}/**/*.{yaml,yml,tpl}`, { cwd: PROJECT_ROOT, ignore: ['**/rendered.yaml'] })).sort();
  const rules = findings.filter((f) => !f.ruleId.startsWith('pvlint/'));
  for (const file of files) {
    assert.equal(actualMarkers(rules, file), expectedMarkers(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')), file);
  }
  const stray = findings.filter((f) => !f.ruleId.startsWith('pvlint/') && !files.includes(f.location.file));
  assert.equal(stray.map((f) => `${f.ruleId} ${f.location.file}`), []);
}

it('kustomize: the prod patches introduce the pitfalls, findings point at the patch lines', async () => {
  const result = await lint({ paths: ['examples/kustomize'], cwd: PROJECT_ROOT });
  assert.is(result.fatal, false);
  assert.equal(result.scopes.map((s) => s.name), ['examples/kustomize/overlays/dev', 'examples/kustomize/overlays/preview', 'examples/kustomize/overlays/prod']);
  await checkMarkers('examples/kustomize', result.findings);
  for (const finding of result.findings) {
    const overlay = finding.location.file.startsWith('examples/kustomize/overlays/preview/') ? 'preview' : 'prod';
    assert.equal(finding.environments, [`examples/kustomize/overlays/${overlay}`]);
  }
  const replicas = result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node')!;
  assert.equal(replicas.related[0].location.file, 'examples/kustomize/base/deployment.yaml');
});

test('helm without helm installed: the committed render is mapped to the template lines', async () => {
  process.env.PATH = mkdtempSync(path.join(os.tmpdir(), 'pvlint-no-helm-'));
  try {
    const result = await lint({ paths: ['examples/helm'], cwd: PROJECT_ROOT, skipMissingRenderers: true });
    assert.is(result.fatal, false);
    assert.equal(result.findings.filter((f) => f.ruleId.startsWith('pvlint/')).map((f) => f.ruleId), ['pvlint/render-skipped']);
    await checkMarkers('examples/helm', result.findings);
  } finally {
    process.env.PATH = originalPath;
  }
});

test('helm installed (a fake that prints the committed render): one finding, both environments', async () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'pvlint-fake-helm-'));
  writeFileSync(path.join(bin, 'helm'), `#!/bin/sh\n/bin/cat '${path.join(PROJECT_ROOT, 'examples/helm/rendered.yaml')}'\n`);
  chmodSync(path.join(bin, 'helm'), 0o755);
  process.env.PATH = `${bin}${path.delimiter}${originalPath}`;
  try {
    const result = await lint({ paths: ['examples/helm'], cwd: PROJECT_ROOT });
    assert.is(result.fatal, false);
    await checkMarkers('examples/helm', result.findings);
    // Each finding is found in both environments (the chart and its committed render) and reported once.
    assert.ok(result.findings.length > 0);
    for (const finding of result.findings) assert.equal(finding.environments, ['examples/helm/ledger', 'examples/helm/rendered.yaml']);
  } finally {
    process.env.PATH = originalPath;
  }
});

test.run();
