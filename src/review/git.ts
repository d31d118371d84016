// The base tree of `--base <ref>`: the ref resolved to a commit, and its files written to a temporary directory.
// The user's checkout is never touched: no worktree is registered, the index and HEAD stay as they are. The files
// come from `git read-tree` into a temporary index file and `git checkout-index --prefix` out of it, so they are the
// commit's files exactly (`git archive` would apply export-ignore and export-subst attributes).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { trackTemporaryDirectory, untrackTemporaryDirectory } from '../render/interrupt.js';

/** An error that ends the run with exit code 2 and a message saying what to do. */
export class ReviewError extends Error {}

interface GitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function git(args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') reject(new ReviewError('--base needs git, and git is not installed (not found on PATH)'));
      else reject(error);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface BaseCommit {
  /** The repository's top directory (real path). */
  top: string;
  /** The full commit id the ref names. */
  commit: string;
}

/** Resolves the ref to a commit; a missing ref in a shallow clone says how to fetch the history. */
export async function resolveBase(ref: string, cwd: string): Promise<BaseCommit> {
  const top = await git(['rev-parse', '--show-toplevel'], cwd);
  if (top.code !== 0) {
    throw new ReviewError(`--base ${ref}: ${cwd} is not inside a git repository; --base compares the working tree with a commit of its repository`);
  }
  if (ref.startsWith('-')) throw new ReviewError(`--base ${ref}: not a git ref`);
  const resolved = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], cwd);
  if (resolved.code === 0) return { top: await realpath(top.stdout.trim()), commit: resolved.stdout.trim() };
  const shallow = await git(['rev-parse', '--is-shallow-repository'], cwd);
  if (shallow.stdout.trim() === 'true') {
    throw new ReviewError(
      `--base ${ref}: no such commit in this shallow clone: it holds only the last commits, not the base. Fetch the history: ` +
        'in GitHub Actions, `actions/checkout` with `fetch-depth: 0`; elsewhere `git fetch --unshallow`, or ' +
        `\`git fetch origin <base-branch>\` and pass \`--base origin/<base-branch>\``,
    );
  }
  throw new ReviewError(
    `--base ${ref}: no commit, branch or tag of that name in this repository. For a remote branch, fetch it first ` +
      `(\`git fetch origin <branch>\`) and pass \`--base origin/<branch>\`; \`git branch -a\` lists what is there`,
  );
}

/** Writes the commit's files into a new temporary directory and returns it (real path); remove it with removeTree(). */
export async function extractTree(base: BaseCommit): Promise<string> {
  const scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), 'pvlint-base-')));
  trackTemporaryDirectory(scratch);
  const tree = path.join(scratch, 'tree');
  // A private index file: the repository's own index is neither read nor written.
  const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
  try {
    const read = await git(['read-tree', base.commit], base.top, env);
    if (read.code !== 0) throw new ReviewError(`--base: cannot read the tree of ${base.commit}: ${read.stderr.trim()}`);
    const checkout = await git(['checkout-index', '--all', '--force', `--prefix=${tree}${path.sep}`], base.top, env);
    if (checkout.code !== 0) throw new ReviewError(`--base: cannot write the files of ${base.commit}: ${checkout.stderr.trim()}`);
    await mkdir(tree, { recursive: true });
  } catch (error) {
    await removeTree(scratch);
    throw error;
  }
  return tree;
}

/** Removes what extractTree() wrote (the tree's parent scratch directory). */
export async function removeTree(tree: string): Promise<void> {
  const scratch = path.basename(tree) === 'tree' ? path.dirname(tree) : tree;
  await rm(scratch, { recursive: true, force: true });
  untrackTemporaryDirectory(scratch);
}
