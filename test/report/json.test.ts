import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatJson } from '../../src/report/json.js';
import type { LintResult } from '../../src/lint.js';
import { lintFixture, type Fixture } from './fixture.js';
import { describeErrors, reportValidator } from './schema-validators.js';

const Json = suite<{ fixture: Fixture; text: string; report: any }>('json');

Json.before(async (context) => {
  context.fixture = await lintFixture({ stdin: true });
  context.text = formatJson(context.fixture.result, { toolVersion: '0.1.0' });
  context.report = JSON.parse(context.text);
});

Json.after((context) => context.fixture.cleanup());

Json('validates against schemas/report.schema.json (Ajv 2020-12, strict)', ({ report }) => {
  const validate = reportValidator();
  assert.ok(validate(report), describeErrors(validate.errors));
});

Json('the schema is not vacuous', ({ report }) => {
  const validate = reportValidator();
  const broken = structuredClone(report);
  broken.findings[0].location.startLine = 0;
  broken.findings[1].severity = 'fatal';
  broken.findings[2].extra = true;
  delete broken.summary.files;
  assert.not.ok(validate(broken));
  const paths = (validate.errors ?? []).map((e) => e.instancePath);
  assert.ok(paths.includes('/findings/0/location/startLine'));
  assert.ok(paths.includes('/findings/1/severity'));
  assert.ok(paths.includes('/findings/2'));
  assert.ok(paths.includes('/summary'));
});

Json('versioned header and summary', ({ report }) => {
  assert.is(report.schemaVersion, 1);
  assert.equal(report.tool, { name: 'pvlint', version: '0.1.0' });
  assert.equal(report.summary, {
    errors: 2,
    warnings: 0,
    notes: 2,
    fatal: false,
    files: 4,
    documents: 5,
    resources: 4,
    environments: [{ name: '.', kind: 'manifests', files: 3, resources: 3 }, { name: '<stdin>', kind: 'manifests', files: 1, resources: 1 }],
    suppressed: 0,
    templates: 0,
    templateFiles: [],
  });
});

Json('findings are sorted and complete', ({ report }) => {
  assert.equal(
    report.findings.map((f: any) => `${f.location.file}:${f.location.startLine}:${f.location.startColumn} ${f.ruleId}`),
    ['<stdin>:6:47 pod-missing-pvc', 'broken.yaml:7:1 pvlint/parse', 'deploy/app.yaml:17:13 pod-missing-pvc', 'deploy/my app/pod.yaml:10:31 pod-missing-pvc'],
  );
  const parse = report.findings[1];
  assert.is(parse.severity, 'error');
  assert.is(parse.messageId, 'parse');
  assert.equal(parse.data, {});
  assert.is(parse.resource, null);
  assert.is(parse.path, null);
  assert.equal(parse.related, []);
  assert.is(parse.fix, 'Fix the YAML syntax at this position; the other documents of the file are still linted.');

  const other = report.findings[2];
  assert.equal(other.location, { file: 'deploy/app.yaml', startLine: 17, startColumn: 13, endLine: 17, endColumn: 28 });
  assert.equal(other.related, [
    { message: 'PVC "data" in namespace "default"', location: { file: 'deploy/app.yaml', startLine: 22, startColumn: 3, endLine: 22, endColumn: 13 } },
  ]);
  assert.equal(other.resource, { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' });
  assert.equal(other.path, ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName']);
  assert.equal(other.environments, ['.']);
  // Data keys are sorted, whatever order the rule built them in.
  assert.equal(Object.keys(other.data), ['claim', 'kind', 'namespace', 'others', 'workload']);
  assert.not.ok('note' in other);
});

Json('deterministic, pretty-printed, no absolute paths', ({ fixture, text }) => {
  const shuffled: LintResult = { ...fixture.result, findings: [...fixture.result.findings].reverse() };
  assert.is(formatJson(shuffled, { toolVersion: '0.1.0' }), text);
  assert.ok(text.startsWith('{\n  "schemaVersion": 1,\n'));
  assert.ok(text.endsWith('}\n'));
  assert.not.ok(text.includes(fixture.root));
});

Json('a finding with a note and an unset namespace', ({ fixture }) => {
  const base = fixture.result.findings.find((f) => f.ruleId === 'pod-missing-pvc')!;
  const finding = { ...base, note: 'points at the parent', resource: { apiVersion: 'v1', kind: 'Pod', name: 'p' } };
  const report = JSON.parse(formatJson({ ...fixture.result, findings: [finding] }, { toolVersion: '0.1.0' }));
  assert.is(report.findings[0].note, 'points at the parent');
  assert.equal(report.findings[0].resource, { apiVersion: 'v1', kind: 'Pod', namespace: null, name: 'p' });
  assert.ok(reportValidator()(report));
});

Json.run();
