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

function runAction(cwd: string, inputs: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries<any>(spec.inputs)) env[name] = String(input.default ?? '');
  Object.assign(env, inputs);
  const outputFile = path.join(tempDir('action-out'), 'output');
  writeFileSync(outputFile, '');
  const result = run('bash', [path.join(PROJECT_ROOT, 'action', 'run.sh')], {
    cwd,
    env: userEnv({
      GITHUB_ACTION_PATH: PROJECT_ROOT,
      GITHUB_OUTPUT: outputFile,
      PVLINT_BIN: BIN,
      PVLINT_PATHS: env.paths,
      PVLINT_CONFIG: env.config,
      PVLINT_FAIL_LEVEL: env['fail-level'],
      PVLINT_FORMAT: env.format,
      PVLINT_SARIF_FILE: env['sarif-file'],
      PVLINT_SARIF_CATEGORY: env['sarif-category'],
      PVLINT_ARGS: env.args,
    }),
  });
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { ...result, outputs };
}

action('run.sh: defaults lint the workspace, print annotations and fail on an error', () => {
  const ws = workspace({ 'k8s/pvc.yaml': CLAIM, 'k8s/pod.yaml': CONSUMER('shop') });
  const result = runAction(ws, {});
  assert.is(result.code, 1, result.output);
  assert.match(result.stdout, /^::error file=k8s\/pod\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=pod-missing-pvc::/m);
  assert.equal(result.outputs, { 'exit-code': '1', 'sarif-file': '' });
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

action('run.sh: paths split on spaces and newlines, fail-level and args are passed on', () => {
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

action('README: the workflow uploads SARIF with the permissions, category and always()', () => {
  const section = readmeSection('GitHub Actions');
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'no yaml block');
  const workflow = parse(block![1]);
  const job: any = Object.values(workflow.jobs)[0];
  assert.is(job.permissions['security-events'], 'write');
  assert.is(job.permissions.contents, 'read');
  assert.is(job.permissions.actions, 'read');
  const steps = job.steps as any[];
  const pvlint = steps.find((s) => typeof s.uses === 'string' && /\/pvlint@/.test(s.uses));
  assert.ok(pvlint, 'no pvlint step');
  for (const input of Object.keys(pvlint.with)) assert.ok(spec.inputs[input], `README uses unknown input ${input}`);
  const upload = steps.find((s) => typeof s.uses === 'string' && s.uses.startsWith('github/codeql-action/upload-sarif@v3'));
  assert.ok(upload, 'no upload-sarif@v3 step');
  assert.match(upload.if, /always\(\)/);
  assert.is(upload.with.sarif_file, pvlint.with['sarif-file']);
  assert.match(upload.if, new RegExp(`steps\\.${pvlint.id}\\.outputs\\.sarif-file`));
  assert.type(upload.with.category, 'string');
  assert.ok(steps.indexOf(upload) > steps.indexOf(pvlint));
  // the inputs table lists every input
  for (const input of Object.keys(spec.inputs)) assert.match(section, new RegExp(`\\| \`${input}\` \\|`), `README does not list input ${input}`);
});

action.run();
