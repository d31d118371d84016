import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BUILTIN_RULES } from '../../src/registry.js';
import { lineHashes } from '../../src/report/fingerprint.js';
import { formatSarif } from '../../src/report/sarif.js';
import { isRepoFile, toUri } from '../../src/report/sarif-uri.js';
import { pascalCase } from '../../src/report/sarif-descriptor.js';
import type { LintResult } from '../../src/lint.js';
import { APP_YAML, lintFixture, type Fixture } from './fixture.js';
import { describeErrors, sarifValidator } from './schema-validators.js';

const DIAGNOSTIC_IDS = ['pvlint/config', 'pvlint/not-interpreted', 'pvlint/parse', 'pvlint/read', 'pvlint/limit', 'pvlint/shape', 'pvlint/render', 'pvlint/render-skipped', 'pvlint/helm-release', 'pvlint/chart-dependency', 'pvlint/rule-crash', 'pvlint/unused-suppression', 'pvlint/flux-substitution', 'pvlint/helm-ownership-conflict'];

const Sarif = suite<{ fixture: Fixture; log: any; text: string }>('sarif');

Sarif.before(async (context) => {
  context.fixture = await lintFixture({ stdin: true });
  context.text = formatSarif(context.fixture.result, BUILTIN_RULES, { toolVersion: '0.1.0', readFile: context.fixture.readFile });
  context.log = JSON.parse(context.text);
});

Sarif.after((context) => context.fixture.cleanup());

Sarif('validates against the official SARIF 2.1.0 schema', ({ log }) => {
  const validate = sarifValidator();
  assert.ok(validate(log), describeErrors(validate.errors));
});

Sarif('the schema validator rejects what GitHub rejects', ({ log }) => {
  const validate = sarifValidator();
  const broken = structuredClone(log);
  broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
  broken.runs[0].results[0].level = 'fatal';
  broken.runs[0].results[1].locations[0].physicalLocation.artifactLocation.uri = 'deploy/my app/pod.yaml';
  assert.not.ok(validate(broken));
  const paths = (validate.errors ?? []).map((e) => e.instancePath);
  assert.ok(paths.includes('/runs/0/results/0/locations/0/physicalLocation/region/startLine'));
  assert.ok(paths.includes('/runs/0/results/0/level'));
  assert.ok(paths.includes('/runs/0/results/1/locations/0/physicalLocation/artifactLocation/uri'));
});

Sarif('log, run and driver carry what GitHub requires', ({ log }) => {
  assert.is(log.version, '2.1.0');
  assert.is(log.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
  assert.is(log.runs.length, 1);
  const run = log.runs[0];
  assert.is(run.tool.driver.name, 'pvlint');
  assert.is(run.tool.driver.semanticVersion, '0.1.0');
  assert.is(run.columnKind, 'utf16CodeUnits');
  assert.equal(run.originalUriBaseIds, { '%SRCROOT%': { description: { text: 'The root of the repository pvlint linted.' } } });
  assert.is(run.automationDetails, undefined);
  assert.equal(run.invocations, [{ executionSuccessful: true }]);
});

Sarif('the driver lists every built-in rule and every pvlint diagnostic, fully described', ({ log }) => {
  const rules = log.runs[0].tool.driver.rules;
  assert.equal(
    rules.map((r: any) => r.id),
    [...BUILTIN_RULES.map((r) => r.id), ...DIAGNOSTIC_IDS],
  );
  for (const rule of rules) {
    assert.is(rule.name, pascalCase(rule.id));
    for (const text of [rule.shortDescription.text, rule.fullDescription.text, rule.help.text, rule.help.markdown]) {
      assert.type(text, 'string');
      assert.ok(text.length > 0, `${rule.id}: empty text`);
    }
    assert.ok(rule.shortDescription.text.length <= 1024 && rule.fullDescription.text.length <= 1024);
    assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level));
    assert.ok(rule.properties.tags.length > 0 && rule.properties.tags.length <= 10);
    assert.ok(['very-high', 'high', 'medium', 'low'].includes(rule.properties.precision));
  }
  const pod = rules.find((r: any) => r.id === 'pod-missing-pvc');
  assert.is(pod.name, 'PodMissingPvc');
  assert.is(pod.shortDescription.text, 'A pod template mounts a PersistentVolumeClaim that does not exist in its namespace.');
  assert.ok(pod.fullDescription.text.startsWith('Claims must exist in the same namespace as the pod.'));
  assert.is(pod.defaultConfiguration.level, 'note');
  assert.is(pod.properties['pvlint/catalogueId'], 'R21');
  assert.ok(pod.help.markdown.includes('### How to fix\n\nCreate the PVC in the pod\'s namespace'));
  assert.ok(pod.help.markdown.includes('- [Kubernetes docs: Persistent Volumes, "Claims As Volumes"](https://kubernetes.io/docs/concepts/storage/persistent-volumes/#claims-as-volumes)'));
  assert.ok(pod.help.markdown.includes('Run `pvlint explain pod-missing-pvc`'));
  assert.ok(pod.help.text.includes('When it stays silent: A claim that is not in the repo'));
  assert.ok(pod.help.text.includes('Where it points: The `claimName` of the volume.'));
  const parse = rules.find((r: any) => r.id === 'pvlint/parse');
  assert.is(parse.name, 'PvlintParse');
  assert.is(parse.defaultConfiguration.level, 'error');
  assert.not.ok(parse.help.text.includes('pvlint explain'));
});

