// Renders real overlays with the installed kustomize/kubectl and checks the exact file:line of findings:
// base fields, strategic-merge patch files, inline patches, JSON 6902 patches, namePrefix, generators,
// images, components, and a base shared by two overlays reported once with both environments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import podMissingPvc from '../../rules/pod-missing-pvc.js';
import { lint, type LintResult } from '../../src/lint.js';
import type { Finding } from '../../src/types.js';
import { at, copyFixture, findingFor, HAS_KUSTOMIZE, only, probeRule, warnSkipped, type Probe } from './helpers.js';

const test = suite('kustomize: locations of findings on rendered overlays');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('kustomize location tests');

const deployment = (path: (string | number)[]): Probe => ({ kind: 'Deployment', name: 'prod-web', path });
const pvc = (path: (string | number)[]): Probe => ({ kind: 'PersistentVolumeClaim', name: 'prod-web-data', path });
const PROBES: Probe[] = [
  deployment(['spec', 'template', 'spec', 'containers', 0, 'name']),
  deployment(['spec', 'replicas']),
  deployment(['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName']),
  deployment(['spec', 'template', 'spec', 'volumes', 1, 'persistentVolumeClaim', 'claimName']),
  deployment(['spec', 'template', 'spec', 'containers', 0, 'image']),
  deployment(['spec', 'template', 'spec', 'containers', 1, 'volumeMounts', 0, 'readOnly']),
  deployment(['metadata', 'namespace']),
  deployment(['spec', 'template', 'spec', 'securityContext']),
  pvc(['spec', 'resources', 'requests', 'storage']),
  pvc(['spec', 'storageClassName']),
  pvc(['spec', 'accessModes']),
  { kind: 'ConfigMap', name: 'prod-settings-', path: ['data', 'workers'] },
  { kind: 'ConfigMap', name: 'prod-settings-', path: ['metadata', 'name'] },
];
const label = (p: Probe) => `${p.kind} ${p.name} ${p.path.join('.')}`;

let result: LintResult;
let probes: Finding[];
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  const dir = copyFixture('kustomize/shop');
  result = await lint({ paths: ['overlays/prod'], cwd: dir, rules: only(probeRule(PROBES)) });
  probes = result.findings.filter((f) => f.ruleId === 'test-probe');
});

const expectAt = (probe: Probe, where: string, related?: string) => {
  const finding = findingFor(probes, label(probe));
  assert.is(at(finding), where, label(probe));
  if (related !== undefined) assert.equal(finding!.related.map((r) => `${r.location.file}:${r.location.region.startLine}`), [related]);
  return finding!;
};

it('renders without diagnostics and names the environment', () => {
  assert.equal(result.findings.filter((f) => f.ruleId.startsWith('pvlint/')), []);
  assert.is(result.fatal, false);
  assert.equal(result.scopes.map((s) => s.name), ['overlays/prod']);
  assert.ok(probes.every((f) => f.environments.join() === 'overlays/prod'));
});

it('a field from the base points at the base file', () => {
  const finding = expectAt(PROBES[0], 'base/deployment.yaml:16');
  assert.is(finding.location.region.startColumn, 11);
  assert.is(finding.note, undefined);
});

it('a field set by a strategic-merge patch file points at the patch, base as related', () => {
  expectAt(PROBES[1], 'overlays/prod/scale.yaml:6', 'base/deployment.yaml:6');
});

it('a field from an inline patch points into the kustomization, list items matched by name', () => {
  const finding = expectAt(PROBES[2], 'overlays/prod/kustomization.yaml:26');
  assert.is(finding.location.region.startColumn, 19);
  // The base volume moved from index 0 to 1 in the output: matched by its name, not its position.
  expectAt(PROBES[3], 'base/deployment.yaml:26');
});

it('an image rewritten by images: points at the newTag', () => {
  expectAt(PROBES[4], 'overlays/prod/kustomization.yaml:34');
});

it('a field from a component JSON 6902 patch points inside its value', () => {
  expectAt(PROBES[5], 'components/logging/kustomization.yaml:15');
});

it('a namespace set by the overlay points at its namespace: line', () => {
  expectAt(PROBES[6], 'overlays/prod/kustomization.yaml:3');
});

it('a missing field falls back to the closest existing field, with a note', () => {
  const finding = expectAt(PROBES[7], 'base/deployment.yaml:14');
  assert.match(finding.note ?? '', /securityContext is not set here/);
});

it('fields from a JSON 6902 patch file point at the op value', () => {
  expectAt(PROBES[8], 'overlays/prod/bigger-disk.yaml:3', 'base/pvc.yaml:10');
  expectAt(PROBES[9], 'overlays/prod/bigger-disk.yaml:6');
});

it('a namePrefix\'d resource is found in the base by its original name', () => {
  expectAt(PROBES[10], 'base/pvc.yaml:6');
});

it('a generated resource points at its generator entry', () => {
  expectAt(PROBES[11], 'overlays/prod/kustomization.yaml:31');
  const finding = expectAt(PROBES[12], 'overlays/prod/kustomization.yaml:28');
  assert.match(finding.note ?? '', /configMapGenerator entry "settings"/);
});

it('strips the origin annotation before rules run and keeps it on the resource', async () => {
  const seen: string[] = [];
  const spy = probeRule([]);
  const check = spy.check;
  spy.check = (context) => {
    for (const r of context.model.resources) {
      seen.push(`${r.kind}:${JSON.stringify(r.object.metadata.annotations ?? null)}:${r.origin?.renderer}:${r.origin?.file?.path ?? '-'}`);
    }
    check(context);
  };
  await lint({ paths: ['overlays/prod'], cwd: copyFixture('kustomize/shop'), rules: only(spy) });
  assert.equal(seen.sort(), ['ConfigMap:null:kustomize:-', 'Deployment:null:kustomize:base/deployment.yaml', 'PersistentVolumeClaim:null:kustomize:base/pvc.yaml']);
});

it('a base shared by two overlays gives one finding listing both environments', async () => {
  const shared = await lint({ paths: ['overlays/dev', 'overlays/prod'], cwd: copyFixture('kustomize/shop'), rules: only(podMissingPvc) });
  const located = shared.findings.map((f) => `${at(f)} [${f.environments.join(', ')}]`);
  assert.equal(located, ['base/deployment.yaml:29 [overlays/dev, overlays/prod]', 'overlays/prod/kustomization.yaml:26 [overlays/prod]']);
});

it('a failing root is a render diagnostic at the entry that failed; the other roots are still linted', async () => {
  const dir = copyFixture('kustomize/shop');
  const all = await lint({ paths: ['.'], cwd: dir, rules: only(podMissingPvc) });
  assert.is(all.fatal, true);
  const failures = all.findings.filter((f) => f.ruleId === 'pvlint/render');
  assert.is(failures.length, 1);
  assert.is(at(failures[0]), 'overlays/broken/kustomization.yaml:5');
  assert.match(failures[0].message, /does-not-exist\.yaml/);
  assert.not.match(failures[0].message, /pvlint-/);
  assert.equal(all.scopes.map((s) => s.name).sort(), ['.', 'overlays/dev', 'overlays/prod']);
  const located = all.findings.filter((f) => f.ruleId === 'pod-missing-pvc').map((f) => `${at(f)} [${f.environments.join(', ')}]`);
  assert.equal(located, ['base/deployment.yaml:29 [overlays/dev, overlays/prod]', 'overlays/prod/kustomization.yaml:26 [overlays/prod]', 'stray.yaml:13 [.]']);
});

test.run();
