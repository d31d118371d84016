// Custom rule files are code pvlint runs. As git refuses a repository owned by someone else ("dubious
// ownership"), pvlint refuses to run rule code when the configuration that names it, or the rule file, is owned
// by another user (root excepted: root can change anything anyway) or writable by everyone, or sits in a directory
// writable by everyone without the sticky bit: anyone on the machine could then make pvlint run their code.
// PVLINT_TRUST_RULE_FILES=1 runs it anyway (a container that mounts the checkout under another uid), and pvlint
// says so on stderr every time.
import { statSync } from 'node:fs';
import path from 'node:path';

export const TRUST_VARIABLE = 'PVLINT_TRUST_RULE_FILES';

/** Why `file` is not safe to run code from, or undefined when it is (or when the platform has no uids). */
export function untrustedReason(file: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  let info;
  try {
    info = statSync(file);
  } catch {
    return undefined; // a missing file is reported where it is loaded
  }
  if ((info.mode & 0o002) !== 0) return 'it is writable by every user';
  if (info.uid !== uid && info.uid !== 0) return `it is owned by uid ${info.uid}, not by the user running pvlint (uid ${uid})`;
  try {
    const dir = statSync(path.dirname(file));
    if ((dir.mode & 0o002) !== 0 && (dir.mode & 0o1000) === 0) return 'its directory is writable by every user';
  } catch {
    // unreadable directory: loading says so
  }
  return undefined;
}

export function trustOverridden(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[TRUST_VARIABLE] === '1';
}
