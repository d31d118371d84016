// Shared by the shipping tests: processes run the way a user's shell would run them (no npm-run environment, no
// dev tree on PATH), temp directories, git repositories, and a snapshot of the project as a clean git repo.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers/paths.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr, for assertion messages. */
  output: string;
}

/**
 * The environment of a user's shell: without what `npm test` adds (npm_* variables, the dev tree's
 * node_modules/.bin on PATH), without colours, with git identity for commits made in tests.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // FORCE_COLOR: uvu sets it for its own output; it would win over NO_COLOR in the processes spawned here.
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`) && !dir.includes(`node-gyp-bin`))
    .join(path.delimiter);
  return {
    ...env,
    NO_COLOR: '1',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    GIT_AUTHOR_NAME: 'pvlint test',
    GIT_AUTHOR_EMAIL: 'test@pvlint.invalid',
    GIT_COMMITTER_NAME: 'pvlint test',
    GIT_COMMITTER_EMAIL: 'test@pvlint.invalid',
    ...extra,
  };
}

export function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): Run {
  const result = spawnSync(command, [...args], {
    encoding: 'utf8',
    env: userEnv(),
    timeout: 10 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  const stdout = String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '') + (result.error ? `\n${result.error.message}` : '');
  return { code: result.status, stdout, stderr, output: `$ ${command} ${args.join(' ')}\n${stdout}\n${stderr}` };
}

/** Runs and throws with the whole output when the exit code is not 0. */
export function runOk(command: string, args: readonly string[], options: SpawnSyncOptions = {}): Run {
  const result = run(command, args, options);
  if (result.code !== 0) throw new Error(`exit code ${result.code}\n${result.output}`);
  return result;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `pvlint-${prefix}-`));
}

export function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

/** A loud note that a test did not run, and why, and what makes it run. */
export function warnSkipped(what: string, why: string, fix: string): void {
  const bar = '!'.repeat(100);
  console.warn(`\n${bar}\n!! SKIPPED: ${what}\n!! ${why}\n!! ${fix}\n${bar}\n`);
}

/** `git init` + commit of everything in `dir`. */
export function gitCommitAll(dir: string, message = 'test'): void {
  if (!existsSync(path.join(dir, '.git'))) runOk('git', ['init', '-q'], { cwd: dir });
  runOk('git', ['add', '-A'], { cwd: dir });
  runOk('git', ['commit', '-q', '--no-verify', '--allow-empty', '-m', message], { cwd: dir });
}

/**
 * The project's working tree (tracked files plus untracked ones that are not ignored, so uncommitted work is
 * included; no node_modules, no dist) as a fresh git repository with one commit: what a user's clone at a tag is.
 */
export function projectSnapshot(): string {
  const dir = path.join(tempDir('snapshot'), 'pvlint');
  mkdirSync(dir);
  const list = runOk('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PROJECT_ROOT });
  for (const file of list.stdout.split('\0')) {
    if (file === '') continue;
    const from = path.join(PROJECT_ROOT, file);
    if (!existsSync(from) || !statSync(from).isFile()) continue; // deleted but still in the index
    const to = path.join(dir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  gitCommitAll(dir, 'snapshot');
  return dir;
}
