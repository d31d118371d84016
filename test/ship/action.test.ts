// The GitHub Action. GitHub itself cannot run here, so: the structure of action.yml (composite, every input used
// and every used input declared, inputs reach the shell only as environment variables, the build makes the file
// the run step executes), its script action/run.sh run locally the way the runner would run it, and the README
// workflow (parsed, with the permissions and the upload step code scanning needs).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';
import { gitCommitAll, run, tempDir, userEnv } from './helpers.js';

const action = suite('GitHub Action');

const actionText = readFileSync(path.join(PROJECT_ROOT, 'action.yml'), 'utf8');
const spec = parse(actionText);
const script = readFileSync(path.join(PROJECT_ROOT, 'action', 'run.sh'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));

function expressions(text: string): string[] {
  return [...text.matchAll(/\$\{\{([^}]*)\}\}/g)].map((m) => m[1].trim());
}

action('action.yml is a composite action with setup-node, install+build, run', () => {
  assert.is(spec.runs.using, 'composite');
  assert.type(spec.name, 'string');
  assert.type(spec.description, 'string');
  const steps = spec.runs.steps as any[];
  const setup = steps.find((s) => typeof s.uses === 'string' && s.uses.startsWith('actions/setup-node@'));
  assert.ok(setup, 'no actions/setup-node step');
  assert.is(setup.with['node-version'], '${{ inputs.node-version }}');
  assert.is(spec.inputs['node-version'].default, '20');
  for (const step of steps.filter((s) => s.run !== undefined)) assert.is(step.shell, 'bash', `step ${step.name} needs shell: bash`);
  const build = steps.find((s) => typeof s.run === 'string' && s.run.includes('npm run build'));
  assert.ok(build, 'no build step');
  assert.is(build['working-directory'], '${{ github.action_path }}');
  assert.match(build.run, /npm ci\b/);
});

action('the run step executes action/run.sh with the built bin that package.json declares', () => {
  const step = (spec.runs.steps as any[]).find((s) => s.id === 'pvlint');
  assert.ok(step, 'no step with id pvlint');
  assert.match(step.run, /"\$GITHUB_ACTION_PATH\/action\/run\.sh"/);
  assert.ok(existsSync(path.join(PROJECT_ROOT, 'action', 'run.sh')));
  assert.is(step.env.PVLINT_BIN, `\${{ github.action_path }}/${pkg.bin.pvlint}`);
  assert.ok(existsSync(path.join(PROJECT_ROOT, pkg.bin.pvlint)), 'the bin the action runs is not where the build puts it');
  assert.is(step['working-directory'], '${{ inputs.working-directory }}');
});

