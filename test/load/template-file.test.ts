// Template files (Go, mustache or sed markers where YAML structure belongs) are counted, not linted; manifests that
// merely carry `{{ }}` inside strings (alert templates, rendered multi-line scalars) are still linted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { templateMarkers } from '../../src/load/template-file.js';
import { lint } from '../../src/lint.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { runPvlint } from '../helpers/spawn.js';

const DIR = path.join(PROJECT_ROOT, 'test', 'fixtures', 'precision', 'templates');
const read = (name: string) => readFileSync(path.join(DIR, name), 'utf8');

test('real template files are templates', () => {
  assert.is(templateMarkers(read('ebs-metrics-pvc.yaml')), 'Go template');
  assert.is(templateMarkers(read('vitess-etcd-controller-template.yaml')), 'Go template');
  assert.is(templateMarkers(read('longhorn-scale-test-statefulset.yaml')), 'placeholder');
});

test('{{ }} inside quoted, plain multi-line and block scalars is text: the file is a manifest', () => {
  assert.is(templateMarkers(read('kube-prometheus-rule-rendered.yaml')), undefined);
  const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t}\ndata:\n  alert.tmpl: |\n    {{ define "x" }}\n    {{ end }}\n  other: "{{ .x }}"\n';
  assert.is(templateMarkers(configMap), undefined);
  const argo = 'spec:\n  args: ["{{inputs.parameters.message}}"]\n  image: docker/whalesay:{{inputs.parameters.tag}}\n';
  assert.is(templateMarkers(argo), undefined);
  assert.is(templateMarkers('contact: me@example.com\nname: "@x@"\n'), undefined);
});

test('lint(): template files give no pvlint/parse or pvlint/shape, and are counted as templates', async () => {
  const result = await lint({ paths: ['.'], cwd: DIR, root: DIR, skipMissingRenderers: true });
  const diagnostics = result.findings.filter((f) => f.ruleId === 'pvlint/parse' || f.ruleId === 'pvlint/shape');
  assert.equal(diagnostics, []);
  assert.is(result.stats.templates, 3);
  assert.equal(result.templateFiles, ['ebs-metrics-pvc.yaml', 'longhorn-scale-test-statefulset.yaml', 'vitess-etcd-controller-template.yaml']);
  assert.is(result.stats.files, 1);
});

test('CLI: the text and JSON summaries say how many templates were not linted', () => {
  const text = runPvlint(['.'], { cwd: DIR });
  assert.is(text.code, 0, text.stderr);
  assert.match(text.stdout, /3 templates, not linted/);
  const json = runPvlint(['-f', 'json', '.'], { cwd: DIR });
  const summary = JSON.parse(json.stdout).summary;
  assert.is(summary.templates, 3);
  assert.equal(summary.templateFiles.map((f: string) => path.basename(f)), ['ebs-metrics-pvc.yaml', 'longhorn-scale-test-statefulset.yaml', 'vitess-etcd-controller-template.yaml']);
});

test.run();
