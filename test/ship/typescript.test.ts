// Custom TypeScript rules whatever TypeScript the user's project has: the packed pvlint installed into a project
// that also installs the registry's TypeScript 7 (typescript-estree used to pick that up and fail with "Cannot
// read properties of undefined (reading 'Intrinsic')"). pvlint erases types with its own pinned TypeScript.
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { run, runOk, tempDir } from './helpers.js';

const ts = suite('custom rules with the project\'s TypeScript 7');

const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'));
const TYPESCRIPT_7 = '7.0.2';

ts('the bundled custom-rule example runs from an install beside typescript@7', () => {
  const out = tempDir('ts7-pack');
  const packed = runOk('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: PROJECT_ROOT });
  const tarball = path.join(out, JSON.parse(packed.stdout)[0].filename);
  const project = tempDir('ts7-project');
  runOk('npm', ['init', '-y'], { cwd: project });
  runOk('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', `typescript@${TYPESCRIPT_7}`, tarball], { cwd: project });
  const hoisted = JSON.parse(readFileSync(path.join(project, 'node_modules', 'typescript', 'package.json'), 'utf8'));
  assert.is(hoisted.version, TYPESCRIPT_7, 'the project has TypeScript 7 at the top of node_modules');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'custom-rules'), path.join(project, 'custom-rules'), { recursive: true });
  const result = run('npx', ['--no', '--', 'pvlint', '--format', 'json', '.'], { cwd: path.join(project, 'custom-rules') });
  assert.is(result.code, 1, result.output);
  const ids = JSON.parse(result.stdout).findings.map((f: { ruleId: string }) => f.ruleId);
  assert.ok(ids.includes('acme/prod-storage-class'), ids.join(' '));
  // The TypeScript that erased the rule's types is pvlint's pinned one.
  const probe = run(process.execPath, ['-e', `
    const { createRequire } = require('node:module');
    const pvlint = createRequire(require.resolve('pvlint/package.json'));
    console.log(pvlint('typescript/package.json').version);`], { cwd: project });
  assert.is(probe.code, 0, probe.output);
  assert.ok(probe.stdout.trim().startsWith(pkg.dependencies.typescript.replace(/^[~^]/, '').split('.').slice(0, 2).join('.')), probe.stdout);
});

ts.run();
