// Suppressions: `pvlint.dev/ignore` annotations and the configuration's `suppress` entries. Suppressed findings are
// counted, listed on request, never in SARIF; a suppression that suppressed nothing is a note.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatJson } from '../../src/report/json.js';
import { formatText } from '../../src/report/text.js';
import type { LintResult } from '../../src/lint.js';
import type { Finding } from '../../src/types.js';
import { runPvlint } from '../helpers/spawn.js';
import { describeErrors, reportValidator } from '../report/schema-validators.js';
import { repo } from './helpers.js';

const test = suite('suppressions');

/** A Deployment with a missing claim (pod-missing-pvc) and two mounts at one path (duplicate-mount-path). */
const deployment = (name: string, annotations = '', namespace = 'shop') => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}${namespace ? `\n  namespace: ${namespace}` : ''}${annotations ? `\n  annotations:\n${annotations}` : ''}
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx
          volumeMounts: [{name: d, mountPath: /d}, {name: e, mountPath: /d}]
      volumes:
        - {name: d, persistentVolumeClaim: {claimName: missing}}
        - {name: e, emptyDir: {}}
`;
const annotate = (ids: string, reason?: string) =>
  `    pvlint.dev/ignore: "${ids}"${reason ? `\n    pvlint.dev/ignore-reason: ${reason}` : ''}`;

function report(dir: string, args: string[] = []) {
  const run = runPvlint(['--format', 'json', ...args, '.'], { cwd: dir });
  assert.ok(run.code !== null && run.code < 2, run.stderr);
  return JSON.parse(run.stdout);
}

const ids = (list: any[]) => list.map((f) => `${f.ruleId}@${f.location.file}:${f.location.startLine}`).sort();

test('an annotation suppresses the rules it names on its resource, and nothing else', () => {
  const dir = repo({ 'web.yaml': deployment('web', annotate('pod-missing-pvc', 'the claim is created by the operator')) + deployment('api') });
  const json = report(dir, ['--show-suppressed']);
  assert.equal(ids(json.findings), ['duplicate-mount-path@web.yaml:16', 'duplicate-mount-path@web.yaml:32', 'pod-missing-pvc@web.yaml:34']);
  assert.is(json.summary.suppressed, 1);
  assert.equal(ids(json.suppressed), ['pod-missing-pvc@web.yaml:18']);
  assert.equal(json.suppressed[0].suppression, {
    kind: 'annotation',
    reason: 'the claim is created by the operator',
    location: { file: 'web.yaml', startLine: 8, startColumn: 5, endLine: 8, endColumn: 41 },
  });
  const validate = reportValidator();
  assert.ok(validate(json), describeErrors(validate.errors));
});

test('`all` suppresses every rule on the resource; several ids are comma-separated', () => {
  const dir = repo({ 'a.yaml': deployment('a', annotate('all')), 'b.yaml': deployment('b', annotate('duplicate-mount-path, pod-missing-pvc')) });
  const json = report(dir);
  assert.equal(json.findings, []);
  assert.is(json.summary.suppressed, 4);
  assert.not.ok('suppressed' in json, 'the list needs --show-suppressed');
});

test('text: suppressed findings are counted in the summary and listed with --show-suppressed, with the reason', () => {
  const dir = repo({ 'web.yaml': deployment('web', annotate('pod-missing-pvc')) });
  const plain = runPvlint(['.'], { cwd: dir });
  assert.match(plain.stdout, /✖ 1 problem \(1 error, 0 warnings, 0 notes\) in 1 file; 1 suppressed \(--show-suppressed lists them\)\n/);
  assert.not.match(plain.stdout, /suppressed by/);
  const shown = runPvlint(['--show-suppressed', '.'], { cwd: dir });
  assert.match(shown.stdout, /suppressed \(1\)\n  web\.yaml:17:\d+  note  pod-missing-pvc  /);
  assert.match(shown.stdout, /suppressed by pvlint\.dev\/ignore at web\.yaml:8: \(no reason given\)/);
  assert.match(shown.stdout, /in 1 file; 1 suppressed\n/);
});

test('SARIF leaves suppressed findings out (GitHub would open alerts for them)', () => {
  const dir = repo({ 'web.yaml': deployment('web', annotate('pod-missing-pvc')) });
  const run = runPvlint(['--format', 'sarif', '--show-suppressed', '.'], { cwd: dir });
  const results = JSON.parse(run.stdout).runs[0].results;
  assert.equal(results.map((r: any) => r.ruleId), ['duplicate-mount-path']);
  assert.not.match(run.stdout, /"suppressions"/);
});

test('config entries: by rule and resource globs (namespace as the cluster sees it), by path glob', () => {
  const files = {
    'apps/web.yaml': deployment('web-1') + deployment('web-2', '', 'other'),
    'legacy/old.yaml': deployment('old'),
    'default-ns.yaml': deployment('plain', '', ''),
    '.pvlint.yaml': [
      'suppress:',
      '  - rules: [pod-missing-pvc]',
      '    resource: {kind: Deploy*, namespace: shop, name: "web-*"}',
      '    reason: claims come from the operator',
      '  - rules: [all]',
      '    paths: ["legacy/**"]',
      '    reason: frozen, replaced next quarter',
      '  - rules: [duplicate-mount-path]',
      '    resource: {namespace: default}',
      '    reason: objects without a namespace land in default',
      '',
    ].join('\n'),
  };
  const json = report(repo(files), ['--show-suppressed']);
  assert.equal(ids(json.findings), [
    'duplicate-mount-path@apps/web.yaml:13', 'duplicate-mount-path@apps/web.yaml:29', 'pod-missing-pvc@apps/web.yaml:31', 'pod-missing-pvc@default-ns.yaml:14',
  ]);
  assert.equal(json.suppressed.map((f: any) => `${f.ruleId}@${f.location.file}<-${f.suppression.location.file}:${f.suppression.location.startLine} ${f.suppression.reason}`).sort(), [
    'duplicate-mount-path@default-ns.yaml<-.pvlint.yaml:8 objects without a namespace land in default',
    'duplicate-mount-path@legacy/old.yaml<-.pvlint.yaml:5 frozen, replaced next quarter',
    'pod-missing-pvc@apps/web.yaml<-.pvlint.yaml:2 claims come from the operator',
    'pod-missing-pvc@legacy/old.yaml<-.pvlint.yaml:5 frozen, replaced next quarter',
  ]);
  assert.equal(json.findings.filter((f: any) => f.ruleId === 'pvlint/unused-suppression'), []);
});

test('stale suppressions are notes: an unused annotation id, an unknown id, an unused config entry', () => {
  const files = {
    'web.yaml': deployment('web', annotate('pod-missing-pvc,rwo-claim-multi-node,no-such-rule', 'stale')),
    '.pvlint.yaml': 'suppress:\n  - rules: [pod-missing-pvc]\n    resource: {name: gone}\n    reason: the app was removed\n',
  };
  const json = report(repo(files));
  const notes = json.findings.filter((f: any) => f.ruleId === 'pvlint/unused-suppression');
  assert.equal(notes.map((f: any) => `${f.location.file}:${f.location.startLine} ${f.severity}`).sort(), ['.pvlint.yaml:2 note', 'web.yaml:8 note']);
  const messages = notes.map((f: any) => f.message).sort();
  assert.is(messages[0], 'pvlint.dev/ignore on Deployment web suppresses "rwo-claim-multi-node", but no such finding was reported on it; ' +
    'it names "no-such-rule", which is not a rule id (\'pvlint rules\' lists them): remove "rwo-claim-multi-node", "no-such-rule" from it');
  assert.match(messages[1], /^suppress entry \(rules pod-missing-pvc; resource name=gone\) matched no finding/);
  assert.is(json.summary.suppressed, 1, 'pod-missing-pvc was used');
  // The notes fail the run only at --fail-level note.
  assert.is(runPvlint(['.'], { cwd: repo({ 'web.yaml': deployment('x', annotate('rwo-claim-multi-node')).replace(/, \{name: e, mountPath: \/d\}/, '') }) }).code, 0);
});

test('a config entry is not stale when the run did not cover the files it is about', () => {
  const files = {
    'apps/a/web.yaml': deployment('a'),
    'apps/b/web.yaml': deployment('b'),
    '.pvlint.yaml': 'suppress:\n  - rules: [all]\n    paths: ["apps/b/**"]\n    reason: team b owns it\n',
  };
  const dir = repo(files);
  const partial = JSON.parse(runPvlint(['--format', 'json', 'apps/a'], { cwd: dir }).stdout);
  assert.equal(partial.findings.filter((f: any) => f.ruleId === 'pvlint/unused-suppression'), []);
  const whole = report(repo({ ...files, 'apps/b/web.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n' }));
  assert.is(whole.findings.filter((f: any) => f.ruleId === 'pvlint/unused-suppression').length, 1);
});

test('pvlint\'s own fatal diagnostics are never suppressed', () => {
  const dir = repo({
    'app/kustomization.yaml': 'resources: [cm.yaml]\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n',
    '.pvlint.yaml': 'kustomize: {command: /nonexistent/kustomize build}\nsuppress:\n  - rules: [all]\n    paths: ["**"]\n    reason: everything\n',
  });
  const run = runPvlint(['--format', 'json', '.'], { cwd: dir });
  assert.is(run.code, 2);
  assert.equal(JSON.parse(run.stdout).findings.map((f: any) => f.ruleId).sort(), ['pvlint/render', 'pvlint/unused-suppression']);
});

test('the formatters: counted always, listed on request, with the schema holding either way', () => {
  const location = (line: number) => ({ file: 'app.yaml', region: { startLine: line, startColumn: 3, endLine: line, endColumn: 9 } });
  const finding = (ruleId: string, line: number): Finding => ({
    ruleId, severity: 'error', messageId: 'm', message: `${ruleId} message`, data: {}, fix: 'fix it', location: location(line), related: [], environments: ['.'],
  });
  const result: LintResult = {
    findings: [finding('duplicate-mount-path', 4)],
    suppressed: [
      { ...finding('rwo-claim-multi-node', 9), suppression: { kind: 'config', reason: 'one replica', location: { file: '.pvlint.yaml', region: location(3).region } } },
      { ...finding('pod-missing-pvc', 12), severity: 'note', suppression: { kind: 'annotation', reason: '' } },
    ],
    fatal: false,
    scopes: [{ name: '.', kind: 'manifests', files: 1, resources: 2 }],
    root: '/repo',
    stats: { files: 1, documents: 2, resources: 2 },
  };
  const text = formatText(result, { color: false });
  assert.match(text, /✖ 1 problem \(1 error, 0 warnings, 0 notes\) in 1 file; 2 suppressed \(--show-suppressed lists them\)\n/);
  const listed = formatText(result, { color: false, showSuppressed: true });
  assert.match(listed, /suppressed \(2\)\n  app\.yaml:9:3  error  rwo-claim-multi-node  rwo-claim-multi-node message\n    suppressed by suppress entry at \.pvlint\.yaml:3: one replica\n/);
  assert.match(listed, /    suppressed by pvlint\.dev\/ignore: \(no reason given\)\n/);
  const validate = reportValidator();
  const counted = JSON.parse(formatJson(result, { toolVersion: '0.1.0' }));
  assert.is(counted.summary.suppressed, 2);
  assert.is(counted.summary.errors, 1, 'suppressed findings do not count as errors');
  assert.ok(validate(counted), describeErrors(validate.errors));
  const full = JSON.parse(formatJson(result, { toolVersion: '0.1.0', showSuppressed: true }));
  assert.equal(full.suppressed.map((f: any) => [f.ruleId, f.suppression.kind, f.suppression.location?.startLine ?? null]), [
    ['rwo-claim-multi-node', 'config', 3],
    ['pod-missing-pvc', 'annotation', null],
  ]);
  assert.ok(validate(full), describeErrors(validate.errors));
});

test.run();
