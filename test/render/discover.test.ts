// Discovery of environments: Kustomize roots that nothing includes, charts that are not subcharts, and loose
// manifests that no kustomization reads and no chart holds. No renderer is needed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discover } from '../../src/load/discover.js';
import { copyFixture } from './helpers.js';

const test = suite('discover: entry points and loose manifests');

const rel = (dir: string, paths: readonly string[]) => paths.map((p) => path.relative(dir, p) || '.');

test('top-level overlays are entry points; bases, components and patch files are not', async () => {
  const dir = copyFixture('kustomize/shop');
  const input = await discover('.', { cwd: dir });
  assert.equal(rel(dir, input.kustomizations), ['overlays/broken', 'overlays/dev', 'overlays/prod']);
  // scale.yaml and bigger-disk.yaml are patches of overlays/prod; base files are its resources.
  assert.equal(rel(dir, input.files), ['stray.yaml']);
  assert.equal(input.charts, []);
});

test('a root named explicitly is an entry point even when another root includes it', async () => {
  const dir = copyFixture('kustomize/shop');
  assert.equal(rel(dir, (await discover('base', { cwd: dir })).kustomizations), ['base']);
  assert.equal(rel(dir, (await discover('base/kustomization.yaml', { cwd: dir })).kustomizations), ['base']);
  assert.equal(rel(dir, (await discover('components/logging', { cwd: dir })).kustomizations), ['components/logging']);
  assert.equal(rel(dir, (await discover('overlays', { cwd: dir })).kustomizations), ['overlays/broken', 'overlays/dev', 'overlays/prod']);
});

test('kustomization.yml and Kustomization are roots too; generator inputs are not loose', async () => {
  const dir = copyFixture('kustomize/shop');
  mkdirSync(path.join(dir, 'extra/app'), { recursive: true });
  writeFileSync(path.join(dir, 'extra/Kustomization'), 'resources:\n  - app\nconfigMapGenerator:\n  - name: c\n    files: [settings.json]\n');
  writeFileSync(path.join(dir, 'extra/settings.json'), '{"a": 1}\n');
  writeFileSync(path.join(dir, 'extra/app/kustomization.yml'), 'resources: [pod.yaml]\n');
  writeFileSync(path.join(dir, 'extra/app/pod.yaml'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n');
  const input = await discover('extra', { cwd: dir });
  assert.equal(rel(dir, input.kustomizations), ['extra']);
  assert.equal(input.files, []);
});

test('charts: subcharts and everything inside a chart are not loose; renders beside it are', async () => {
  const dir = copyFixture('helm/sonarqube');
  mkdirSync(path.join(dir, 'chart/charts/sub/templates'), { recursive: true });
  writeFileSync(path.join(dir, 'chart/charts/sub/Chart.yaml'), 'apiVersion: v2\nname: sub\nversion: 0.1.0\n');
  writeFileSync(path.join(dir, 'chart/values.yaml'), 'replicaCount: 1\n');
  const input = await discover('.', { cwd: dir });
  assert.equal(rel(dir, input.charts), ['chart']);
  assert.equal(rel(dir, input.files), ['rendered/pvc-values.yaml']);
  assert.equal(rel(dir, (await discover('chart/charts/sub', { cwd: dir })).charts), ['chart/charts/sub']);
});

test.run();
