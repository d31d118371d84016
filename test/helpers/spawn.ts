// Runs the built pvlint binary the way a user does, in a given directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN } from './paths.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runPvlint(args: readonly string[], options: { cwd: string; input?: string; env?: Record<string, string> }): CliRun {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...plainEnv(), ...options.env },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The test process's environment without colours: uvu sets FORCE_COLOR=1, which wins over NO_COLOR (as in Node). */
export function plainEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}

/**
 * Runs the binary as user `nobody`: file permissions mean nothing to root, so tests of unreadable files and
 * directories need another user. Undefined (the caller skips, loudly) unless running as root with `setpriv`, and
 * with a checkout that `nobody` can read.
 */
const AS_NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, BIN];

/** Whether file permissions can keep pvlint from reading a file here: not root, or root with setpriv to become nobody. */
export function permissionsApply(): boolean {
  if (process.getuid?.() !== 0) return true;
  try {
    execFileSync('setpriv', [...AS_NOBODY, '--version'], { stdio: 'ignore', cwd: os.tmpdir() });
    return true;
  } catch {
    return false;
  }
}

export function runPvlintAsNobody(args: readonly string[], cwd: string): CliRun | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const asNobody = AS_NOBODY;
  try {
    execFileSync('setpriv', [...asNobody, '--version'], { stdio: 'ignore', cwd });
  } catch {
    return undefined;
  }
  const result = spawnSync('setpriv', [...asNobody, ...args], { cwd, encoding: 'utf8', env: plainEnv(), timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A temp directory with the given files (paths relative to it). */
export function tempTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-test-'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return dir;
}
