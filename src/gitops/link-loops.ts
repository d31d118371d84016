// Directory links that lead back into a directory a recursive walk is inside (`loop -> .`, `up -> ..`): entering them
// repeats the walk through every such link at every level, until paths grow too long (two loops double the walk per
// level). The walks of a repository that follow links (Flux's generator, Argo CD's directory sources and git
// generators) enter a directory link only when it does not loop back.
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { FileSystemAdapter } from 'fast-glob';

export function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * The real path of `abs`, a directory the walk is about to enter from its parent (real path `parentReal`), or
 * undefined when it is a link back to one of the directories the walk is inside (`inside`, real paths).
 */
export function enterable(abs: string, parentReal: string, isLink: boolean, inside: readonly string[]): string | undefined {
  const real = isLink ? realpathOrUndefined(abs) : path.join(parentReal, path.basename(abs));
  return real !== undefined && !inside.includes(real) ? real : undefined;
}

/** fast-glob's `fs` for a walk of `root` that follows links: a directory that is one of its own ancestors lists nothing. */
export function loopFreeFs(root: string): Partial<FileSystemAdapter> {
  const reals = new Map<string, string | undefined>();
  const realOf = (p: string) => {
    if (!reals.has(p)) reals.set(p, realpathOrUndefined(p));
    return reals.get(p);
  };
  const top = path.resolve(root);
  const readdir = (dir: string, options?: unknown) => {
    const here = realOf(dir);
    for (let at = path.dirname(dir); here !== undefined && at.length >= top.length && at !== path.dirname(at); at = path.dirname(at)) {
      if (realOf(at) === here) return [];
    }
    return (readdirSync as unknown as (d: string, o?: unknown) => unknown[])(dir, options);
  };
  return { readdirSync: readdir as unknown as FileSystemAdapter['readdirSync'] };
}
