// `--format github`: GitHub Actions workflow-command annotations. Each line is read back with a transcription of
// the runner's own parser (actions/runner src/Runner.Common/ActionCommand.cs: TryParseV2, UnescapeProperty,
// UnescapeData) and checked against its ValidateLinesAndColumns, so escaping and ranges are what the runner
// accepts unchanged. The escaping itself follows actions/toolkit packages/core/src/command.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LintResult } from '../../src/lint.js';
import { escapeData, escapeProperty, formatGithub, formatGithubAnnotation } from '../../src/report/github.js';
import type { Finding, Region, Severity } from '../../src/types.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';

const github = suite('format github');

// ---- the runner's parser, transcribed ----
const DATA_UNESCAPES: [string, string][] = [['%0D', '\r'], ['%0A', '\n'], ['%25', '%']];
const PROPERTY_UNESCAPES: [string, string][] = [['%0D', '\r'], ['%0A', '\n'], ['%3A', ':'], ['%2C', ','], ['%25', '%']];
const unescape = (text: string, table: [string, string][]) => table.reduce((s, [from, to]) => s.split(from).join(to), text);

interface ParsedCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
}

function parseCommand(line: string): ParsedCommand | undefined {
  const message = line.trimStart();
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!['error', 'warning', 'notice'].includes(command)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const part of info.slice(space + 1).trim().split(',').filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq > 0 && eq < part.length - 1) properties[part.slice(0, eq)] = unescape(part.slice(eq + 1), PROPERTY_UNESCAPES);
    }
  }
  return { command, properties, data: unescape(message.slice(end + 2), DATA_UNESCAPES) };
}

/** The properties ValidateLinesAndColumns would remove or rewrite; [] when it leaves them alone. */
function runnerCorrections(p: Record<string, string>): string[] {
  const num = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);
  const [line, endLine, col, endColumn] = [num(p.line), num(p.endLine), num(p.col), num(p.endColumn)];
  const out: string[] = [];
  if (endLine !== undefined && line === undefined) out.push('endLine without line');
  if (endColumn !== undefined && col === undefined) out.push('endColumn without col');
  if (line === undefined && (col !== undefined || endColumn !== undefined)) out.push('columns without line');
  if (endLine !== undefined && p.line !== p.endLine && (col !== undefined || endColumn !== undefined)) out.push('columns on a multi-line range');
  if (line !== undefined && endLine !== undefined && endLine < line) out.push('endLine < line');
  if (col !== undefined && endColumn !== undefined && endColumn < col) out.push('endColumn < col');
  return out;
}

// ---- findings ----
function finding(over: Partial<Finding> & { file?: string; region?: Region } = {}): Finding {
  const { file = 'deploy/app.yaml', region = { startLine: 11, startColumn: 13, endLine: 11, endColumn: 28 }, ...rest } = over;
  return {
    ruleId: 'pod-missing-pvc',
    severity: 'error',
    messageId: 'missing',
    message: 'Deployment "web" mounts PersistentVolumeClaim "data", which is not in namespace "shop".',
    data: {},
    fix: 'Create the PVC in the pod\'s namespace.',
    location: { file, region },
    related: [],
    environments: [''],
    ...rest,
  };
}

function result(findings: Finding[]): LintResult {
  return { findings, fatal: false, scopes: [], root: '/repo', stats: { files: 3, documents: 4, resources: 4 } };
}

github('escaping: data escapes % CR LF; properties also : and , (as @actions/core does)', () => {
  assert.is(escapeData('100% done\r\nnext: a,b'), '100%25 done%0D%0Anext: a,b');
  assert.is(escapeProperty('100% done\r\nnext: a,b'), '100%25 done%0D%0Anext%3A a%2Cb');
  assert.is(escapeData('%0A'), '%250A');
});

github('severities map to error, warning and notice; title is the rule id', () => {
  const levels: [Severity, string][] = [['error', 'error'], ['warning', 'warning'], ['note', 'notice']];
  for (const [severity, command] of levels) {
    const parsed = parseCommand(formatGithubAnnotation(finding({ severity, ruleId: 'rwo-claim-multi-node' })))!;
    assert.is(parsed.command, command);
    assert.is(parsed.properties.title, 'rwo-claim-multi-node');
  }
});

github('a one-line region: file, line, col, endLine, endColumn exactly, in that order', () => {
  const line = formatGithubAnnotation(finding());
  assert.ok(line.startsWith('::error file=deploy/app.yaml,line=11,col=13,endLine=11,endColumn=28,title=pod-missing-pvc::'), line);
  assert.equal(runnerCorrections(parseCommand(line)!.properties), []);
});

github('a multi-line region is a line range without columns (the runner drops columns there)', () => {
  const parsed = parseCommand(formatGithubAnnotation(finding({ region: { startLine: 4, startColumn: 3, endLine: 9, endColumn: 1 } })))!;
  assert.equal(parsed.properties, { file: 'deploy/app.yaml', line: '4', endLine: '9', title: 'pod-missing-pvc' });
  assert.equal(runnerCorrections(parsed.properties), []);
});

