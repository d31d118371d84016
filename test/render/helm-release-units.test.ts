// The pieces of HelmRelease rendering that need no helm: values merged as helm-controller merges them, the release
// name, chart references and their `helm.charts` mapping, chart resolution through Flux sources, and the
// value-matching heuristic that locates findings.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { mappedChart, ociChart, repositoryChart } from '../../src/render/helm-release/chart-reference.js';
import { isExactVersion } from '../../src/render/helm-release/chart-cache.js';
import { fluxReleaseName } from '../../src/render/helm-release/expand.js';
import { mergeReleaseValues, parseTargetPath } from '../../src/render/helm-release/release-values.js';
import { resolveReleaseChart } from '../../src/render/helm-release/resolve-chart.js';
import { isUnfetchableSchema } from '../../src/render/helm-release/template-chart.js';
import { readTemplateFailure } from '../../src/render/helm-release/template-failure.js';
import { locateHelmValues, locateValue, matchEntry, matchValue } from '../../src/locate/helm-values-locator.js';
import type { HelmValuesSource } from '../../src/render/helm-release/render-objects.js';
import { LocateStage } from '../../src/locate/locate-stage.js';
import type { Resource } from '../../src/types.js';

const test = suite('HelmRelease pieces');

function resources(yaml: string): Resource[] {
  return parseResources(makeSourceFile('/repo/apps/app.yaml', 'apps/app.yaml', yaml)).resources;
}

const RELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: app, namespace: apps}
spec:
  chart:
    spec: {chart: app, version: 1.2.3, sourceRef: {kind: HelmRepository, name: charts, namespace: flux-system}}
  valuesFrom:
    - {kind: ConfigMap, name: base}
    - {kind: ConfigMap, name: override, valuesKey: extra.yaml}
    - {kind: ConfigMap, name: size, valuesKey: size, targetPath: persistence.data.size}
    - {kind: Secret, name: creds, optional: true}
    - {kind: ConfigMap, name: absent}
  values:
    replicas: 2
    persistence:
      data: {enabled: true}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: base, namespace: apps}
data:
  values.yaml: |
    replicas: 1
    persistence:
      data: {size: 1Gi, storageClass: fast}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: override, namespace: apps}
data:
  extra.yaml: |
    persistence:
      data: {storageClass: slow}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: size, namespace: apps}
data: {size: "20Gi"}
`;

test('values: valuesFrom in order, inline values on top, targetPath last; each leaf where it was written', () => {
  const [release, ...objects] = resources(RELEASE);
  const merged = mergeReleaseValues(release, 'apps', objects);
  assert.equal(merged.values, { replicas: 2, persistence: { data: { size: '20Gi', storageClass: 'slow', enabled: true } } });
  assert.equal(merged.skipped, ['Secret/creds (optional)', 'ConfigMap/absent']);
  const stage = new LocateStage();
  const where = Object.fromEntries(merged.leaves.map((l) => [l.path.join('.'), locateValue(l.at, stage.context).location.region.startLine]));
  assert.equal(where, { 'replicas': 14, 'persistence.data.enabled': 16, 'persistence.data.storageClass': 33, 'persistence.data.size': 38 });
});

test('targetPath syntax and the release name default', () => {
  assert.equal(parseTargetPath('a.b[0].c\\.d'), ['a', 'b', 0, 'c.d']);
  const [release] = resources(RELEASE);
  assert.is(fluxReleaseName(release), 'app');
  const targeted = resources(RELEASE.replace('spec:\n  chart:', 'spec:\n  targetNamespace: media\n  chart:'))[0];
  assert.is(fluxReleaseName(targeted), 'media-app');
  const long = resources(RELEASE.replace('name: app, namespace', `name: ${'x'.repeat(60)}, namespace`))[0];
  assert.is(fluxReleaseName(long).length, 53);
  assert.match(fluxReleaseName(long), /^x{40}-[0-9a-f]{12}$/);
});

test('chart references and their mapping: URL and version first, then name', () => {
  const chart = ociChart('oci://ghcr.io/bjw-s-labs/helm/app-template', '4.1.1');
  assert.is(chart.chart, 'app-template');
  const mappings = [
    { reference: 'app-template', path: '/any' },
    { reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template', path: '/url' },
    { reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template@4.1.1', path: '/exact' },
    { reference: 'oci://ghcr.io/bjw-s-labs/helm/app-template@3.0.0', path: '/old' },
  ];
  assert.is(mappedChart(mappings, chart)?.path, '/exact');
  assert.is(mappedChart(mappings, { ...chart, version: '4.2.0' })?.path, '/url');
  assert.is(mappedChart(mappings, repositoryChart('https://charts.example.com/', 'app-template', '1.0.0'))?.path, '/any');
  assert.is(mappedChart(mappings, repositoryChart('https://charts.example.com', 'other'))?.path, undefined);
  assert.equal(repositoryChart('oci://registry.example.com/charts', 'db', '1.0.0'), { repository: 'oci://registry.example.com/charts/db', chart: 'db', version: '1.0.0', oci: true });
  assert.ok(isExactVersion('4.1.1') && isExactVersion('v1.0.0-rc.1'));
  assert.not.ok(isExactVersion('>=4.0.0') || isExactVersion('4.x') || isExactVersion(undefined));
});

test('chart resolution through Flux sources', () => {
  const sources = resources(`apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmRepository
