// Hostile-input tests: every case lints a known-good file (with known findings) next to the hostile input, each as
// its own argument, and checks that the good file's findings are exactly those of linting it alone.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as assert from 'uvu/assert';
import { lint, type LintOptions, type LintResult } from '../../src/lint.js';
import type { Finding } from '../../src/types.js';
import { PROJECT_ROOT } from '../helpers/paths.js';

export const FIXTURES = path.join(PROJECT_ROOT, 'test', 'hostile', 'fixtures');
export const GOOD = 'good.yaml';

/** A fresh directory (outside any git repo) holding good.yaml and the named fixtures. */
export function caseDir(fixtures: readonly string[] = []): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-hostile-'));
  copyFileSync(path.join(FIXTURES, GOOD), path.join(dir, GOOD));
  for (const name of fixtures) copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
  return dir;
}

export function writeIn(dir: string, name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export function fixtureText(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** What a finding is, without the environment list (which names the arguments). */
export function key(f: Finding): string {
  const r = f.location.region;
  return `${f.ruleId}|${f.severity}|${f.location.file}:${r.startLine}:${r.startColumn}-${r.endLine}:${r.endColumn}|${f.message}`;
}

export function findingsIn(result: LintResult, file: string): Finding[] {
  return result.findings.filter((f) => f.location.file === file);
}

export async function lintIn(dir: string, paths: readonly string[], options: Partial<LintOptions> = {}): Promise<LintResult> {
  return lint({ paths, cwd: dir, root: dir, ...options });
}

const baselines = new Map<string, string[]>();

/** good.yaml's findings when linted alone in `dir` (memoised per option set). */
async function baseline(dir: string, options: Partial<LintOptions>): Promise<string[]> {
  const id = JSON.stringify(options, (_k, v) => (typeof v === 'function' ? String(v) : v));
  if (!baselines.has(id)) {
    const alone = await lintIn(dir, [GOOD], { parseAllDocuments: true, ...options });
    baselines.set(id, findingsIn(alone, GOOD).map(key));
  }
  return baselines.get(id)!;
}

/**
 * Lints good.yaml and `inputs` (each its own argument) in `dir`, asserts that good.yaml's findings equal those of
 * linting it alone, and that no rule crashed; returns the result for the case's own assertions.
 */
export async function lintBeside(dir: string, inputs: readonly string[], options: Partial<LintOptions> = {}): Promise<LintResult> {
  // Hostile documents are often of kinds no rule reads, which the kind pre-scan skips unparsed: the cases' own
  // assertions are about parsing them, so they see the run that parses everything. The default run must agree on
  // everything but syntax and limit findings, and not crash either.
  const result = await lintIn(dir, [GOOD, ...inputs], { parseAllDocuments: true, ...options });
  const scanned = await lintIn(dir, [GOOD, ...inputs], options);
  const rest = (r: LintResult) => r.findings.filter((f) => f.ruleId !== 'pvlint/parse' && f.ruleId !== 'pvlint/limit').map(key);
  assert.equal(rest(scanned), rest(result), 'the kind pre-scan changed findings other than syntax and limit ones');
  const expected = await baseline(dir, options);
  assert.ok(expected.length >= 3, `good.yaml should have its known findings, got ${expected.length}`);
  assert.equal(findingsIn(result, GOOD).map(key), expected, 'good.yaml findings changed next to the hostile input');
  const crashes = result.findings.filter((f) => f.ruleId === 'pvlint/rule-crash');
  assert.equal(crashes.map((f) => f.message), [], 'no rule may crash on hostile input');
  return result;
}

/** The single finding of `ruleId` in `file`, asserted to exist. */
export function only(result: LintResult, file: string, ruleId: string): Finding {
  const found = findingsIn(result, file).filter((f) => f.ruleId === ruleId);
  assert.is(found.length, 1, `expected one ${ruleId} in ${file}, got:\n${findingsIn(result, file).map(key).join('\n')}`);
  return found[0];
}

export function at(finding: Finding): string {
  return `${finding.location.file}:${finding.location.region.startLine}`;
}
