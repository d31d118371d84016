// The README's "one job per environment" recipe, run locally: its two `run:` steps are taken from the README (so
// the documentation cannot drift from what is tested), with the built pvlint instead of `npx`, on a copy of
// examples/ (loose manifests, two Kustomize overlays over one base, a Helm chart). The per-environment SARIF files,
// taken together, must hold what one run's SARIF holds: the same rules; results at the same rules and locations,
// with the same environments; and each of the single run's results, word for word, among the jobs' results (one
// run merges a finding several environments reach into one result worded as the first environment words it).
// Only the per-run fields differ: invocations and automationDetails (the category).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { findOnPath } from '../../src/render/executables.js';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';

const recipe = suite('GitHub Actions matrix recipe');

const MARKER = '<!-- pvlint-matrix-recipe';
const NPX = /npx --no pvlint/g;

interface Workflow {
  jobs: Record<string, { steps: { id?: string; run?: string }[]; strategy?: { matrix?: Record<string, unknown> } }>;
}

function readmeRecipe(): { list: string; lint: string; matrix: unknown } {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(MARKER);
  assert.ok(at >= 0, 'the README has no matrix recipe marker');
  const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block, 'no yaml block after the marker');
  const workflow = parse(block![1]) as Workflow;
  const step = (id: string) => Object.values(workflow.jobs).flatMap((job) => job.steps).find((s) => s.id === id)?.run;
  const list = step('list');
  const lint = step('lint');
  assert.ok(list && lint, 'the recipe has steps with ids list and lint');
  return { list: list!, lint: lint!, matrix: workflow.jobs.lint?.strategy?.matrix?.environment };
}

