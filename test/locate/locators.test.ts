// Each locator of the locate stage on its own, from the origin record its renderer (or GitOps step, or the
// configuration) writes: a plain file, a Kustomize base and overlay patch, a generator, a Helm template, HelmRelease
// values, a Flux substitution, a copy made after reading, a declared StorageClass. Then: a new origin kind plugs in
// by registering one locator, and the stage owns what it remembers (the `--cache` positions) per run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument, type Node as YamlNode } from 'yaml';
import { deriveResource, derivedFrom, parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { LocateStage } from '../../src/locate/locate-stage.js';
import type { Locator } from '../../src/locate/locator.js';
import { LOCATORS } from '../../src/locate/locators.js';
import { declaredClassResource } from '../../src/model/cluster-facts.js';
import { substituteResource } from '../../src/gitops/substituted-resource.js';
import { mergeReleaseValues } from '../../src/render/helm-release/release-values.js';
import type { HelmValuesSource } from '../../src/render/helm-release/render-objects.js';
import { dependencyValueLeaves, recordHelmDependency } from '../../src/render/dependency-source.js';
import { recordHelmTemplate } from '../../src/render/helm-source.js';
import { recordKustomizeSource } from '../../src/render/kustomize-source.js';
import { SourceCache } from '../../src/render/source-cache.js';
import type { Located, Origin, PositionMemo, RawFinding, Resource } from '../../src/types.js';

const test = suite('locate: one locator per origin kind');

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-locate-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function resourcesOf(name: string, text: string): Resource[] {
  return parseResources(makeSourceFile(`/virtual/${name}`, name, text)).resources;
}

/** Where a place is, as `file:line`. */
const at = (located: Located) => `${located.location.file}:${located.location.region.startLine}`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
        - name: web
          image: nginx
`;

test('plain file: the node at the path in the resource\'s own file; an absent path points at the closest field and says so', () => {
  const [deployment] = resourcesOf('apps/web.yaml', DEPLOYMENT);
  const stage = new LocateStage();
  assert.is(at(stage.locate(deployment, ['spec', 'replicas'])), 'apps/web.yaml:6');
  const absent = stage.locate(deployment, ['spec', 'strategy', 'type']);
  assert.is(at(absent), 'apps/web.yaml:5');
  assert.is(absent.note, 'strategy.type is not set here');
});

test('kustomize: a field an overlay patch sets is at the patch, with the base as related location', () => {
  const dir = tree({
    'base/kustomization.yaml': 'resources:\n  - web.yaml\n',
    'base/web.yaml': DEPLOYMENT,
    'prod/kustomization.yaml': 'namePrefix: prod-\nresources:\n  - ../base\npatches:\n  - path: replicas.yaml\n',
    'prod/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
  });
  const cache = new SourceCache(dir);
  // What kustomize renders for prod: the prefixed name, the patched replicas.
  const [rendered] = resourcesOf('prod (rendered by kustomize)', DEPLOYMENT.replace('name: web\n', 'name: prod-web\n').replace('replicas: 1', 'replicas: 3'));
  const recorded = recordKustomizeSource({ cache, rootDir: path.join(dir, 'prod'), annotation: { path: '../base/web.yaml' }, originFile: path.join(dir, 'base/web.yaml'), resource: rendered });
  rendered.origin = recorded.origin;
  rendered.sourceOrigin = recorded.source;
  assert.is(rendered.origin.docIndex, 0, 'the base document is matched through the name prefix');
  const stage = new LocateStage();
  const replicas = stage.locate(rendered, ['spec', 'replicas']);
  assert.is(at(replicas), 'prod/replicas.yaml:6');
  assert.equal(replicas.related?.map((r) => [r.message, `${r.location.file}:${r.location.region.startLine}`]), [['base Deployment in base/web.yaml', 'base/web.yaml:6']]);
  assert.is(at(stage.locate(rendered, ['spec', 'template', 'spec', 'containers', 0, 'image'])), 'base/web.yaml:11');
});

test('kustomize: a generated ConfigMap\'s data key is at its literal; a remote base points at the root with the reason', () => {
  const dir = tree({ 'app/kustomization.yaml': 'configMapGenerator:\n  - name: settings\n    literals:\n      - mode=fast\n      - size=2\n' });
  const cache = new SourceCache(dir);
  const [generated] = resourcesOf('app (rendered by kustomize)', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-8fh2k9m2tb\ndata:\n  mode: fast\n  size: "2"\n');
  const configuredIn = path.join(dir, 'app/kustomization.yaml');
  generated.sourceOrigin = recordKustomizeSource({ cache, rootDir: path.join(dir, 'app'), annotation: { configuredIn: 'kustomization.yaml', configuredBy: { kind: 'ConfigMapGenerator' } }, configuredIn, resource: generated }).source;
  const stage = new LocateStage();
  assert.is(at(stage.locate(generated, ['data', 'size'])), 'app/kustomization.yaml:5');
  const [remote] = resourcesOf('app (rendered by kustomize)', DEPLOYMENT);
  remote.sourceOrigin = recordKustomizeSource({ cache, rootDir: path.join(dir, 'app'), annotation: { repo: 'https://github.com/example/base', ref: 'v1', path: 'web.yaml' }, resource: remote }).source;
  const located = stage.locate(remote, ['spec', 'replicas']);
  assert.is(at(located), 'app/kustomization.yaml:1');
  assert.match(located.note ?? '', /remote base https:\/\/github.com\/example\/base\?ref=v1/);
});

test('helm template: the key line of the template the `# Source:` names, said to be approximate; a template not in the repo points at Chart.yaml', () => {
  const dir = tree({
    'chart/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n',
    'chart/templates/pvc.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {{ .Release.Name }}-data\nspec:\n  storageClassName: {{ .Values.class }}\n',
  });
  const cache = new SourceCache(dir);
  const [pvc] = resourcesOf('stream.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: r-data\nspec:\n  storageClassName: fast\n');
  pvc.sourceOrigin = recordHelmTemplate(cache, path.join(dir, 'chart'), 'templates/pvc.yaml', pvc).source;
  const stage = new LocateStage();
  const located = stage.locate(pvc, ['spec', 'storageClassName']);
  assert.is(at(located), 'chart/templates/pvc.yaml:6');
  assert.match(located.note ?? '', /^line approximate: rendered by Helm/);
  const [packaged] = resourcesOf('stream.yaml', DEPLOYMENT);
  packaged.sourceOrigin = recordHelmTemplate(cache, path.join(dir, 'chart'), 'charts/sub/templates/web.yaml', packaged).source;
  const missing = stage.locate(packaged, ['spec', 'replicas']);
  assert.is(at(missing), 'chart/Chart.yaml:1');
  assert.match(missing.note ?? '', /is not in the repo/);
});

