// The README's configuration example is complete (every key of the schema appears in it) and valid as written.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { repo, resolved } from './helpers.js';

const test = suite('README configuration');

const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('\n## Configuration\n'), readme.indexOf('\n## ', readme.indexOf('\n## Configuration\n') + 1));
const example = /```yaml\n(# yaml-language-server[\s\S]*?)```/.exec(section)?.[1] ?? '';
const schema = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'schemas', 'config.schema.json'), 'utf8'));

/** Every property name the schema defines, at any depth. */
function schemaKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => schemaKeys(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') Object.keys(value).forEach((k) => out.add(k));
      schemaKeys(value, out);
    }
  }
  return out;
}

function documentKeys(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => documentKeys(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      out.add(key);
      documentKeys(value, out);
    }
  }
  return out;
}

test('the README has a complete annotated example: every key of the schema appears in it', () => {
  assert.ok(example.length > 0, 'no ```yaml block starting with the yaml-language-server line under "## Configuration"');
  const used = documentKeys(parse(example));
  // `$schema` is for .pvlint.json files; YAML files name the schema in their first line instead. The rest are
  // keys of maps whose keys are names (rule ids, chart directories, StorageClass parameters).
  const missing = [...schemaKeys(schema)].filter((key) => key !== '$schema' && !used.has(key));
  assert.equal(missing, []);
  assert.match(example, /#/, 'the example is annotated');
});

test('the README example is valid as written (with the files it names)', async () => {
  const dir = repo({
    '.pvlint.yaml': example,
    'helm/values-common.yaml': '{}\n',
    'charts/payments/Chart.yaml': 'apiVersion: v2\nname: payments\nversion: 0.1.0\n',
    'charts/payments/values-prod.yaml': '{}\n',
    'vendor/app-template-4.1.1.tgz': '',
  });
  mkdirSync(path.join(dir, 'pvlint-rules'));
  copyFileSync(path.join(PROJECT_ROOT, 'examples', 'custom-rules', 'rules', 'prod-storage-class.ts'), path.join(dir, 'pvlint-rules', 'prod-storage-class.ts'));
  const config = await resolved(dir);
  assert.is(config.failLevel, 'warning');
  assert.ok(config.settings.some((s) => s.rule.id === 'acme/prod-storage-class'));
  assert.not.ok(config.settings.some((s) => s.rule.id === 'storageclass-legacy-provisioner'), 'off');
  assert.is(config.cluster?.storageClasses?.length, 2);
  assert.is(config.suppressions.length, 2);
  const chart = config.helmChartSettings!(path.join(dir, 'charts', 'payments'));
  assert.equal(chart, { values: [path.join(dir, 'helm', 'values-common.yaml'), path.join(dir, 'charts', 'payments', 'values-prod.yaml')], release: 'payments', namespace: 'payments' });
  assert.equal(config.helmChartMappings, [{ reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template@4.1.1', path: path.join(dir, 'vendor', 'app-template-4.1.1.tgz') }]);
  assert.is(config.chartCache, path.join(dir, '.cache', 'pvlint-charts'));
  writeFileSync(path.join(dir, 'unused.txt'), '');
});

test.run();
