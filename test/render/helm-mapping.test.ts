// `# Source:` mapping on real `helm template` output committed by public projects (copied with their charts
// into test/fixtures/helm), read as a pre-rendered stream since helm itself is not installed in CI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { lint } from '../../src/lint.js';
import { sourcesByDocument } from '../../src/render/helm-stream.js';
import { at, copyFixture, FIXTURES, findingFor, only, probeRule, type Probe } from './helpers.js';

const test = suite('helm: # Source: mapping of committed renders');
const label = (p: Probe) => `${p.kind} ${p.name} ${p.path.join('.')}`;

const claimVolume = (object: any) => {
  const volumes: any[] = object?.spec?.template?.spec?.volumes ?? [];
  const index = volumes.findIndex((v) => v.persistentVolumeClaim);
  return index === -1 ? undefined : ['spec', 'template', 'spec', 'volumes', index, 'persistentVolumeClaim', 'claimName'];
};

const SONARQUBE: [Probe, string][] = [
  [{ kind: 'PersistentVolumeClaim', name: 'pvc-values.yaml-sonarqube', path: ['spec', 'resources', 'requests', 'storage'] }, 'chart/templates/pvc.yaml:18'],
  [{ kind: 'PersistentVolumeClaim', name: 'pvc-values.yaml-sonarqube', path: ['spec', 'accessModes', 0] }, 'chart/templates/pvc.yaml:14'],
  [{ kind: 'StatefulSet', name: 'pvc-values.yaml-sonarqube', path: ['spec', 'replicas'] }, 'chart/templates/sonarqube-sts.yaml:8'],
  // The pod spec comes from an `include`d helper: the exact key is found there.
  [{ kind: 'StatefulSet', name: 'pvc-values.yaml-sonarqube', path: ['claimName'], pathOf: claimVolume }, 'chart/templates/_pod.tpl:499'],
  // secret.yaml starts with its own `---`: its `# Source:` sits in an empty document before the Secret.
  [{ kind: 'Secret', name: 'pvc-values.yaml-sonarqube-monitoring-passcode', path: ['kind'] }, 'chart/templates/secret.yaml:6'],
];

test('sonarqube: documents map to their templates, lines by key', async () => {
  const dir = copyFixture('helm/sonarqube');
  const result = await lint({ paths: ['rendered/pvc-values.yaml'], cwd: dir, rules: only(probeRule(SONARQUBE.map(([p]) => p))) });
  for (const [probe, where] of SONARQUBE) {
    const finding = findingFor(result.findings, label(probe));
    assert.is(at(finding), where, label(probe));
    assert.match(finding!.note ?? '', /line approximate: rendered by Helm/);
    assert.equal(finding!.environments, ['rendered/pvc-values.yaml']);
  }
});

const PROVISIONER: [Probe, string][] = [
  // The second StorageClass of a template that loops: same template, same line.
  [{ kind: 'StorageClass', name: 'local-nvme', path: ['provisioner'] }, 'chart/templates/storageclass.yaml:20'],
  [{ kind: 'StorageClass', name: 'local-scsi', path: ['volumeBindingMode'] }, 'chart/templates/storageclass.yaml:24'],
  [{ kind: 'DaemonSet', name: 'local-static-provisioner', path: ['spec', 'template', 'spec', 'volumes', 1, 'hostPath', 'path'] }, 'chart/templates/daemonset_linux.yaml:137'],
  // A field the template never spells out falls back to the closest key, then the kind: line.
  [{ kind: 'ConfigMap', name: 'local-static-provisioner-config', path: ['spec', 'nothing'] }, 'chart/templates/configmap.yaml:2'],
];

test('local-static-provisioner: multi-document templates and fallbacks', async () => {
  const dir = copyFixture('helm/local-static-provisioner');
  const result = await lint({ paths: ['rendered'], cwd: dir, rules: only(probeRule(PROVISIONER.map(([p]) => p))) });
  for (const [probe, where] of PROVISIONER) assert.is(at(findingFor(result.findings, label(probe))), where, label(probe));
  const fallback = findingFor(result.findings, label(PROVISIONER[3][0]))!;
  assert.match(fallback.note ?? '', /does not spell out spec\.nothing/);
});

test('a piped stream (stdin) finds the chart from the working directory', async () => {
  const dir = copyFixture('helm/sonarqube');
  const stdin = readFileSync(path.join(dir, 'rendered/pvc-values.yaml'), 'utf8');
  const [probe, where] = SONARQUBE[0];
  const result = await lint({ paths: ['-'], stdin, cwd: dir, rules: only(probeRule([probe])) });
  assert.is(at(findingFor(result.findings, label(probe))), where);
});

test('without a chart nearby the rendered lines are kept', async () => {
  const text = readFileSync(path.join(FIXTURES, 'helm/sonarqube/rendered/pvc-values.yaml'), 'utf8');
  const [probe] = SONARQUBE[0];
  const result = await lint({ paths: ['-'], stdin: text, cwd: copyFixture('kustomize/shop'), rules: only(probeRule([probe])) });
  assert.is(at(findingFor(result.findings, label(probe))), '<stdin>:143');
});

test('sourcesByDocument: empty documents pass their # Source: on, later documents inherit it', () => {
  const text = '---\n# Source: c/templates/a.yaml\n---\nkind: A\n---\n# Source: c/templates/b.yaml\nkind: B\n---\nkind: C\n';
  const file = makeSourceFile('/x', 'x', text);
  const parsed = parseResources(file);
  assert.equal(sourcesByDocument(file, parsed.documents), ['c/templates/a.yaml', 'c/templates/a.yaml', 'c/templates/b.yaml', 'c/templates/b.yaml']);
});

test.run();
