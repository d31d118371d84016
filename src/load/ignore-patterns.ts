// `--ignore` globs match the paths pvlint prints (relative to the repository root) as well as, as before, paths
// relative to each directory argument: `--ignore 'examples/plain/**'` works from the root whatever the argument.
// Absolute globs (the configuration's `ignore`, anchored at the configuration file's directory) stay as they are.
// A glob that matches nothing under any argument is most often a typo or a wrong base: the CLI warns about it.
import fg from 'fast-glob';
import path from 'node:path';

const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];

/** fast-glob patterns use `/` and treat glob characters in a directory name as globs unless escaped. */
function anchor(dir: string, glob: string): string {
  return `${fg.escapePath(dir.split(path.sep).join('/'))}/${glob.replace(/^\.?\//, '')}`;
}

/** The ignore globs for a walk: each relative one also anchored at the repository root. */
export function withRootAnchors(globs: readonly string[], root: string | undefined): string[] {
  if (root === undefined) return [...globs];
  const out = [...globs];
  for (const glob of globs) if (!path.isAbsolute(glob) && !glob.startsWith('!')) out.push(anchor(root, glob));
  return out;
}

/** Whether anything (file or directory) matches `pattern` under `cwd`; stops at the first match. */
async function matchesAny(pattern: string, cwd: string): Promise<boolean> {
  const stream = fg.stream([pattern], { cwd, dot: true, onlyFiles: false, followSymbolicLinks: false, suppressErrors: true, ignore: ALWAYS_IGNORED });
  try {
    for await (const _ of stream) return true;
    return false;
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
}

/**
 * The globs of `globs` that match nothing: not relative to any directory argument, not relative to the
 * repository root, and (absolute ones) not where they point. A trailing `/**` also counts the directory itself.
 */
export async function unmatchedIgnores(globs: readonly string[], directories: readonly string[], root: string): Promise<string[]> {
  const unmatched: string[] = [];
  for (const glob of globs) {
    const variants = glob.endsWith('/**') ? [glob, glob.slice(0, -3)] : [glob];
    let matched = false;
    for (const variant of variants) {
      if (path.isAbsolute(variant)) {
        matched = await matchesAny(variant, '/').catch(() => false);
      } else {
        for (const dir of [...new Set([...directories, root])]) {
          if (await matchesAny(variant, dir).catch(() => false)) {
            matched = true;
            break;
          }
        }
      }
      if (matched) break;
    }
    if (!matched) unmatched.push(glob);
  }
  return unmatched;
}
