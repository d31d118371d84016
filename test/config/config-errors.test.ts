// Every way a configuration can be wrong, each reported as `file:line:column: /pointer: what was expected`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { runPvlint } from '../helpers/spawn.js';
import { configProblems, repo, TS_RULE } from './helpers.js';

const test = suite('config errors');

const EXAMPLE_RULE = readFileSync(path.join(PROJECT_ROOT, 'examples', 'custom-rules', 'rules', 'prod-storage-class.ts'), 'utf8');

/** Each case: the configuration and the exact problem lines it must give (in order). */
const CASES: { name: string; config: string; files?: Record<string, string>; configName?: string; lines: (string | RegExp)[] }[] = [
  {
    name: 'YAML syntax error',
    config: 'rules:\n  pod-missing-pvc: [error\n',
    lines: [/^\.pvlint\.yaml:3:1: invalid YAML: /],
  },
  {
    name: 'duplicate key',
    config: 'failLevel: error\nfailLevel: note\n',
    lines: [/^\.pvlint\.yaml:2:1: invalid YAML: Map keys must be unique/],
  },
  {
    name: 'JSON syntax error in .pvlint.json',
    configName: '.pvlint.json',
    config: '{\n  "failLevel": "error",\n  "rules": {\n}\n',
    lines: [/^\.pvlint\.json:\d+:\d+: invalid JSON: /],
  },
  {
    name: 'a list instead of a mapping',
    config: '- rules\n',
    lines: ['.pvlint.yaml:1:1: /: expected a mapping, got a list'],
  },
  {
    name: 'unknown top-level key, with a suggestion',
    config: 'failLevel: error\nignores: [vendor/**]\n',
    lines: ['.pvlint.yaml:2:1: /ignores: unknown key "ignores" (did you mean "ignore"?)'],
  },
  {
    name: 'unknown key without a near miss lists the keys',
    config: 'colour: red\n',
    lines: ['.pvlint.yaml:1:1: /colour: unknown key "colour"; expected one of $schema, extends, rules, ruleFiles, customRuleTimeout, ignore, failLevel, cluster, helm, kustomize, clusters, gitops, suppress'],
  },
  {
    name: 'bad extends',
    config: 'extends: strict\n',
    lines: ['.pvlint.yaml:1:1: /extends: expected one of recommended, all; got "strict"'],
  },
  {
    name: 'severity "warn" (ESLint spelling)',
    config: 'rules:\n  pod-missing-pvc: warn\n',
    lines: ['.pvlint.yaml:2:3: /rules/pod-missing-pvc: expected one of off, note, warning, error; got "warn" (did you mean "warning"?)'],
  },
  {
    name: 'severity tuple of one item',
    config: 'rules:\n  pod-missing-pvc: [error]\n',
    lines: ['.pvlint.yaml:2:3: /rules/pod-missing-pvc: expected at least 2 items'],
  },
  {
    name: 'severity object with an unknown key',
    config: 'rules:\n  pod-missing-pvc: {level: error}\n',
    lines: ['.pvlint.yaml:2:21: /rules/pod-missing-pvc/level: unknown key "level"; expected one of severity, options'],
  },
  {
    name: 'unknown rule id, with a suggestion',
    config: 'rules:\n  rwo-claim-multinode: error\n',
    lines: ['.pvlint.yaml:2:3: /rules/rwo-claim-multinode: unknown rule "rwo-claim-multinode" (did you mean "rwo-claim-multi-node"?)'],
  },
  {
    name: 'unknown rule id without a near miss',
    config: 'rules:\n  no-such-thing: off\n',
    lines: [".pvlint.yaml:2:3: /rules/no-such-thing: unknown rule \"no-such-thing\" ('pvlint rules' lists them)"],
  },
  {
    name: 'options for a rule that takes none',
    config: 'rules:\n  pod-missing-pvc: [error, {strict: true}]\n',
    lines: ['.pvlint.yaml:2:28: /rules/pod-missing-pvc/1: rule "pod-missing-pvc" takes no options'],
  },
  {
    name: "options that fail the rule's own schema",
    config: 'ruleFiles: [rules/prod-storage-class.ts]\nrules:\n  acme/prod-storage-class:\n    severity: error\n    options:\n      allowedClasses: []\n      namespace: prod\n',
    files: { 'rules/prod-storage-class.ts': EXAMPLE_RULE },
    lines: [
      '.pvlint.yaml:6:7: /rules/acme~1prod-storage-class/options/allowedClasses: expected at least 1 item',
      '.pvlint.yaml:7:7: /rules/acme~1prod-storage-class/options/namespace: unknown key "namespace" (did you mean "namespaces"?)',
    ],
  },
  {
    name: 'unquoted Kubernetes version',
    config: 'cluster:\n  kubernetesVersion: 1.30\n',
    lines: ['.pvlint.yaml:2:3: /cluster/kubernetesVersion: expected a string, got number 1.3 (write it in quotes, "1.30": YAML reads 1.30 as a number)'],
  },
  {
    name: 'malformed Kubernetes version',
    config: 'cluster:\n  kubernetesVersion: "latest"\n',
    lines: ['.pvlint.yaml:2:3: /cluster/kubernetesVersion: expected a version such as "1.30"; got "latest"'],
  },
  {
    name: 'StorageClass without provisioner, and a yes/no boolean',
    config: 'cluster:\n  storageClasses:\n    - name: gp3\n      default: yes\n',
    lines: [
      '.pvlint.yaml:3:7: /cluster/storageClasses/0/provisioner: missing required key "provisioner"',
      '.pvlint.yaml:4:7: /cluster/storageClasses/0/default: expected a boolean, got the string "yes" (write true or false)',
    ],
  },
  {
    name: 'StorageClass declared twice',
    config: 'cluster:\n  storageClasses:\n    - {name: gp3, provisioner: ebs.csi.aws.com}\n    - {name: gp3, provisioner: ebs.csi.aws.com}\n',
    lines: ['.pvlint.yaml:4:8: /cluster/storageClasses/1/name: StorageClass "gp3" is declared twice (also at line 3)'],
  },
  {
    name: 'bad binding mode and mesh setting',
    config: 'cluster:\n  storageClasses:\n    - {name: a, provisioner: b, volumeBindingMode: Lazy}\n  mesh:\n    nativeSidecars: maybe\n',
    lines: [
      '.pvlint.yaml:3:33: /cluster/storageClasses/0/volumeBindingMode: expected one of Immediate, WaitForFirstConsumer; got "Lazy"',
      '.pvlint.yaml:5:5: /cluster/mesh/nativeSidecars: expected one of true, false, auto; got "maybe"',
    ],
  },
  {
    name: 'driver override with a capability the schema does not know',
    config: 'cluster:\n  drivers:\n    - {name: x.csi.io, rwx: sometimes}\n',
    lines: ['.pvlint.yaml:3:24: /cluster/drivers/0/rwx: expected one of yes, no, block-only, conditional, unknown, true, false; got "sometimes"'],
  },
  {
    name: 'driver declared twice',
    config: 'cluster:\n  drivers:\n    - {name: x.csi.io, attach: required}\n    - {name: x.csi.io, rwx: "no"}\n',
    lines: ['.pvlint.yaml:4:8: /cluster/drivers/1/name: driver "x.csi.io" is declared twice'],
  },
  {
    name: 'suppression without resource or paths, and without reason',
    config: 'suppress:\n  - rules: [rwo-claim-multi-node]\n',
    lines: [
      '.pvlint.yaml:2:5: /suppress/0: expected "resource" or "paths" (or both)',
      '.pvlint.yaml:2:5: /suppress/0/reason: missing required key "reason"',
    ],
  },
  {
    name: 'suppression with an empty reason and an empty resource',
    config: 'suppress:\n  - rules: [rwo-claim-multi-node]\n    resource: {}\n    reason: " "\n',
    lines: [
      '.pvlint.yaml:3:5: /suppress/0/resource: expected at least one of kind, namespace, name',
      '.pvlint.yaml:4:5: /suppress/0/reason: expected a non-empty text',
    ],
  },
  {
    name: 'suppression naming an unknown rule',
    config: 'suppress:\n  - rules: [all, rwo-claim-multi-nod]\n    paths: [legacy/**]\n    reason: legacy\n',
    lines: ['.pvlint.yaml:2:18: /suppress/0/rules/1: unknown rule "rwo-claim-multi-nod" (did you mean "rwo-claim-multi-node"?)'],
  },
  {
    name: 'ruleFiles entry that does not exist',
    config: 'ruleFiles:\n  - rules/missing.ts\n',
    lines: ['.pvlint.yaml:2:5: /ruleFiles/0: rule file or directory "rules/missing.ts" does not exist'],
  },
  {
    name: 'ruleFiles directory without rules, and a file of another type',
    config: 'ruleFiles: [empty, notes.txt]\n',
    files: { 'empty/README.md': '# nothing\n', 'notes.txt': 'x\n' },
    lines: [
      '.pvlint.yaml:1:13: /ruleFiles/0: directory "empty" holds no .ts, .mts, .js or .mjs rule files',
      '.pvlint.yaml:1:20: /ruleFiles/1: "notes.txt" is not a .ts, .mts, .js or .mjs file',
    ],
  },
  {
    name: 'Helm chart directory without Chart.yaml, missing values file',
    config: 'helm:\n  values: [common.yaml]\n  charts:\n    charts/web:\n      values: [prod.yaml]\n',
    lines: [
      '.pvlint.yaml:2:12: /helm/values/0: values file "common.yaml" does not exist (paths are relative to the configuration file)',
      '.pvlint.yaml:4:5: /helm/charts/charts~1web: "charts/web" is not a chart directory (no Chart.yaml; paths are relative to the configuration file)',
      '.pvlint.yaml:5:16: /helm/charts/charts~1web/values/0: values file "prod.yaml" does not exist (paths are relative to the configuration file)',
    ],
  },
  {
    name: 'Kustomize command that enables plugins',
    config: 'kustomize:\n  command: kustomize build --enable-alpha-plugins\n',
    lines: ['.pvlint.yaml:2:3: /kustomize/command: kustomize.command must not enable plugins (--enable-alpha-plugins): pvlint never runs kustomize exec or alpha plugins'],
  },
  {
    name: 'a custom .ts rule with an enum: the rule file and line',
    config: 'ruleFiles: [rules]\n',
    files: { 'rules/tiers.ts': "import { defineRule } from 'pvlint';\n\nexport enum Tier { Gold, Silver }\n\nexport default defineRule({} as any);\n" },
    lines: [/^rules\/tiers\.ts:3:8: enum Tier: enums have runtime meaning in TypeScript and cannot be erased; .* \(ruleFiles entry at \.pvlint\.yaml:1:13\)$/],
  },
  {
    name: 'a custom rule whose default export is not a rule',
    config: 'ruleFiles: [rules/helper.mjs]\n',
    files: { 'rules/helper.mjs': 'export const x = 1;\n\nexport default { name: "not a rule" };\n' },
    lines: [/^rules\/helper\.mjs:3:1: rule id undefined is not a lower-case kebab-case id .*\(ruleFiles entry at \.pvlint\.yaml:1:13\)$/],
  },
  {
    name: 'a custom rule that throws while loading',
    config: 'ruleFiles: [rules/boom.ts]\n',
    files: { 'rules/boom.ts': 'const config: string[] = [];\nconst first: string = config[0]!.trim();\nexport default first;\n' },
    lines: [/^rules\/boom\.ts:2:\d+: cannot load the rule module: .*trim.* \(ruleFiles entry at \.pvlint\.yaml:1:13\)$/],
  },
  {
    name: 'custom rule ids that clash with a built-in rule and with each other',
    config: 'ruleFiles: [rules]\n',
    files: { 'rules/a.ts': TS_RULE('pod-missing-pvc'), 'rules/b.ts': TS_RULE('acme/twice'), 'rules/c.ts': TS_RULE('acme/twice') },
    lines: [
      /^rules\/a\.ts:6:3: custom rule id "pod-missing-pvc" is the id of a built-in rule; choose another \(e\.g\. "acme\/pod-missing-pvc"\)/,
      /^rules\/c\.ts:6:3: custom rule id "acme\/twice" is also defined in rules\/b\.ts/,
    ],
  },
];