metadata: {name: charts, namespace: flux-system}
spec: {type: oci, url: oci://registry.example.com/charts}
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata: {name: app-template, namespace: apps}
spec: {url: oci://ghcr.io/bjw-s-labs/helm/app-template, ref: {tag: 4.1.1, semver: ">=4.0.0"}}
---
apiVersion: source.toolkit.fluxcd.io/v1
kind: Bucket
metadata: {name: bucket, namespace: apps}
spec: {bucketName: charts}
`);
  const [release] = resources(RELEASE);
  const viaRepository = resolveReleaseChart(release, 'apps', sources, [], '/repo').resolution;
  assert.equal(viaRepository, { kind: 'remote', chart: { repository: 'oci://registry.example.com/charts/app', chart: 'app', version: '1.2.3', oci: true }, label: 'app 1.2.3 from oci://registry.example.com/charts/app' });
  const chartRef = resources(RELEASE.replace(/  chart:\n    spec: .*\n/, '  chartRef: {kind: OCIRepository, name: app-template}\n'))[0];
  const viaOci = resolveReleaseChart(chartRef, 'apps', sources, [], '/repo');
  assert.equal(viaOci.chartPath, ['spec', 'chartRef', 'name']);
  // semver wins over tag (a range: pulled, never cached).
  assert.is(viaOci.resolution.kind === 'remote' && viaOci.resolution.chart.version, '>=4.0.0');
  const bucket = resources(RELEASE.replace('sourceRef: {kind: HelmRepository, name: charts, namespace: flux-system}', 'sourceRef: {kind: Bucket, name: bucket}'))[0];
  assert.equal(resolveReleaseChart(bucket, 'apps', sources, [], '/repo').resolution, { kind: 'unavailable', label: 'app 1.2.3 from Bucket bucket', reason: 'charts in a Bucket are not followed' });
  const missing = resolveReleaseChart(release, 'apps', [], [], '/repo').resolution;
  assert.equal(missing, { kind: 'unavailable', label: 'app 1.2.3 from HelmRepository charts', reason: 'HelmRepository charts is not in the repository' });
  // A name mapping still applies when the source lives elsewhere.
  assert.equal(resolveReleaseChart(release, 'apps', [], [{ reference: 'app@1.2.3', path: '/vendor/app' }], '/repo').resolution, { kind: 'local', path: '/vendor/app', label: 'app 1.2.3', inRepository: false, mapped: { reference: 'app@1.2.3', version: '1.2.3' } });
});

test('value matching: same value and key, context from names and labels, numbers only with a resembling key', () => {
  const leaf = (path: (string | number)[], value: string | number | boolean) => ({ path, value, at: { resource: {} as Resource, path } }); // matched, never located
  const leaves = [
    leaf(['controllers', 'main', 'replicas'], 2),
    leaf(['controllers', 'worker', 'replicas'], 2),
    leaf(['persistence', 'config', 'existingClaim'], 'app-config'),
    leaf(['persistence', 'data', 'type'], 'emptyDir'),
    leaf(['service', 'port'], 2),
  ];
  const worker = {
    metadata: { name: 'app-worker', labels: { 'app.kubernetes.io/controller': 'worker' } },
    spec: { replicas: 2, template: { spec: { volumes: [{ name: 'config', persistentVolumeClaim: { claimName: 'app-config' } }, { name: 'data', emptyDir: {} }] } } },
  };
  const found = (p: (string | number)[]) => matchValue(leaves, worker, p)?.leaf.path.join('.');
  assert.is(found(['spec', 'replicas']), 'controllers.worker.replicas');
  assert.is(found(['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName']), 'persistence.config.existingClaim');
  assert.is(found(['spec', 'template', 'spec', 'volumes', 1, 'emptyDir']), 'persistence.data.type');
  // A 2 that is not a replica count is never taken for one; a field no value sets has no match.
  assert.is(matchValue([leaves[4]], worker, ['spec', 'replicas']), undefined);
  assert.is(found(['spec', 'template', 'spec', 'containers']), undefined);
});

const CRON_RELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: media, namespace: apps}
spec:
  chartRef: {kind: OCIRepository, name: app-template}
  valuesFrom:
    - {kind: ConfigMap, name: media-values}
  values:
    controllers:
      media:
        containers:
          app:
            image: {repository: ghcr.io/example/media, tag: 1.0.0}
      backup:
        type: cronjob
        cronjob: {schedule: "0 3 * * *"}
    persistence:
      config: {existingClaim: media-config}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: media-values, namespace: apps}
data:
  values.yaml: |
    controllers:
      sync:
        type: cronjob
`;

const cronJob = (controller: string) => ({
  apiVersion: 'batch/v1', kind: 'CronJob',
  metadata: { name: `media-${controller}`, labels: { 'app.kubernetes.io/name': 'media', 'app.kubernetes.io/instance': 'media', 'app.kubernetes.io/controller': controller } },
  spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'app', image: 'x' }] } } } } },
});

