// SARIF validity, the second opinion: Microsoft's SARIF Multitool (`validate`, rule kinds Sarif and Ghas, with
// test/fixtures/ship/multitool-gh-config.xml turning on GitHub's GH1001-GH1007) on pvlint's SARIF for the
// examples and for real manifests (test/fixtures/ship/corpus). The Multitool always exits 0, so the test reads its
// `-o` output and counts error-level results (research sarif.md §3). It also misses invalid enum values silently,
// which is why the Ajv schema test in test/report stays the first gate.
//
// The Multitool is a 100 MB self-contained binary, so it is not a dev dependency (pre-commit and the Action
// install dev dependencies); .ci/run installs it. Found via $SARIF_MULTITOOL (the executable), the cache
// directory .ci/run installs into, or an installed @microsoft/sarif-multitool. Skipped, loudly, without it.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';
import { gitCommitAll, run, tempDir, warnSkipped } from './helpers.js';

const multitool = suite('SARIF Multitool');

const CONFIG = path.join(PROJECT_ROOT, 'test', 'fixtures', 'ship', 'multitool-gh-config.xml');
const CORPUS = path.join(PROJECT_ROOT, 'test', 'fixtures', 'ship', 'corpus');
const MULTITOOL_VERSION = '5.7.0';

function findMultitool(): string | undefined {
  const candidates: string[] = [];
  if (process.env.SARIF_MULTITOOL) candidates.push(process.env.SARIF_MULTITOOL);
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  candidates.push(path.join(cache, 'pvlint-ci', 'sarif-multitool', 'node_modules', '@microsoft', 'sarif-multitool-linux', 'Sarif.Multitool'));
  try {
    // The npm package's main module returns the path of the platform binary.
    candidates.push(String(createRequire(path.join(PROJECT_ROOT, 'package.json'))('@microsoft/sarif-multitool')));
  } catch {
    // not installed in the project
  }
  return candidates.find((file) => existsSync(file));
}

interface Validation {
  errors: string[];
  warnings: string[];
  all: string[];
}

/** `validate` with Sarif and Ghas rules and the GH config; the results of its own SARIF output, as text. */
function validate(mt: string, sarifFile: string): Validation {
  const out = `${sarifFile}.multitool.sarif`;
  const result = run(mt, ['validate', sarifFile, '--rule-kind', 'Sarif;Ghas', '-c', CONFIG, '-o', out, '--log', 'ForceOverwrite;PrettyPrint']);
  assert.ok(existsSync(out), `the Multitool wrote no output\n${result.output}`);
  const log = JSON.parse(readFileSync(out, 'utf8'));
  const runs = log.runs[0];
  assert.is(runs.invocations?.[0]?.executionSuccessful, true, `the Multitool did not run successfully\n${result.output}`);
  const describe = (r: any) => {
    const where = r.locations?.[0]?.physicalLocation?.region?.startLine;
    const text = r.message?.text ?? (r.message?.arguments ?? []).join(' | ');
    return `${r.level ?? 'warning'} ${r.ruleId} (line ${where}): ${text}`;
  };
  const results: any[] = runs.results ?? [];
  return {
    errors: results.filter((r) => (r.level ?? 'warning') === 'error').map(describe),
    warnings: results.filter((r) => (r.level ?? 'warning') === 'warning').map(describe),
    all: results.map(describe),
  };
}

function pvlintSarif(cwd: string, args: string[]): string {
  const file = path.join(tempDir('sarif'), 'pvlint.sarif');
  const result = run(process.execPath, [BIN, '--format', 'sarif', '--output', file, ...args], { cwd });
  assert.ok(result.code === 0 || result.code === 1 || result.code === 2, result.output);
  assert.ok(existsSync(file), result.output);
  return file;
}

function assertGithubClean(validation: Validation, what: string): void {
  assert.equal(validation.errors, [], `${what}: Multitool errors`);
  const github = validation.all.filter((r) => / GH\d+ /.test(r));
  assert.equal(github, [], `${what}: GitHub rule results`);
  if (validation.warnings.length > 0) console.log(`  ${what}: Multitool warnings (not failures):\n    ${validation.warnings.join('\n    ')}`);
}

const mt = findMultitool();
if (!mt) {
  warnSkipped(
    'test/ship/multitool.test.ts (SARIF Multitool with GitHub rules)',
    'the SARIF Multitool is not installed, so pvlint\'s SARIF was NOT checked with it (the Ajv schema test still ran).',
    `Install it: mkdir -p ~/.cache/pvlint-ci/sarif-multitool && cd ~/.cache/pvlint-ci/sarif-multitool && npm init -y && npm install @microsoft/sarif-multitool@${MULTITOOL_VERSION} @microsoft/sarif-multitool-linux@${MULTITOOL_VERSION} (.ci/run does this), or set SARIF_MULTITOOL to its executable.`,
  );
  multitool.skip('the Multitool with GitHub rules finds nothing wrong in pvlint SARIF', () => {});
} else {
  multitool('the check is live: GitHub rule violations injected into pvlint SARIF are found', () => {
    const file = pvlintSarif(PROJECT_ROOT, ['examples/plain']);
    const log = JSON.parse(readFileSync(file, 'utf8'));
    const results = log.runs[0].results;
    assert.ok(results.length >= 3);
    results[0].locations[0].physicalLocation.artifactLocation = { uri: 'file:///home/runner/work/repo/deploy.yaml' };
    delete results[1].locations[0].physicalLocation.region;
    delete results[2].locations;
    writeFileSync(file, JSON.stringify(log, null, 2));
    const ids = new Set(validate(mt, file).errors.map((e) => e.split(' ')[1]));
    for (const id of ['GH1001', 'GH1003', 'GH1006']) assert.ok(ids.has(id), `${id} not reported: ${[...ids].join(', ')}`);
  });

  multitool('examples/: no error, no GitHub rule result', () => {
    const file = pvlintSarif(PROJECT_ROOT, ['examples']);
    assert.ok(JSON.parse(readFileSync(file, 'utf8')).runs[0].results.length > 0);
    assertGithubClean(validate(mt, file), 'examples');
  });

  multitool('real manifests (fixtures/ship/corpus) plus odd file names: no error, no GitHub rule result', () => {
    const repo = tempDir('multitool-corpus');
    cpSync(CORPUS, repo, { recursive: true });
    // A path that needs percent-encoding in the SARIF URI.
    mkdirSync(path.join(repo, 'odd dir'), { recursive: true });
    writeFileSync(
      path.join(repo, 'odd dir', 'claim #1 ü%.yaml'),
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: x}\nspec:\n  containers: [{name: c, image: busybox}]\n  volumes:\n    - name: d\n      persistentVolumeClaim: {claimName: gone}\n',
    );
    gitCommitAll(repo);
    const file = pvlintSarif(repo, ['--sarif-category', 'pvlint/corpus', '.']);
    const sarif = JSON.parse(readFileSync(file, 'utf8'));
    const results: any[] = sarif.runs[0].results;
    const rules = new Set(results.map((r) => r.ruleId));
    assert.ok(rules.size >= 4, `too few rules fired on the fixture: ${[...rules].join(', ')}`);
    assert.ok(results.some((r) => r.relatedLocations?.length > 0), 'no related locations in the fixture SARIF');
    assert.ok(
      results.some((r) => r.locations[0].physicalLocation.artifactLocation.uri === 'odd%20dir/claim%20%231%20%C3%BC%25.yaml'),
      results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri).join('\n'),
    );
    assertGithubClean(validate(mt, file), 'corpus fixture');
  });
}

multitool.run();
