import kleur from 'kleur';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatText } from '../../src/report/text.js';
import type { LintResult } from '../../src/lint.js';
import type { Finding } from '../../src/types.js';
import { lintFixture, type Fixture } from './fixture.js';

const ANSI = /\u001b\[/;

const Text = suite<{ fixture: Fixture; plain: string }>('text');

Text.before(async (context) => {
  context.fixture = await lintFixture({ stdin: true });
  context.plain = formatText(context.fixture.result, { color: false });
});

Text.after((context) => context.fixture.cleanup());

Text('groups findings under their file with line:col, severity, message and rule id', ({ plain }) => {
  const lines = plain.split('\n');
  const header = lines.indexOf('deploy/app.yaml');
  assert.ok(header > 0, plain);
  assert.is(lines[header + 1], '  17:13  error  pod-missing-pvc');
  assert.is(
    lines[header + 2],
    '         Deployment "web" in namespace "shop" mounts PersistentVolumeClaim "data", but a claim of that name',
  );
  assert.is(lines[header + 3], `         exists only in namespace "default"; claims must be in the pod's namespace, so pods stay Pending.`);
  assert.is(
    lines[header + 4],
    "         fix: Create the PVC in the pod's namespace (or move the workload next to it). " +
      'For per-replica storage use a StatefulSet with volumeClaimTemplates or a generic ephemeral volume.',
  );
  assert.is(lines[header + 5], '         related: deploy/app.yaml:22  PVC "data" in namespace "default"');
  assert.not.ok(plain.includes('environments:'), 'loose manifests are one environment per argument: not named');
  assert.ok(lines.includes('deploy/my app/pod.yaml'));
  assert.ok(lines.includes('broken.yaml'));
  assert.ok(lines.includes('<stdin>'));
  assert.match(plain, /  7:1  error  pvlint\/parse\n +YAML syntax error in document 1:/);
});

Text('summary and hint', ({ plain }) => {
  assert.ok(plain.endsWith("\n✖ 4 problems (2 errors, 0 warnings, 2 notes) in 4 files\nRun 'pvlint explain <rule-id>' for a rule's full page.\n"), plain);
});

Text('colour off has no escapes; colour on has them, whatever kleur was left at', ({ fixture, plain }) => {
  assert.not.match(plain, ANSI);
  const before = kleur.enabled;
  try {
    kleur.enabled = false;
    const colored = formatText(fixture.result, { color: true });
    assert.match(colored, ANSI);
    assert.ok(colored.includes('\u001b[31merror\u001b[39m'));
    assert.is(kleur.enabled, false, 'formatText must restore kleur.enabled');
    kleur.enabled = true;
    assert.is(formatText(fixture.result, { color: false }), plain);
    assert.is(kleur.enabled, true);
  } finally {
    kleur.enabled = before;
  }
});

Text('quiet lists errors only and says what it hid', ({ fixture }) => {
  const quiet = formatText(fixture.result, { color: false, quiet: true });
  assert.not.ok(quiet.includes(' note '));
  assert.not.ok(quiet.includes('deploy/my app/pod.yaml'));
  assert.ok(quiet.includes('deploy/app.yaml\n'));
  assert.ok(quiet.includes('\n✖ 2 problems (2 errors, 0 warnings, 0 notes) in 2 files; 2 notes not shown (--quiet)\n'), quiet);
});

function finding(overrides: Partial<Finding>): Finding {
  return {
    ruleId: 'rwo-claim-multi-node',
    severity: 'warning',
    messageId: 'm',
    message: 'Claim "data" is ReadWriteOnce but mounted by 3 replicas.',
    data: {},
    fix: 'Use a StatefulSet.',
    location: { file: 'base/deploy.yaml', region: { startLine: 9, startColumn: 5, endLine: 9, endColumn: 20 } },
    related: [],
    environments: [''],
    ...overrides,
  };
}

function result(findings: Finding[]): LintResult {
  return { findings, fatal: false, scopes: [{ name: '', kind: 'manifests', files: 3, resources: 7 }], root: '/repo', stats: { files: 3, documents: 7, resources: 7 } };
}

Text('columns align within a file; note and environments lines', () => {
  const text = formatText(
    result([
      finding({ environments: ['overlays/dev', 'overlays/prod'], note: 'set by the base; the overlay patch does not touch it' }),
      finding({ severity: 'note', message: 'Short.', ruleId: 'pod-missing-pvc', fix: '', location: { file: 'base/deploy.yaml', region: { startLine: 120, startColumn: 11, endLine: 120, endColumn: 12 } } }),
    ]),
    { color: false },
  );
  assert.is(
    text,
    [
      'base/deploy.yaml',
      '    9:5   warning  rwo-claim-multi-node',
      '          Claim "data" is ReadWriteOnce but mounted by 3 replicas.',
      '          fix: Use a StatefulSet.',
      '          note: set by the base; the overlay patch does not touch it',
      '          environments: overlays/dev, overlays/prod',
      '  120:11  note     pod-missing-pvc',
      '          Short.',
      '',
      '✖ 2 problems (0 errors, 1 warning, 1 note) in 1 file',
      "Run 'pvlint explain <rule-id>' for a rule's full page.",
      '',
    ].join('\n'),
  );
});

Text('no findings', () => {
  assert.is(formatText(result([]), { color: false }), '✔ no problems in 3 files (7 resources)\n');
  assert.is(formatText(result([finding({})]), { color: false, quiet: true }), '✔ no errors in 3 files (7 resources); 1 warning not shown (--quiet)\n');
});

Text('only pvlint diagnostics: the explain hint too (pvlint explain serves pvlint/* ids)', () => {
  const text = formatText(result([finding({ ruleId: 'pvlint/parse', severity: 'error', fix: '' })]), { color: false });
  assert.ok(text.endsWith("✖ 1 problem (1 error, 0 warnings, 0 notes) in 1 file\nRun 'pvlint explain <rule-id>' for a rule's full page.\n"), text);
});

Text.run();