/** A step's script as a runner would execute it: expressions replaced, pvlint being this build. */
function script(run: string, environment?: string): string {
  let text = run.replace(NPX, `node '${BIN}'`);
  if (environment !== undefined) text = text.split('${{ matrix.environment }}').join(environment);
  assert.not.match(text, /\$\{\{/, `an expression the test does not provide is left in: ${text}`);
  return text;
}

function bash(text: string, cwd: string, env: Record<string, string>): { status: number | null; stderr: string } {
  const result = spawnSync('bash', ['-e', '-c', text], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000 });
  return { status: result.status, stderr: result.stderr };
}

interface SarifResult {
  ruleId: string;
  message: { text: string };
  locations?: unknown;
  partialFingerprints?: unknown;
  properties?: Record<string, unknown>;
  [key: string]: unknown;
}

interface Grouped {
  /** Each distinct result (all but its environments) reported at this rule and location. */
  variants: Set<string>;
  environments: Set<string>;
}

/**
 * Results grouped as pvlint merges findings: by rule and location. One run reports a finding reached from several
 * environments once, naming them all, with the wording of the first (a chart rendered with two release names words
 * it twice); jobs report it once each.
 */
function resultsByLocation(runs: { results: SarifResult[] }[]): Map<string, Grouped> {
  const grouped = new Map<string, Grouped>();
  for (const run of runs) {
    for (const result of run.results) {
      const { properties = {}, ruleIndex: _ruleIndex, ...rest } = result;
      const { 'pvlint/environments': environments = [], ...otherProperties } = properties as { 'pvlint/environments'?: string[] };
      const key = JSON.stringify({ ruleId: result.ruleId, locations: result.locations });
      const group = grouped.get(key) ?? { variants: new Set<string>(), environments: new Set<string>() };
      group.variants.add(JSON.stringify({ ...rest, properties: otherProperties }));
      for (const e of environments) group.environments.add(e);
      grouped.set(key, group);
    }
  }
  return grouped;
}

const missing = ['kubectl', 'jq'].filter((tool) => !findOnPath(tool));
const helm = process.env.PVLINT_TEST_HELM && existsSync(process.env.PVLINT_TEST_HELM) ? process.env.PVLINT_TEST_HELM : findOnPath('helm');

recipe('the per-environment SARIF together equal one run over every environment', () => {
  if (missing.length > 0) {
    console.warn(`\n${'!'.repeat(80)}\n!! SKIPPED: the matrix recipe test needs ${missing.join(' and ')} on PATH (the recipe renders Kustomize roots and uses jq)\n${'!'.repeat(80)}\n`);
    return;
  }
  const { list, lint, matrix } = readmeRecipe();
  assert.is(matrix, '${{ fromJSON(needs.environments.outputs.names) }}', 'the matrix is the list step output');
  const repo = mkdtempSync(path.join(os.tmpdir(), 'pvlint-matrix-'));
  try {
    cpSync(path.join(PROJECT_ROOT, 'examples'), repo, { recursive: true });
    // Custom rules load with a configuration of their own directory; the recipe runs at the repository root.
    execFileSync('git', ['init', '-q'], { cwd: repo });
    const env: Record<string, string> = { GITHUB_OUTPUT: path.join(repo, '.github-output') };
    if (helm) env.PATH = `${path.dirname(helm)}${path.delimiter}${process.env.PATH}`;
    else {
      console.warn('\n  NOTE: no helm here; the matrix recipe test runs without examples/helm\n');
      rmSync(path.join(repo, 'helm'), { recursive: true, force: true });
    }
    writeFileSync(env.GITHUB_OUTPUT, '');
    const listed = bash(script(list), repo, env);
    assert.is(listed.status, 0, listed.stderr);
    const output = /^names=(.*)$/m.exec(readFileSync(env.GITHUB_OUTPUT, 'utf8'));
    assert.ok(output, 'the list step wrote no names output');
    const names = JSON.parse(output![1]) as string[];
    assert.ok(names.length >= 3 && names.some((n) => n.includes('overlays/prod')) && names.includes('.'), `environments: ${names.join(', ')}`);
    if (helm) assert.ok(names.includes('helm/ledger'), `environments: ${names.join(', ')}`);

    const sharded: { results: SarifResult[]; tool: unknown; automationDetails?: { id: string } }[] = [];
    for (const name of names) {
      const linted = bash(script(lint, name), repo, env);
      assert.ok(linted.status === 0 || linted.status === 1, `${name}: exit ${linted.status}: ${linted.stderr}`);
      const sarif = JSON.parse(readFileSync(path.join(repo, 'pvlint.sarif'), 'utf8'));
      assert.is(sarif.runs.length, 1);
      assert.is(sarif.runs[0].automationDetails?.id, `pvlint/${name}/`, 'each job has its own category');
      // A job lints its environment only: no result of it names another listed environment.
      const others = new Set(names.filter((n) => n !== name));
      for (const result of sarif.runs[0].results as SarifResult[]) {
        const named = (result.properties?.['pvlint/environments'] ?? []) as string[];
        assert.not.ok(named.some((e) => others.has(e)), `${name}'s job reported ${result.ruleId} of ${named.join(', ')}`);
      }
      sharded.push(sarif.runs[0]);
      rmSync(path.join(repo, 'pvlint.sarif'));
    }
    const whole = spawnSync(process.execPath, [BIN, '--format', 'sarif', '--output', 'all.sarif', '.'], { cwd: repo, encoding: 'utf8', env: { ...process.env, ...env } });
    assert.ok(whole.status === 0 || whole.status === 1, whole.stderr);
    const single = JSON.parse(readFileSync(path.join(repo, 'all.sarif'), 'utf8')).runs[0];

    for (const run of sharded) assert.equal(run.tool, single.tool, 'the same rules in every job as in one run');
    const union = resultsByLocation(sharded);
    const expected = resultsByLocation([single]);
    assert.ok(expected.size > 10, `one run over examples/ should find plenty: ${expected.size}`);
    const brief = (key: string) => key.slice(0, 200);
    const onlySharded = [...union.keys()].filter((k) => !expected.has(k)).map(brief);
    const onlySingle = [...expected.keys()].filter((k) => !union.has(k)).map(brief);
    assert.equal({ onlySharded, onlySingle }, { onlySharded: [], onlySingle: [] }, 'results at the same rules and locations');
    for (const [key, group] of expected) {
      const jobs = union.get(key)!;
      assert.equal([...jobs.environments].sort(), [...group.environments].sort(), `environments of ${brief(key)}`);
      assert.is(group.variants.size, 1);
      assert.ok(jobs.variants.has([...group.variants][0]), `the single run's result at ${brief(key)} is one of the jobs' results`);
    }
    // A chart template reached from two environments (the live render and the committed `helm template` stream) is
    // reported by both jobs and by one result of the single run.
    if (helm) assert.ok([...expected.values()].some((g) => g.environments.size > 1), 'examples/ has a finding two environments share');
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
});

recipe.run();