Sarif('every result is locatable by GitHub', ({ log }) => {
  const { rules, } = log.runs[0].tool.driver;
  const results = log.runs[0].results;
  assert.is(results.length, 4);
  for (const result of results) {
    assert.is(rules[result.ruleIndex].id, result.ruleId);
    assert.ok(['error', 'warning', 'note'].includes(result.level));
    assert.ok(result.message.text.length > 0);
    assert.is(result.locations.length, 1);
    const { artifactLocation, region } = result.locations[0].physicalLocation;
    assert.not.ok(artifactLocation.uri.startsWith('/'), artifactLocation.uri);
    assert.not.ok(artifactLocation.uri.startsWith('file:'), artifactLocation.uri);
    assert.ok(region.startLine >= 1 && region.startColumn >= 1 && region.endLine >= region.startLine && region.endColumn >= 1);
  }
});

Sarif('results are sorted by uri, line, column and rule', ({ log }) => {
  const keys = log.runs[0].results.map((r: any) => {
    const { artifactLocation, region } = r.locations[0].physicalLocation;
    return `${artifactLocation.uri}:${region.startLine}:${region.startColumn}:${r.ruleId}`;
  });
  assert.equal(keys, [
    '%3Cstdin%3E:6:47:pod-missing-pvc',
    'broken.yaml:7:1:pvlint/parse',
    'deploy/app.yaml:17:13:pod-missing-pvc',
    'deploy/my%20app/pod.yaml:10:31:pod-missing-pvc',
  ]);
});

Sarif('a finding with a related location links to it from the message', ({ log, fixture }) => {
  const result = log.runs[0].results[2];
  assert.is(result.ruleId, 'pod-missing-pvc');
  assert.is(result.level, 'error');
  assert.is(
    result.message.text,
    'Deployment "web" in namespace "shop" mounts PersistentVolumeClaim "data", but a claim of that name exists only in namespace "default"; ' +
      'claims must be in the pod\'s namespace, so pods stay Pending. Related: [PVC "data" in namespace "default"](1).',
  );
  assert.equal(result.locations[0].physicalLocation, {
    artifactLocation: { uri: 'deploy/app.yaml', uriBaseId: '%SRCROOT%' },
    region: { startLine: 17, startColumn: 13, endLine: 17, endColumn: 28 },
  });
  assert.equal(result.relatedLocations, [
    {
      id: 1,
      message: { text: 'PVC "data" in namespace "default"' },
      physicalLocation: {
        artifactLocation: { uri: 'deploy/app.yaml', uriBaseId: '%SRCROOT%' },
        region: { startLine: 22, startColumn: 3, endLine: 22, endColumn: 13 },
      },
    },
  ]);
  assert.equal(result.properties, {
    'pvlint/environments': ['.'],
    'pvlint/resource': { kind: 'Deployment', namespace: 'shop', name: 'web' },
    'pvlint/path': ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'],
  });
  assert.is(result.partialFingerprints.primaryLocationLineHash, lineHashes(fixture.readFile('deploy/app.yaml')!)[16]);
  assert.is(fixture.readFile('deploy/app.yaml'), APP_YAML);
});