for (const c of CASES) {
  test(c.name, async () => {
    const name = c.configName ?? '.pvlint.yaml';
    const dir = repo({ [name]: c.config, ...(c.files ?? {}) });
    const lines = await configProblems(dir, name);
    assert.is(lines.length, c.lines.length, lines.join('\n'));
    c.lines.forEach((expected, i) => {
      if (typeof expected === 'string') assert.is(lines[i], expected);
      else assert.match(lines[i], expected);
    });
  });
}

test('the binary: an invalid configuration exits 2 with one line per problem on stderr, and lints nothing', () => {
  const dir = repo({ '.pvlint.yaml': 'failLevel: fatal\nrules:\n  pod-missing-pvc: warn\n', 'pvc.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
  const run = runPvlint(['.'], { cwd: dir });
  assert.is(run.code, 2);
  assert.is(run.stdout, '');
  assert.equal(run.stderr.trimEnd().split('\n'), [
    '.pvlint.yaml:1:1: /failLevel: expected one of error, warning, note; got "fatal"',
    '.pvlint.yaml:3:3: /rules/pod-missing-pvc: expected one of off, note, warning, error; got "warn" (did you mean "warning"?)',
  ]);
});

test('the binary: --config naming a missing file, and --config with --no-config, are usage errors', () => {
  const dir = repo({});
  const missing = runPvlint(['--config', 'nope.yaml', '.'], { cwd: dir });
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /^pvlint: configuration file not found: nope\.yaml\n/);
  const both = runPvlint(['--config', 'x.yaml', '--no-config', '.'], { cwd: dir });
  assert.is(both.code, 2);
  assert.match(both.stderr, /--config and --no-config exclude each other/);
});

test('the binary: a configuration in a parent directory reports paths relative to the working directory', () => {
  const dir = repo({ '.pvlint.yaml': 'extends: none\n', 'apps/web/pvc.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
  const run = runPvlint(['.'], { cwd: path.join(dir, 'apps', 'web') });
  assert.is(run.code, 2);
  assert.is(run.stderr, '../../.pvlint.yaml:1:1: /extends: expected one of recommended, all; got "none"\n');
});

test.run();