github('degenerate regions never make the runner correct anything', () => {
  const regions: Region[] = [
    { startLine: 0, startColumn: 0, endLine: 0, endColumn: 0 },
    { startLine: 5, startColumn: 9, endLine: 5, endColumn: 2 },
    { startLine: 7, startColumn: 1, endLine: 3, endColumn: 1 },
  ];
  for (const region of regions) {
    const parsed = parseCommand(formatGithubAnnotation(finding({ region })))!;
    assert.equal(runnerCorrections(parsed.properties), [], JSON.stringify(region));
    assert.ok(Number(parsed.properties.line) >= 1);
  }
});

github('hostile text survives the round trip through the runner parser', () => {
  const nasty = 'a::b, c=d: 100% %0A %25 %3A\r\nline two\nline three ::warning file=x::';
  const file = 'odd dir/a,b:c=%20.yaml';
  const parsed = parseCommand(
    formatGithubAnnotation(finding({ file, message: nasty, fix: '', related: [], ruleId: 'rule,with:odd' })),
  )!;
  assert.is(parsed.command, 'error');
  assert.is(parsed.properties.file, file);
  assert.is(parsed.properties.title, 'rule,with:odd');
  assert.is(parsed.data, nasty.trim());
  assert.equal(Object.keys(parsed.properties), ['file', 'line', 'col', 'endLine', 'endColumn', 'title']);
});

github('every annotation is one physical line; the message carries fix, related, note and environments', () => {
  const f = finding({
    related: [{ message: 'PVC "data" in namespace "app"', location: { file: 'base/pvc.yaml', region: { startLine: 3, startColumn: 1, endLine: 3, endColumn: 5 } } }],
    note: 'line approximate: rendered by Helm',
    environments: ['overlays/dev', 'overlays/prod'],
  });
  const line = formatGithubAnnotation(f);
  assert.not.match(line, /[\r\n]/);
  assert.is(
    parseCommand(line)!.data,
    [f.message, `Fix: ${f.fix}`, 'Related: base/pvc.yaml:3 PVC "data" in namespace "app"', 'Note: line approximate: rendered by Helm', 'Environments: overlays/dev, overlays/prod'].join('\n'),
  );
});

github('standard input has no file in the checkout: the annotation carries only a title', () => {
  const parsed = parseCommand(formatGithubAnnotation(finding({ file: '<stdin>' })))!;
  assert.equal(parsed.properties, { title: 'pod-missing-pvc' });
});

github('the report: errors first, each kind in report order, then a plain summary line that is no command', () => {
  const report = formatGithub(
    result([
      finding({ file: 'b.yaml', severity: 'warning', ruleId: 'rwo-update-overlap' }),
      finding({ file: 'a.yaml' }),
      finding({ file: 'a.yaml', severity: 'note', region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 4 } }),
    ]),
  );
  const lines = report.trimEnd().split('\n');
  assert.equal(lines.slice(0, 3).map((l) => `${parseCommand(l)!.command} ${parseCommand(l)!.properties.file}:${parseCommand(l)!.properties.line}`), [
    'error a.yaml:11',
    'warning b.yaml:11',
    'notice a.yaml:2',
  ]);
  // Files with findings, as the text format counts them.
  assert.is(lines[3], 'pvlint: 1 error, 1 warning, 1 note in 2 files');
  assert.is(parseCommand(lines[3]), undefined);
  assert.ok(report.endsWith('\n'));
  assert.is(formatGithub(result([])), 'pvlint: no problems in 3 files\n');
});

const CLEAN = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: app}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const WRONG_NAMESPACE = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
      volumes:
        - name: d
          persistentVolumeClaim:
            claimName: data
`;

github('CLI: --format github prints annotations and keeps the exit codes', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN, 'deploy.yaml': WRONG_NAMESPACE });
  const run = runPvlint(['--format', 'github', '.'], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  const [first, summary] = run.stdout.trimEnd().split('\n');
  const parsed = parseCommand(first)!;
  assert.is(parsed.command, 'error');
  assert.is(parsed.properties.file, 'deploy.yaml');
  assert.is(parsed.properties.line, '11');
  assert.is(parsed.properties.title, 'pod-missing-pvc');
  assert.match(summary, /^pvlint: 1 error/);
  const clean = runPvlint(['-f', 'github', 'pvc.yaml'], { cwd: dir });
  assert.is(clean.code, 0, clean.stderr);
  assert.is(clean.stdout, 'pvlint: no problems in 1 file\n');
});

github('CLI: --sarif-category sets automationDetails.id; it needs --format sarif and a category', () => {
  const dir = tempTree({ 'pvc.yaml': CLEAN, 'deploy.yaml': WRONG_NAMESPACE });
  const sarif = JSON.parse(runPvlint(['-f', 'sarif', '--sarif-category', 'pvlint/prod', '.'], { cwd: dir }).stdout);
  assert.equal(sarif.runs[0].automationDetails, { id: 'pvlint/prod/' });
  const plain = JSON.parse(runPvlint(['-f', 'sarif', '.'], { cwd: dir }).stdout);
  assert.is(plain.runs[0].automationDetails, undefined);
  for (const args of [['-f', 'json', '--sarif-category', 'x', '.'], ['-f', 'sarif', '--sarif-category', '', '.'], ['-f', 'sarif', '--sarif-category', '/', '.']]) {
    const run = runPvlint(args, { cwd: dir });
    assert.is(run.code, 2, args.join(' '));
    assert.match(run.stderr, /^pvlint: --sarif-category/);
  }
  assert.is(runPvlint(['rules', '-f', 'github'], { cwd: dir }).code, 2);
});

github.run();