test('helm values: the value of the HelmRelease that set the field, else the values entry of the object, else the chart line; the template is related', () => {
  const [release] = resourcesOf('apps/release.yaml', `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: web
  namespace: apps
spec:
  chart:
    spec:
      chart: app
  values:
    persistence:
      data:
        storageClass: slow
`);
  const merged = mergeReleaseValues(release, 'apps', []);
  const [pvc] = resourcesOf('release stream', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: web-data\nspec:\n  storageClassName: slow\n  accessModes: [ReadWriteOnce]\n');
  const source: HelmValuesSource = { kind: 'helm-values', object: pvc.object, leaves: merged.leaves, chart: { resource: release, path: ['spec', 'chart', 'spec', 'chart'] }, label: 'app', templateName: 'app/templates/pvc.yaml' };
  pvc.sourceOrigin = source;
  const stage = new LocateStage();
  const byValue = stage.locate(pvc, ['spec', 'storageClassName']);
  assert.is(at(byValue), 'apps/release.yaml:13');
  assert.match(byValue.note ?? '', /the value persistence\.data\.storageClass sets spec\.storageClassName/);
  assert.equal(byValue.related?.map((r) => [r.message, `${r.location.file}:${r.location.region.startLine}`]), [['rendered from chart app, template app/templates/pvc.yaml', 'apps/release.yaml:9']]);
  // No value sets the access modes: the values entry the claim web-data is rendered from (persistence.data).
  const byEntry = stage.locate(pvc, ['spec', 'accessModes']);
  assert.is(at(byEntry), 'apps/release.yaml:12');
  assert.match(byEntry.note ?? '', /no value sets spec\.accessModes; persistence\.data is the values entry PersistentVolumeClaim "web-data" is rendered from/);
  // An object no values key names: the chart line.
  const [other] = resourcesOf('release stream', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: web-cache\nspec:\n  accessModes: [ReadWriteOnce]\n');
  other.sourceOrigin = { ...source, object: other.object } as HelmValuesSource;
  const byChart = stage.locate(other, ['spec', 'accessModes']);
  assert.is(at(byChart), 'apps/release.yaml:9');
  assert.match(byChart.note ?? '', /no value sets spec\.accessModes/);
});

test('helm dependency: the umbrella value under the dependency\'s key, else the values entry named like the item or the object, else the dependency entry', () => {
  const dir = tree({
    'media/Chart.yaml': 'apiVersion: v2\nname: media\nversion: 1.0.0\ndependencies:\n  - name: app-template\n    version: 4.1.1\n    repository: https://charts.example.test\n  - name: store\n    version: 1.0.0\n    repository: file://../store\n',
    'media/values.yaml': 'app-template:\n  persistence:\n    media:\n      storageClass: slow\n      size: 5Gi\n',
    'store/Chart.yaml': 'apiVersion: v2\nname: store\nversion: 1.0.0\n',
    'store/templates/pvc.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {{ .Release.Name }}-store\nspec:\n  accessModes: [ReadWriteOnce]\n',
  });
  const cache = new SourceCache(dir);
  const chartDir = path.join(dir, 'media');
  const valuesFiles = [path.join(chartDir, 'values.yaml')];
  const place = { keys: ['app-template'], label: 'app-template 4.1.1 of chart media', declaredIn: path.join(chartDir, 'Chart.yaml'), index: 0 };
  const leaves = dependencyValueLeaves(cache, valuesFiles, place.keys);
  const [pvc, deployment] = resourcesOf('media (rendered by helm)', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: r-media\nspec:\n  storageClassName: slow\n  accessModes: [ReadWriteOnce]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: r\nspec:\n  template:\n    spec:\n      volumes:\n        - name: media\n          persistentVolumeClaim:\n            claimName: r-media\n');
  for (const resource of [pvc, deployment]) resource.sourceOrigin = recordHelmDependency(cache, resource, 'templates/common.yaml', leaves, valuesFiles, place).source;
  const stage = new LocateStage();
  const byValue = stage.locate(pvc, ['spec', 'storageClassName']);
  assert.is(at(byValue), 'media/values.yaml:4');
  assert.match(byValue.note ?? '', /the value app-template\.persistence\.media\.storageClass sets spec\.storageClassName/);
  assert.equal(byValue.related?.map((r) => [r.message, at(r)]), [['rendered from dependency app-template 4.1.1 of chart media, template templates/common.yaml', 'media/Chart.yaml:5']]);
  const byItem = stage.locate(deployment, ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName']);
  assert.is(at(byItem), 'media/values.yaml:3');
  assert.match(byItem.note ?? '', /app-template\.persistence\.media configures media/);
  // No value sets the access modes: the values entry the claim r-media is rendered from.
  const byEntry = stage.locate(pvc, ['spec', 'accessModes']);
  assert.is(at(byEntry), 'media/values.yaml:3');
  assert.match(byEntry.note ?? '', /no value of the chart sets spec\.accessModes; app-template\.persistence\.media is the values entry/);
  // An object no values key names: the dependency entry.
  const [unnamed] = resourcesOf('media (rendered by helm)', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: r-cache\nspec:\n  accessModes: [ReadWriteOnce]\n');
  unnamed.sourceOrigin = recordHelmDependency(cache, unnamed, 'templates/common.yaml', leaves, valuesFiles, place).source;
  const byDependency = stage.locate(unnamed, ['spec', 'accessModes']);
  assert.is(at(byDependency), 'media/Chart.yaml:5');
  assert.match(byDependency.note ?? '', /no value of the chart sets spec\.accessModes$/);
  // A file:// dependency's template is in the repository: a field no value sets is at its key line there.
  const [stored] = resourcesOf('media (rendered by helm)', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: r-store\nspec:\n  accessModes: [ReadWriteOnce]\n');
  stored.sourceOrigin = recordHelmDependency(cache, stored, 'templates/pvc.yaml', [], valuesFiles, { keys: ['store'], label: 'store of chart media', declaredIn: place.declaredIn, index: 1, sourceDir: path.join(dir, 'store') }).source;
  const inTemplate = stage.locate(stored, ['spec', 'accessModes']);
  assert.is(at(inTemplate), 'store/templates/pvc.yaml:6');
  assert.equal(inTemplate.related?.map(at), ['store/templates/pvc.yaml:6']);
});

test('flux substitution: a substituted value is where the variable is defined, the placeholder related; other paths as before', () => {
  const [kustomization] = resourcesOf('clusters/apps.yaml', 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: apps\nspec:\n  postBuild:\n    substitute:\n      CLASS: fast\n');
  const [pvc] = resourcesOf('apps/pvc.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  storageClassName: ${CLASS}\n  accessModes: [ReadWriteOnce]\n');
  const result = substituteResource(pvc, new Map([['CLASS', 'fast']]), new Map([['CLASS', { label: 'postBuild.substitute', definedAt: { resource: kustomization, path: ['spec', 'postBuild', 'substitute', 'CLASS'] } }]]));
  const substituted = result.resource;
  assert.is(substituted.object.spec.storageClassName, 'fast');
  assert.is(substituted.sourceOrigin?.kind, 'flux-substitution');
  const stage = new LocateStage();
  const located = stage.locate(substituted, ['spec', 'storageClassName']);
  assert.is(at(located), 'clusters/apps.yaml:8');
  assert.equal(located.related?.map((r) => [r.message, `${r.location.file}:${r.location.region.startLine}`]), [['${CLASS} is substituted here (variable from postBuild.substitute)', 'apps/pvc.yaml:6']]);
  assert.is(at(stage.locate(substituted, ['spec', 'accessModes'])), 'apps/pvc.yaml:7');
});

test('flux substitution: a default is at the placeholder, and its note says whether an unreadable source may set the variable', () => {
  const [pvc] = resourcesOf('apps/pvc.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  storageClassName: ${CLASS:=standard}\n');
  const stage = new LocateStage();
  const known = stage.locate(substituteResource(pvc, new Map([['OTHER', 'x']]), new Map()).resource, ['spec', 'storageClassName']);
  assert.is(at(known), 'apps/pvc.yaml:6');
  assert.is(known.note, 'the value is the default of ${CLASS:=standard}: no postBuild variable CLASS is set');
  const unknown = stage.locate(substituteResource(pvc, new Map(), new Map(), true).resource, ['spec', 'storageClassName']);
  assert.is(at(unknown), 'apps/pvc.yaml:6');
  assert.match(unknown.note ?? '', /the repository sets no variable CLASS \(a substituteFrom source pvlint cannot read may set it in the cluster\)/);
});

test('derived copies are where the original is, with the note they carry; a declared StorageClass is at its config entry', () => {
  const [deployment] = resourcesOf('apps/web.yaml', DEPLOYMENT);
  const copy = deriveResource(deployment, { namespace: 'shop', sourceOrigin: derivedFrom(deployment, 'assumed to exist') });
  const stage = new LocateStage();
  const located = stage.locate(copy, ['spec', 'replicas']);
  assert.is(at(located), 'apps/web.yaml:6');
  assert.is(located.note, 'assumed to exist');
  const config = makeSourceFile('/repo/.pvlint.yaml', '.pvlint.yaml', 'cluster:\n  storageClasses:\n    - name: fast\n      provisioner: ebs.csi.aws.com\n');
  const entry = parseDocument(config.text).getIn(['cluster', 'storageClasses', 0], true) as YamlNode;
  const declared = declaredClassResource({ name: 'fast', provisioner: 'ebs.csi.aws.com', declaredAt: { file: config, node: entry } });
  const provisioner = stage.locate(declared, ['provisioner']);
  assert.is(at(provisioner), '.pvlint.yaml:4');
  assert.match(provisioner.note ?? '', /declared in the pvlint configuration/);
});

test('a new origin kind is located by registering one locator; an unregistered kind is an error, not a guess', () => {
  interface LineOrigin extends Origin {
    kind: 'fixed-line';
    file: string;
    line: number;
  }
  const locateLine: Locator<LineOrigin> = (origin, _resource, p) => ({ location: { file: origin.file, region: { startLine: origin.line, startColumn: 1, endLine: origin.line, endColumn: 1 } }, note: `at ${p.join('.')}` });
  const [deployment] = resourcesOf('apps/web.yaml', DEPLOYMENT);
  const line: LineOrigin = { kind: 'fixed-line', file: 'generated/web.jsonnet', line: 42 };
  deployment.sourceOrigin = line;
  const stage = new LocateStage({ locators: { ...LOCATORS, 'fixed-line': locateLine } });
  const located = stage.locate(deployment, ['spec', 'replicas']);
  assert.is(at(located), 'generated/web.jsonnet:42');
  assert.is(located.note, 'at spec.replicas');
  assert.throws(() => new LocateStage().locate(deployment, ['spec']), /no locator is registered for origin kind "fixed-line"/);
});

test('the stage owns its memory: cached positions of this run are used and filled, nothing module-wide', () => {
  const [deployment] = resourcesOf('apps/web.yaml', DEPLOYMENT);
  const stored = new Map<string, Located>();
  const memo: PositionMemo = { get: (p) => stored.get(JSON.stringify(p)), set: (p, located) => void stored.set(JSON.stringify(p), located) };
  const positions = new WeakMap<Resource, PositionMemo>([[deployment, memo]]);
  const stage = new LocateStage({ positions });
  assert.is(at(stage.locate(deployment, ['spec', 'replicas'])), 'apps/web.yaml:6');
  assert.ok(stored.has(JSON.stringify(['spec', 'replicas'])), 'a position found is remembered for the next run');
  stored.set(JSON.stringify(['metadata', 'name']), { location: { file: 'apps/web.yaml', region: { startLine: 99, startColumn: 1, endLine: 99, endColumn: 2 } } });
  assert.is(at(stage.locate(deployment, ['metadata', 'name'])), 'apps/web.yaml:99', 'a remembered position is used without parsing');
  assert.is(at(new LocateStage().locate(deployment, ['metadata', 'name'])), 'apps/web.yaml:4', 'another run without the cache does not see it');
});

test('a raw finding becomes a located one; related messages may depend on the place; the stage knows which objects it is about', () => {
  const [deployment, pvc] = resourcesOf('apps/web.yaml', `${DEPLOYMENT}---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\n`);
  const raw: RawFinding = {
    ruleId: 'example', severity: 'warning', messageId: 'm', message: 'message', data: {}, fix: 'fix', resource: deployment, path: ['spec', 'replicas'],
    related: [{ resource: pvc, path: ['metadata', 'name'], message: 'the claim', describe: (location) => `the claim (${location.file})` }],
    environments: ['test'],
  };
  const stage = new LocateStage();
  const finding = stage.finding(raw);
  assert.is(at(finding), 'apps/web.yaml:6');
  assert.equal(finding.resource, { apiVersion: 'apps/v1', kind: 'Deployment', namespace: undefined, name: 'web' });
  assert.equal(finding.related.map((r) => [r.message, r.location.region.startLine]), [['the claim (apps/web.yaml)', 16]]);
  assert.is(stage.subjectOf(finding)?.resource, deployment);
  assert.equal(stage.subjectOf(finding)?.related, [pvc]);
  const crash = stage.finding({ ruleId: 'pvlint/rule-crash', severity: 'error', messageId: 'crash', message: 'boom', data: {}, fix: '', related: [], environments: ['test'], anchor: { resource: pvc, path: [] } });
  assert.is(at(crash), 'apps/web.yaml:14');
  assert.is(crash.resource, undefined, 'an anchor only places the finding');
});

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test.run();