test('a field no value sets points at the values entry the object is rendered from, not at the chart line', () => {
  const [release, ...objects] = resources(CRON_RELEASE);
  const merged = mergeReleaseValues(release, 'apps', objects);
  const entry = (object: any) => { const m = matchEntry(merged.leaves, object); return m && m.leaf.path.slice(0, m.depth).join('.'); };
  // The release's own name ("media") is in every object's name and labels: the last part of the name decides.
  assert.is(entry(cronJob('backup')), 'controllers.backup');
  assert.is(entry({ kind: 'Deployment', metadata: { name: 'media', labels: { 'app.kubernetes.io/controller': 'media' } } }), 'controllers.media');
  // An object named only after the release part, or after nothing in the values, has no entry.
  assert.is(entry({ kind: 'Service', metadata: { name: 'media-web' } }), undefined);
  // The longest suffix of the name wins over a shorter one, and the kind's section over another section.
  const leaf = (path: string[]) => ({ path, value: true, at: { resource: release, path: ['spec', 'values', ...path] } });
  const named = [leaf(['configMaps', 'config', 'enabled']), leaf(['persistence', 'cache', 'enabled']), leaf(['persistence', 'config', 'enabled']), leaf(['persistence', 'config-cache', 'enabled'])];
  const entryOf = (kind: string, name: string) => { const m = matchEntry(named, { kind, metadata: { name } }); return m && m.leaf.path.slice(0, m.depth).join('.'); };
  assert.is(entryOf('PersistentVolumeClaim', 'media-config-cache'), 'persistence.config-cache');
  assert.is(entryOf('PersistentVolumeClaim', 'media-config'), 'persistence.config');
  assert.is(entryOf('ConfigMap', 'media-config'), 'configMaps.config');

  const stage = new LocateStage();
  const source = (object: any): HelmValuesSource => ({
    kind: 'helm-values', object, leaves: merged.leaves, chart: { resource: release, path: ['spec', 'chartRef'] },
    label: 'app-template 4.1.1', templateName: 'app-template/templates/common.yaml',
  });
  const deadline = ['spec', 'jobTemplate', 'spec', 'activeDeadlineSeconds'];
  const inline = locateHelmValues(source(cronJob('backup')), release, deadline, stage.context);
  assert.is(inline.location.region.startLine, 14);
  assert.match(inline.note ?? '', 'controllers.backup is the values entry CronJob "media-backup" is rendered from');
  // The entry inside a ConfigMap's values block: its line in the block.
  assert.is(locateHelmValues(source(cronJob('sync')), release, deadline, stage.context).location.region.startLine, 26);
  // Nothing names the object: the chart line, as before.
  const unnamed = locateHelmValues(source({ kind: 'CronJob', metadata: { name: 'other' } }), release, deadline, stage.context);
  assert.is(unnamed.location.region.startLine, 5);
});

