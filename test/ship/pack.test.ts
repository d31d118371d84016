// The npm package as a user gets it: `npm pack` of the built tree, installed into an empty directory with nothing
// else, runs `npx pvlint` on a copy of examples/ and exposes the public API (JavaScript and types).
import { expectedMarkers } from '../helpers/rule-tester.js';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';
import { run, runOk, tempDir } from './helpers.js';

const pack = suite('npm package');

const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
let installDir = '';
let tarball = '';

pack.before(() => {
  const out = tempDir('pack');
  // --ignore-scripts: the tree was just built by `npm test`; `prepack` would build it again.
  const packed = runOk('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: PROJECT_ROOT });
  const [info] = JSON.parse(packed.stdout);
  tarball = path.join(out, info.filename);
  installDir = tempDir('install');
  runOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: installDir });
  cpSync(path.join(PROJECT_ROOT, 'examples'), path.join(installDir, 'examples'), { recursive: true });
});

pack('the tarball holds the built code, schemas and rule docs, and no tests or sources', () => {
  const files = runOk('tar', ['-tzf', tarball]).stdout.split('\n').filter(Boolean);
  const has = (name: string) => files.includes(`package/${name}`);
  for (const name of ['package.json', 'README.md', 'LICENSE', 'dist/src/bin.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'schemas/report.schema.json',
    // The validators the build compiles from the JSON Schemas (scripts/build-validators.mjs).
    'dist/src/generated/shape-validators.js', 'dist/src/generated/config-validator.js', 'dist/src/generated/rule-options-validators.js',
    // The chart rendered when a HelmRelease's app-template cannot be had (src/render/helm-release/bundled-chart.ts).
    'charts/app-template-4.1.1.tgz', 'charts/PROVENANCE.md']) {
    assert.ok(has(name), `${name} missing from the tarball`);
  }
  const ruleDocs = readdirSync(path.join(PROJECT_ROOT, 'docs', 'rules')).filter((f) => f.endsWith('.md'));
  assert.ok(ruleDocs.length > 0, 'docs/rules is empty');
  for (const doc of ruleDocs) assert.ok(has(`docs/rules/${doc}`), `docs/rules/${doc} missing from the tarball`);
  assert.ok(files.some((f) => f.startsWith('package/dist/rules/')), 'dist/rules missing from the tarball');
  assert.not.ok(files.some((f) => f.startsWith('package/dist/test/') || f.startsWith('package/src/') || f.startsWith('package/test/')));
  assert.not.ok(files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'TypeScript sources in the tarball');
});

pack('LICENSE: the Apache License 2.0 that package.json names, in full', () => {
  const pkgLicense = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')).license;
  assert.is(pkgLicense, 'Apache-2.0');
  const text = readFileSync(path.join(installDir, 'node_modules', 'pvlint', 'LICENSE'), 'utf8');
  assert.match(text, /^\s*Apache License\s+Version 2\.0, January 2004/);
  assert.match(text, /END OF TERMS AND CONDITIONS/);
  assert.ok(text.length > 10_000, 'the full text, not a notice');
});

pack('package.json: bin, exports, types and engines point at files that exist', () => {
  const installed = path.join(installDir, 'node_modules', 'pvlint');
  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
  assert.ok(existsSync(path.join(installed, manifest.bin.pvlint)));
  assert.ok(existsSync(path.join(installed, manifest.types)));
  assert.ok(existsSync(path.join(installed, manifest.exports['.'].types)));
  assert.ok(existsSync(path.join(installed, manifest.exports['.'].default)));
  assert.match(manifest.engines.node, />=\s*20/);
  assert.ok(existsSync(path.join(installDir, 'node_modules', '.bin', 'pvlint')));
});

pack('no dev dependency is installed, except as a peer of a runtime dependency', () => {
  const lock = JSON.parse(readFileSync(path.join(installDir, 'package-lock.json'), 'utf8'));
  for (const name of Object.keys(pkg.devDependencies ?? {})) {
    const entry = lock.packages[`node_modules/${name}`];
    assert.ok(entry === undefined || entry.peer === true, `dev dependency ${name} was installed with the package`);
  }
});

pack('npx pvlint on a copy of examples/ reports the examples\' findings, as the dev tree does', () => {
  const installed = run('npx', ['--no', '--', 'pvlint', '--format', 'json', 'examples'], { cwd: installDir });
  assert.ok(installed.code === 1 || installed.code === 2, installed.output);
  const report = JSON.parse(installed.stdout);
  // Every `# expect: <rule-id>` marker in examples/plain (no renderer needed) is a finding at that line.
  const at = new Set(report.findings.map((f: any) => `${f.ruleId} ${f.location.file}:${f.location.startLine}`));
  const expected: string[] = [];
  const plain = path.join(installDir, 'examples', 'plain');
  for (const name of (readdirSync(plain, { recursive: true }) as string[]).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    const file = `examples/plain/${name.split(path.sep).join('/')}`;
    for (const pair of expectedMarkers(readFileSync(path.join(plain, name), 'utf8'))) {
      const [ruleId, line] = pair.split('@');
      expected.push(`${ruleId} ${file}:${line}`);
    }
  }
  assert.ok(expected.length >= 5, `only ${expected.length} expect markers in examples/plain`);
  assert.ok(expected.some((e) => e.startsWith('pod-missing-pvc ')), 'no pod-missing-pvc marker in examples/plain');
  for (const finding of expected) assert.ok(at.has(finding), `${finding} not found in:\n${[...at].join('\n')}`);
  // The same report, byte for byte, as the dev tree's build gives on the same copy.
  const dev = run(process.execPath, [BIN, '--format', 'json', 'examples'], { cwd: installDir });
  assert.is(installed.code, dev.code);
  assert.is(installed.stdout, dev.stdout);
});