Sarif('repo files get a fingerprint of their start line; standard input gets none', ({ log, fixture }) => {
  for (const result of log.runs[0].results) {
    const { artifactLocation, region } = result.locations[0].physicalLocation;
    if (artifactLocation.uri === '%3Cstdin%3E') {
      assert.is(artifactLocation.uriBaseId, undefined);
      assert.is(result.partialFingerprints, undefined);
      continue;
    }
    assert.is(artifactLocation.uriBaseId, '%SRCROOT%');
    const hash = result.partialFingerprints.primaryLocationLineHash;
    assert.match(hash, /^[0-9a-f]+:\d+$/);
    assert.is(hash, lineHashes(fixture.readFile(decodeURIComponent(artifactLocation.uri))!)[region.startLine - 1]);
  }
});

Sarif('a file that cannot be read still gets a result, without fingerprint', ({ fixture }) => {
  const log = JSON.parse(formatSarif(fixture.result, BUILTIN_RULES, { toolVersion: '0.1.0', readFile: () => undefined }));
  assert.is(log.runs[0].results.length, 4);
  assert.ok(log.runs[0].results.every((r: any) => r.partialFingerprints === undefined));
});

Sarif('output is deterministic and machine-independent', ({ fixture, text }) => {
  const options = { toolVersion: '0.1.0', readFile: fixture.readFile };
  assert.is(formatSarif(fixture.result, BUILTIN_RULES, options), text);
  const shuffled: LintResult = { ...fixture.result, findings: [...fixture.result.findings].reverse() };
  assert.is(formatSarif(shuffled, BUILTIN_RULES, options), text);
  assert.not.ok(text.includes(fixture.root), 'absolute path of the repo leaked into the SARIF');
  assert.not.match(text, /\d{4}-\d{2}-\d{2}T\d{2}:/);
});

Sarif('category and informationUri are written only when given', ({ fixture }) => {
  const log = JSON.parse(
    formatSarif(fixture.result, BUILTIN_RULES, {
      toolVersion: '0.1.0',
      readFile: fixture.readFile,
      category: 'pvlint/prod',
      informationUri: 'https://example.invalid/pvlint',
    }),
  );
  assert.equal(log.runs[0].automationDetails, { id: 'pvlint/prod/' });
  assert.is(log.runs[0].tool.driver.informationUri, 'https://example.invalid/pvlint');
  const trailing = JSON.parse(formatSarif(fixture.result, BUILTIN_RULES, { toolVersion: '0.1.0', readFile: fixture.readFile, category: 'ci/' }));
  assert.equal(trailing.runs[0].automationDetails, { id: 'ci/' });
});

Sarif('no findings still gives a results array', async () => {
  const clean = await lintFixture({ files: { 'ok.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' } });
  try {
    const log = JSON.parse(formatSarif(clean.result, BUILTIN_RULES, { toolVersion: '0.1.0', readFile: clean.readFile }));
    assert.equal(log.runs[0].results, []);
    assert.ok(sarifValidator()(log));
  } finally {
    clean.cleanup();
  }
});

Sarif('unknown rule ids get a descriptor so ruleIndex stays valid; regions are clamped to 1', ({ fixture }) => {
  const finding = {
    ...fixture.result.findings[0],
    ruleId: 'custom/thing',
    location: { file: 'x.yaml', region: { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 } },
    related: [{ message: 'see [here]', location: { file: 'y.yaml', region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 5 } } }],
    note: 'points at the parent',
  };
  const log = JSON.parse(formatSarif({ ...fixture.result, findings: [finding] }, BUILTIN_RULES, { toolVersion: '0.1.0', readFile: () => undefined }));
  const result = log.runs[0].results[0];
  assert.is(log.runs[0].tool.driver.rules[result.ruleIndex].id, 'custom/thing');
  assert.equal(result.locations[0].physicalLocation.region, { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
  assert.ok(result.message.text.endsWith(' Related: [see \\[here\\]](1). Note: points at the parent.'), result.message.text);
  assert.ok(sarifValidator()(log));
});

Sarif('uri encoding and repo-file detection', () => {
  assert.is(toUri('deploy/my app/pod.yaml'), 'deploy/my%20app/pod.yaml');
  assert.is(toUri('a/b#c/100%.yaml'), 'a/b%23c/100%25.yaml');
  assert.is(toUri('k8s/größe.yaml'), 'k8s/gr%C3%B6%C3%9Fe.yaml');
  assert.is(toUri('<stdin>'), '%3Cstdin%3E');
  assert.ok(isRepoFile('deploy/app.yaml'));
  assert.not.ok(isRepoFile('<stdin>'));
  assert.not.ok(isRepoFile('/etc/passwd'));
  assert.not.ok(isRepoFile('../outside.yaml'));
});

Sarif.run();