action('every input is declared, used, and reaches the shell only through env', () => {
  const declared = Object.keys(spec.inputs).sort();
  const used = [...new Set(expressions(actionText).flatMap((e) => [...e.matchAll(/inputs\.([\w-]+)/g)].map((m) => m[1])))].sort();
  assert.equal(used, declared);
  for (const [name, input] of Object.entries<any>(spec.inputs)) {
    assert.type(input.description, 'string', name);
    assert.is(input.required, false, `${name} should be optional`);
  }
  // No ${{ }} inside any run: script (injection); everything goes through env.
  for (const step of spec.runs.steps as any[]) {
    if (typeof step.run === 'string') assert.not.match(step.run, /\$\{\{/, `step ${step.name} interpolates into the shell`);
  }
  const step = (spec.runs.steps as any[]).find((s) => s.id === 'pvlint');
  const envNames = Object.keys(step.env).sort();
  const scriptNames = [...new Set([...script.matchAll(/\bPVLINT_[A-Z_]+/g)].map((m) => m[0]))].sort();
  assert.equal(scriptNames, envNames);
});

action('outputs exit-code and sarif-file come from the run step', () => {
  assert.is(spec.outputs['exit-code'].value, '${{ steps.pvlint.outputs.exit-code }}');
  assert.is(spec.outputs['sarif-file'].value, '${{ steps.pvlint.outputs.sarif-file }}');
  assert.match(script, /exit-code=/);
  assert.match(script, /sarif-file=/);
});

// ---- action/run.sh, run as the runner would: inputs in env (defaults from action.yml), GITHUB_OUTPUT a file ----
const CLAIM = `apiVersion: storage.k8s.io/v1
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
const CONSUMER = (namespace: string) => `apiVersion: v1
kind: Pod
metadata: {name: web, namespace: ${namespace}}
spec:
  containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
  volumes:
    - name: d
      persistentVolumeClaim: {claimName: data}
`;

function workspace(files: Record<string, string>): string {
  const dir = tempDir('action-ws');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  gitCommitAll(dir);
  return dir;
}

function runAction(cwd: string, inputs: Record<string, string>, extraEnv: Record<string, string> = {}) {
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries<any>(spec.inputs)) env[name] = String(input.default ?? '');
  Object.assign(env, inputs);
  const outputFile = path.join(tempDir('action-out'), 'output');
  writeFileSync(outputFile, '');
  const summaryFile = path.join(path.dirname(outputFile), 'summary');
  writeFileSync(summaryFile, '');
  const runnerTemp = tempDir('action-runner-temp');
  const result = run('bash', [path.join(PROJECT_ROOT, 'action', 'run.sh')], {
    cwd,
    env: userEnv({
      GITHUB_ACTION_PATH: PROJECT_ROOT,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      RUNNER_TEMP: runnerTemp,
      PVLINT_BIN: BIN,
      PVLINT_PATHS: env.paths,
      PVLINT_CONFIG: env.config,
      PVLINT_FAIL_LEVEL: env['fail-level'],
      PVLINT_FORMAT: env.format,
      PVLINT_SARIF_FILE: env['sarif-file'],
      PVLINT_SARIF_CATEGORY: env['sarif-category'],
      PVLINT_ARGS: env.args,
      PVLINT_UPLOAD_SARIF: env['upload-sarif'],
      ...extraEnv,
    }),
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { ...result, outputs, summary: readFileSync(summaryFile, 'utf8'), runnerTemp };
}

action('run.sh: defaults lint the workspace, print annotations and fail on an error', () => {
  const ws = workspace({ 'k8s/pvc.yaml': CLAIM, 'k8s/pod.yaml': CONSUMER('shop') });
  const result = runAction(ws, {});
  assert.is(result.code, 1, result.output);
  assert.match(result.stdout, /^::error file=k8s\/pod\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=pod-missing-pvc::/m);
  // upload-sarif defaults to true: SARIF goes to a temporary file for the upload step, by absolute path.
  assert.is(result.outputs['exit-code'], '1');
  assert.ok(result.outputs['sarif-file'].startsWith(`${result.runnerTemp}/`), result.outputs['sarif-file']);
  const sarif = JSON.parse(readFileSync(result.outputs['sarif-file'], 'utf8'));
  assert.equal(sarif.runs[0].results.map((r: any) => r.ruleId), ['pod-missing-pvc']);
  // The whole report in the job summary, as Markdown.
  assert.match(result.summary, /pod-missing-pvc/);
  assert.match(result.summary, /k8s\/pod\.yaml/);
  const off = runAction(ws, { 'upload-sarif': 'false' });
  assert.equal(off.outputs, { 'exit-code': '1', 'sarif-file': '' });
});

action('run.sh: args and paths one per line, spaces kept; outputs follow working-directory', () => {
  const ws = workspace({ 'my apps/pvc.yaml': CLAIM, 'my apps/pod.yaml': CONSUMER('shop'), 'sub dir/.keep': '' });
  // A kustomize command with spaces in one argument: word splitting made it "path not found: build".
  const kustomize = path.join(tempDir('action-bin'), 'fake kustomize');
  writeFileSync(kustomize, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
  const result = runAction(path.join(ws, 'sub dir'), {
    paths: '../my apps\n',
    args: `  --kustomize-command\n${kustomize} build --flag with-space\n\n--ignore\n**/nothing here/**\n`,
    'sarif-file': 'out dir/pvlint.sarif',
  });
  assert.is(result.code, 1, result.output);
  assert.not.match(result.output, /path not found/);
  const sarifPath = path.join(ws, 'sub dir', 'out dir', 'pvlint.sarif');
  assert.is(result.outputs['sarif-file'], sarifPath);
  assert.ok(existsSync(sarifPath));
  assert.match(result.stdout, /^::error file=my apps\/pod\.yaml,/m);
});

action('run.sh: the job summary stays under 1 MiB and says when it was cut', () => {
  const ws = workspace({ 'k8s/pvc.yaml': CLAIM, 'k8s/pod.yaml': CONSUMER('shop') });
  // A stand-in pvlint whose Markdown report is 3 MiB: the summary is cut, the log run is the real exit code.
  const fake = path.join(tempDir('action-fake'), 'pvlint.mjs');
  writeFileSync(
    fake,
    `import { writeFileSync } from 'node:fs';
const args = process.argv.slice(2);
const out = args[args.indexOf('--output') + 1];
if (args.includes('markdown')) writeFileSync(out, ('| row | ' + 'x'.repeat(100) + ' |\\n').repeat(30000));
process.exitCode = 1;
`,
  );
  const result = runAction(ws, { 'upload-sarif': 'false' }, { PVLINT_BIN: fake });
  assert.is(result.code, 1, result.output);
  const bytes = Buffer.byteLength(result.summary);
  assert.ok(bytes <= 1024 * 1024, `${bytes} bytes`);
  assert.ok(bytes > 1000 * 1000, `${bytes} bytes`);
  assert.match(result.summary, /The report was cut here/);
});

action('run.sh: sarif-file and sarif-category write SARIF too; exit code and outputs follow', () => {
  const ws = workspace({ 'k8s/pvc.yaml': CLAIM, 'k8s/pod.yaml': CONSUMER('shop') });
  const result = runAction(ws, { 'sarif-file': 'reports/pvlint.sarif', 'sarif-category': 'pvlint/prod', format: 'text' });
  assert.is(result.code, 1, result.output);
  const sarifPath = path.join(ws, 'reports', 'pvlint.sarif');
  assert.is(result.outputs['sarif-file'], sarifPath);
  assert.is(result.outputs['exit-code'], '1');
  const sarif = JSON.parse(readFileSync(sarifPath, 'utf8'));
  assert.equal(sarif.runs[0].automationDetails, { id: 'pvlint/prod/' });
  assert.equal(sarif.runs[0].results.map((r: any) => `${r.ruleId} ${r.locations[0].physicalLocation.artifactLocation.uri}`), ['pod-missing-pvc k8s/pod.yaml']);
  assert.match(result.stdout, /pod-missing-pvc/); // the text report in the log
});

action('run.sh: paths one per line (blanks around them dropped), fail-level and args are passed on', () => {
  const ws = workspace({ 'a/pvc.yaml': CLAIM, 'b/pod.yaml': CONSUMER('app'), 'c/other.yaml': CONSUMER('elsewhere') });
  // a and b together are clean: the pod finds its claim only when both are linted.
  const clean = runAction(ws, { paths: 'a\n  b' });
  assert.is(clean.code, 0, clean.output);
  assert.is(clean.outputs['exit-code'], '0');
  // c alone: a claim that is not in the repo is a note, which fails only at fail-level note.
  assert.is(runAction(ws, { paths: 'c' }).code, 0);
  assert.is(runAction(ws, { paths: 'c', 'fail-level': 'note' }).code, 1);
  // args: --bundle-complete turns the absent claim into an error.
  const strict = runAction(ws, { paths: 'c', args: '--bundle-complete' });
  assert.is(strict.code, 1, strict.output);
  // a glob is not expanded by the shell: `*.yaml` matches a/pvc.yaml, yet pvlint gets it as written (no such path)
  const literal = runAction(path.join(ws, 'a'), { paths: '*.yaml' });
  assert.is(literal.code, 2, literal.output);
  assert.match(literal.stderr, /\*\.yaml/);
});

action('run.sh: a usage error exits 2 and says that no SARIF was written', () => {
  const ws = workspace({ 'pvc.yaml': CLAIM });
  const result = runAction(ws, { 'fail-level': 'fatal', 'sarif-file': 'x.sarif' });
  assert.is(result.code, 2, result.output);
  assert.match(result.summary, /pvlint wrote no report/);
  assert.match(result.stdout, /::error title=pvlint::no SARIF file was written/);
  assert.equal(result.outputs, { 'exit-code': '2', 'sarif-file': '' });
});

// ---- the README workflow ----
function readmeSection(heading: string): string {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has no "## ${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

action('README: the workflows pin the action to a commit, upload through the action, pass args one per line', () => {
  for (const heading of ['GitHub Actions', 'In pull requests']) {
    const section = readmeSection(heading);
    const block = /```yaml\n(# \.github\/workflows[\s\S]*?)```/.exec(section);
    assert.ok(block, `no workflow block under ${heading}`);
    const workflow = parse(block![1]);
    const job: any = Object.values(workflow.jobs)[0];
    assert.is(job.permissions['security-events'], 'write');
    assert.is(job.permissions.contents, 'read');
    assert.is(job.permissions.actions, 'read');
    const steps = job.steps as any[];
    const pvlint = steps.find((s) => typeof s.uses === 'string' && /\/pvlint@/.test(s.uses));
    assert.ok(pvlint, 'no pvlint step');
    assert.match(pvlint.uses, /^OWNER\/pvlint@[0-9a-f]{40}$/, 'pinned to a full commit id');
    for (const input of Object.keys(pvlint.with)) assert.ok(spec.inputs[input], `README uses unknown input ${input}`);
    // The action uploads: no separate upload step with a path that working-directory could misplace.
    assert.not.ok(steps.some((s) => typeof s.uses === 'string' && s.uses.includes('upload-sarif')));
    if (pvlint.with.args !== undefined) {
      for (const line of String(pvlint.with.args).trim().split('\n')) assert.not.match(line.trim(), /^--\S+ \S/, `one argument per line: ${line}`);
    }
  }
  const section = readmeSection('GitHub Actions');
  for (const input of Object.keys(spec.inputs)) assert.match(section, new RegExp(`\\| \`${input}\` \\|`), `README does not list input ${input}`);
});

action('action.yml uploads the SARIF run.sh wrote, by its absolute path, without failing the job', () => {
  const upload = (spec.runs.steps as any[]).find((s) => typeof s.uses === 'string' && s.uses.startsWith('github/codeql-action/upload-sarif@'));
  assert.ok(upload, 'no upload step');
  assert.is(upload.with.sarif_file, '${{ steps.pvlint.outputs.sarif-file }}');
  assert.is(upload.with.category, '${{ inputs.upload-category }}');
  assert.is(upload['continue-on-error'], true);
  assert.match(upload.if, /always\(\)/);
  assert.match(upload.if, /inputs\.upload-sarif == 'true'/);
});

action.run();