pack('npx pvlint --version, rules and explain work from the install', () => {
  assert.is(runOk('npx', ['--no', '--', 'pvlint', '--version'], { cwd: installDir }).stdout.trim(), pkg.version);
  assert.match(runOk('npx', ['--no', '--', 'pvlint', 'rules'], { cwd: installDir }).stdout, /pod-missing-pvc/);
  assert.match(runOk('npx', ['--no', '--', 'pvlint', 'explain', 'pod-missing-pvc'], { cwd: installDir }).stdout, /pod-missing-pvc/);
});

pack('npx pvlint init in the project writes a $schema path that resolves to the installed schema', () => {
  const init = run('npx', ['--no', '--', 'pvlint', 'init'], { cwd: installDir });
  assert.is(init.code, 0, init.output);
  const text = readFileSync(path.join(installDir, '.pvlint.yaml'), 'utf8');
  const schema = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1];
  assert.is(schema, './node_modules/pvlint/schemas/config.schema.json');
  assert.ok(existsSync(path.join(installDir, schema!)));
  rmSync(path.join(installDir, '.pvlint.yaml'));
});

pack("the public API: `import { lint, defineRule } from 'pvlint'` in JavaScript", () => {
  writeFileSync(
    path.join(installDir, 'api.mjs'),
    `import { lint, defineRule, BUILTIN_RULES } from 'pvlint';
const result = await lint({ paths: ['examples/plain'], cwd: process.cwd() });
console.log(JSON.stringify({
  defineRule: typeof defineRule,
  rules: BUILTIN_RULES.length,
  findings: result.findings.map((f) => f.ruleId + ' ' + f.location.file),
}));
`,
  );
  const out = JSON.parse(runOk(process.execPath, ['api.mjs'], { cwd: installDir }).stdout);
  assert.is(out.defineRule, 'function');
  assert.ok(out.rules > 0);
  assert.ok(out.findings.includes('pod-missing-pvc examples/plain/missing-claim.yaml'), out.findings.join('\n'));
});

pack('the README example of the API runs as written (on examples/plain instead of k8s)', () => {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Use with npx\n'), readme.indexOf('\n## ', readme.indexOf('\n## Use with npx\n') + 1));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'no js block under "Use with npx"');
  assert.match(block![1], /\['k8s'\]/);
  writeFileSync(path.join(installDir, 'readme-example.mjs'), block![1].replace("['k8s']", "['examples/plain']"));
  const result = run(process.execPath, ['readme-example.mjs'], { cwd: installDir });
  assert.is(result.code, 1, result.output);
  assert.match(result.stdout, /^examples\/plain\/missing-claim\.yaml:\d+ error pod-missing-pvc: /m);
});

pack("the public API's types: a strict TypeScript consumer compiles against the installed package", () => {
  writeFileSync(
    path.join(installDir, 'consumer.ts'),
    `import { lint, defineRule, type Finding, type LintOptions, type LintResult, type RuleModule, type Severity, type StorageModel } from 'pvlint';
const options: LintOptions = { paths: ['examples'] };
const result: LintResult = await lint(options);
const findings: Finding[] = result.findings;
const severity: Severity | undefined = findings[0]?.severity;
const identity: (rule: RuleModule<any, any>) => RuleModule<any, any> = defineRule;
// @ts-expect-error paths must be strings: proves the types are real, not any
await lint({ paths: [1] });
// The model hands custom rules typed views (kubernetes-types, a dependency for that reason).
const provisionerOf = (model: StorageModel) => {
  const lookup = model.lookupClass('fast');
  return lookup.status === 'found' ? lookup.value.object.provisioner : undefined;
};
// @ts-expect-error a StorageClass's provisioner is a string
const wrong: number | undefined = provisionerOf(undefined as unknown as StorageModel);
export { severity, identity, wrong };
`,
  );
  writeFileSync(
    path.join(installDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [path.join(PROJECT_ROOT, 'node_modules', '@types')],
      },
      files: ['consumer.ts'],
    }),
  );
  writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({ ...JSON.parse(readFileSync(path.join(installDir, 'package.json'), 'utf8')), type: 'module' }));
  const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: installDir });
  assert.is(result.code, 0, result.output);
});

pack.run();
