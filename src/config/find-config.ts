// Where the configuration lives: `--config FILE`, else the first `.pvlint.yaml`, `.pvlint.yml` or `.pvlint.json`
// found from the working directory upwards, stopping at the repository root (the directory holding `.git`), so a
// file outside the repo never applies to it.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

export const CONFIG_NAMES = ['.pvlint.yaml', '.pvlint.yml', '.pvlint.json'] as const;

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The configuration file that applies to `cwd`, as an absolute path; undefined when there is none. */
export function findConfigFile(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    for (const name of CONFIG_NAMES) {
      const candidate = path.join(dir, name);
      if (isFile(candidate)) return candidate;
    }
    if (existsSync(path.join(dir, '.git'))) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A configuration file directly in `dir`, whatever its name (what `pvlint init` refuses to overwrite). */
export function configFileIn(dir: string): string | undefined {
  return CONFIG_NAMES.map((name) => path.join(dir, name)).find(isFile);
}