test('a schema that cannot be fetched is told apart from values that break it', () => {
  assert.ok(isUnfetchableSchema(`Error: values don't meet the specifications of the schema(s) in the following chart(s):\napp-template:\nGet "https://raw.githubusercontent.com/x.json": dial tcp: lookup raw.githubusercontent.com: no such host`));
  assert.not.ok(isUnfetchableSchema(`Error: values don't meet the specifications of the schema(s) in the following chart(s):\napp:\n- replicas: Invalid type. Expected: integer, given: string`));
});

test('readTemplateFailure: the values a chart check or the values schema rejects, and failures that are not about values', () => {
  const values = {
    persistence: { cache: { type: 'pvc' }, media: { type: 'nfs' } },
    controllers: { db: { statefulset: { volumeClaimTemplates: [{ name: 'wal' }, { name: 'data' }] } } },
  };
  const failed = (message: string) => readTemplateFailure(`helm template failed: ${message}`, values);
  assert.equal(failed("execution error at (app-template/templates/common.yaml:14:3): No enabled controller found with this identifier. (persistence item: 'media', controller: 'bazar')"),
    { rejectsValues: true, valuesPath: ['persistence', 'media', 'advancedMounts', 'bazar'] });
  assert.equal(failed('execution error at (app-template/templates/common.yaml:14:3): Not a valid persistence.type (pvc)'),
    { rejectsValues: true, valuesPath: ['persistence', 'cache', 'type'] });
  assert.equal(failed('execution error at (app-template/templates/common.yaml:14:3): size is required for volumeClaimTemplate. (controller: db, volumeClaimTemplate: data)'),
    { rejectsValues: true, valuesPath: ['controllers', 'db', 'statefulset', 'volumeClaimTemplates', 1] });
  // A check pvlint does not know still rejects the values; where is unknown.
  assert.equal(failed('execution error at (mychart/templates/pvc.yaml:3:4): persistence.size is required'), { rejectsValues: true });
  assert.equal(failed("values don't meet the specifications of the schema(s) in the following chart(s):\nmychart:\n- at '/persistence/items/0/size': got number, want string"),
    { rejectsValues: true, valuesPath: ['persistence', 'items', 0, 'size'] });
  // The chart's syntax, not the values.
  assert.equal(failed('parse error at (mychart/templates/pvc.yaml:3): unexpected "}" in operand'), { rejectsValues: false });
});

test.run();
