// Finds renderer binaries on PATH without running them, and splits user-given command strings.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  // Absolute entries only: a relative one (`.`) would find a file of the repo being linted.
  const dirs = (env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '' && path.isAbsolute(dir));
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const candidate = path.join(dir, name + ext);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  return undefined;
}

/** Splits `kustomize build --load-restrictor LoadRestrictionsNone` into argv; quotes group words. No shell is involved. */
export function splitCommand(command: string): string[] {
  const argv: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let match = pattern.exec(command); match; match = pattern.exec(command)) {
    argv.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2] ?? match[3]);
  }
  return argv;
}
