// What a real helm cannot produce on demand: a `helm` that prints exactly a committed `helm template` output (so the
// chart and its committed render can be compared), and no helm at all. Rendering with the real helm (values,
// release, namespace, template lines, failures) is tested in helm-chart-real.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lint } from '../../src/lint.js';
import { at, copyFixture, findingFor, only, probeRule, type Probe } from './helpers.js';

const test = suite('helm: invocation, scopes and the missing-renderer rule');
const originalPath = process.env.PATH;
const probe: Probe = { kind: 'PersistentVolumeClaim', name: 'pvc-values.yaml-sonarqube', path: ['spec', 'resources', 'requests', 'storage'] };
const label = `${probe.kind} ${probe.name} ${probe.path.join('.')}`;

/** A directory holding an executable `helm` that prints `output`, whatever it is asked. */
function fakeHelm(output: string): { bin: string } {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'pvlint-fake-helm-'));
  writeFileSync(path.join(bin, 'helm'), `#!/bin/sh\n/bin/cat '${output}'\n`);
  chmodSync(path.join(bin, 'helm'), 0o755);
  return { bin };
}

test.after.each(() => {
  process.env.PATH = originalPath;
});

test('the chart and its committed render give one finding with both environments', async () => {
  const dir = copyFixture('helm/sonarqube');
  process.env.PATH = `${fakeHelm(path.join(dir, 'rendered/pvc-values.yaml')).bin}${path.delimiter}${originalPath}`;
  const result = await lint({ paths: ['.'], cwd: dir, rules: only(probeRule([probe])) });
  const findings = result.findings.filter((f) => f.ruleId === 'test-probe');
  assert.equal(findings.map((f) => `${at(f)} [${f.environments.join(', ')}]`), ['chart/templates/pvc.yaml:18 [chart, rendered/pvc-values.yaml]']);
});

function withoutHelm(): string {
  // An empty PATH entry list except for a dir that has no helm: the charts cannot be rendered.
  const empty = mkdtempSync(path.join(os.tmpdir(), 'pvlint-no-helm-'));
  return empty;
}

test('helm missing: one diagnostic for all charts, fatal (exit 2)', async () => {
  const dir = copyFixture('helm/sonarqube');
  mkdirSync(path.join(dir, 'second'));
  writeFileSync(path.join(dir, 'second/Chart.yaml'), 'apiVersion: v2\nname: second\nversion: 0.1.0\n');
  process.env.PATH = withoutHelm();
  const result = await lint({ paths: ['chart', 'second'], cwd: dir, rules: [] });
  assert.is(result.fatal, true);
  const diagnostics = result.findings.filter((f) => f.ruleId.startsWith('pvlint/'));
  assert.is(diagnostics.length, 1);
  assert.is(diagnostics[0].ruleId, 'pvlint/render');
  assert.is(at(diagnostics[0]), 'chart/Chart.yaml:1');
  assert.match(diagnostics[0].message, /helm is not installed \(not found on PATH\): 2 Helm charts not rendered: chart, second/);
  assert.match(diagnostics[0].message, /--skip-missing-renderers/);
});

test('helm missing with skipMissingRenderers: a note, not fatal; the rest is linted', async () => {
  const dir = copyFixture('helm/sonarqube');
  process.env.PATH = withoutHelm();
  const result = await lint({ paths: ['.'], cwd: dir, rules: only(probeRule([probe])), skipMissingRenderers: true });
  assert.is(result.fatal, false);
  const skipped = result.findings.filter((f) => f.ruleId === 'pvlint/render-skipped');
  assert.is(skipped.length, 1);
  assert.is(skipped[0].severity, 'note');
  assert.ok(skipped[0].fix.length > 0);
  // The committed render is still linted and mapped.
  assert.is(at(findingFor(result.findings, label)), 'chart/templates/pvc.yaml:18');
});

test.run();
