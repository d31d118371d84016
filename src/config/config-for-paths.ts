// Which configuration file applies to a run: the nearest `.pvlint.yaml|yml|json` found from each path argument
// upwards (stopping at the repository root, as findConfigFile does), else the one found from the working
// directory. `pvlint examples/custom-rules` from the repository root uses examples/custom-rules/.pvlint.yaml,
// as running it inside that directory does. Path arguments under different configuration files cannot be
// linted in one run with one configuration: that is a usage error that names both.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { findConfigFile } from './find-config.js';

export interface FoundConfig {
  /** Absolute path of the configuration file. */
  file: string;
  /** The argument it was found from ('.' style path as given), or undefined when found from the working directory. */
  from?: string;
}

export class ConfigConflictError extends Error {}

/** The directory a search starts in for `target`: itself, its directory for a file, the nearest existing ancestor. */
function startDirectory(target: string): string {
  let dir = target;
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    return statSync(dir).isDirectory() ? dir : path.dirname(dir);
  } catch {
    return dir;
  }
}

export function findConfigForPaths(cwd: string, paths: readonly string[]): FoundConfig | undefined {
  const found: FoundConfig[] = [];
  for (const argument of paths) {
    if (argument === '-') continue;
    const file = findConfigFile(startDirectory(path.resolve(cwd, argument)));
    if (file && !found.some((f) => f.file === file)) found.push({ file, from: argument });
  }
  if (found.length > 1) {
    const listed = found.map((f) => `${f.from} → ${path.relative(cwd, f.file) || f.file}`).join(', ');
    throw new ConfigConflictError(
      `the paths fall under different configuration files (${listed}): lint them in separate runs, or name one with --config`,
    );
  }
  if (found.length === 1) return found[0];
  // The working directory's configuration, unless it lies outside the repository of a path argument (running
  // `pvlint ../other-repo` from a directory with its own configuration must not apply that one there).
  const fromCwd = findConfigFile(cwd);
  if (!fromCwd) return undefined;
  for (const argument of paths) {
    if (argument === '-') continue;
    const root = repositoryRoot(startDirectory(path.resolve(cwd, argument)));
    if (root !== undefined && !isInside(root, fromCwd)) return undefined;
  }
  return { file: fromCwd };
}

/** The nearest directory at or above `dir` holding `.git`; undefined outside any repository. */
function repositoryRoot(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
