// examples/custom-rules: a repo with a .pvlint.yaml (cluster facts, options, suppressions) and a custom rule in
// TypeScript. Its markers hold when pvlint runs there; the rule passes its own rule tests and compiles against the
// public types under strict TypeScript.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fg from 'fast-glob';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadRuleFiles } from '../../src/config/custom-rules.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { expectedMarkers, ruleTester } from '../helpers/rule-tester.js';
import { runPvlint } from '../helpers/spawn.js';

const EXAMPLE = path.join(PROJECT_ROOT, 'examples', 'custom-rules');
const RULE_FILE = path.join(EXAMPLE, 'rules', 'prod-storage-class.ts');

const example = suite('example: custom rules and configuration');

example('pvlint in examples/custom-rules: every marker fires, suppressed findings are counted, nothing is stale', async () => {
  const run = runPvlint(['--format', 'json', '--show-suppressed'], { cwd: EXAMPLE });
  assert.is(run.code, 1, run.stderr);
  const report = JSON.parse(run.stdout);
  const files = (await fg('examples/custom-rules/**/*.yaml', { cwd: PROJECT_ROOT, dot: true })).sort();
  for (const file of files) {
    const actual = report.findings.filter((f: any) => f.location.file === file).map((f: any) => `${f.ruleId}@${f.location.startLine}`).sort();
    assert.equal(actual, expectedMarkers(readFileSync(path.join(PROJECT_ROOT, file), 'utf8')), file);
  }
  assert.equal(report.findings.filter((f: any) => !files.includes(f.location.file)).map((f: any) => f.ruleId), []);
  assert.equal(report.suppressed.map((f: any) => `${f.ruleId} ${f.suppression.kind} ${f.resource.name}`).sort(), [
    'acme/prod-storage-class annotation render-cache',
    'acme/prod-storage-class config migration-2024',
  ]);
});

const { rules, problems } = await loadRuleFiles([RULE_FILE], (file) => path.relative(PROJECT_ROOT, file));
assert.equal(problems, []);
const rule = rules[0].rule;

const claim = (namespace: string, storageClass?: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: ${namespace}}
spec:${storageClass === undefined ? '' : `\n  storageClassName: ${storageClass}`}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const gp3Default = { cluster: { storageClasses: [{ name: 'gp3', provisioner: 'ebs.csi.aws.com', default: true }] } };

ruleTester(rule, {
  valid: [
    { name: 'an allowed class in prod', code: claim('prod', 'gp3-encrypted') },
    { name: 'any class outside prod', code: claim('staging', 'fast') },
    { name: 'no class and no default class known', code: claim('prod') },
    { name: 'allowed classes from options', code: claim('prod', 'fast'), options: { allowedClasses: ['fast'] } },
    { name: 'another production namespace list', code: claim('prod', 'fast'), options: { namespaces: ['live'] } },
  ],
  invalid: [
    {
      name: 'a class that is not allowed in prod',
      code: claim('prod', 'fast'),
      errors: [{ messageId: 'notAllowed', path: ['spec', 'storageClassName'], line: 5, messageIncludes: ['"fast"', 'gp3-encrypted'] }],
    },
    {
      name: 'no class: the declared default class is not allowed',
      code: claim('prod'),
      model: gp3Default,
      errors: [{ messageId: 'defaultNotAllowed', path: ['spec'], messageIncludes: ['"gp3"'] }],
    },
    {
      name: 'a StatefulSet claim template in a namespace from options',
      code: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: live}
spec:
  template:
    spec:
      containers: [{name: db, image: db, volumeMounts: [{name: data, mountPath: /data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        storageClassName: fast
`,
      options: { namespaces: ['live'] },
      errors: [{ messageId: 'notAllowed', resource: 'StatefulSet/live/db', path: ['spec', 'volumeClaimTemplates', 0, 'spec', 'storageClassName'], messageIncludes: ['volumeClaimTemplate "data" of StatefulSet "db"'] }],
    },
  ],
});

example('the example rule compiles against the public types (strict TypeScript, `from "pvlint"`)', () => {
  const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [
    tsc, '--ignoreConfig', '--noEmit', '--strict', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--skipLibCheck', '--types', 'node', RULE_FILE,
  ], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  assert.is(result.status, 0, result.stdout + result.stderr);
});

example.run();
