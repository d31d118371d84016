// Runs a renderer as a child process with a deadline. The child gets its own process group so a
// timeout can stop the tool and anything it started (kustomize may run helm, helm may run plugins).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { trackProcessGroup } from './interrupt.js';
import type { ProcessSlots } from './pool.js';

/** The longest delay setTimeout honours. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type RunStatus = 'ok' | 'failed' | 'timeout' | 'missing' | 'too-large';

export interface RunResult {
  status: RunStatus;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  /** Stop the child (status `too-large`) once stdout passes this many bytes; stderr keeps its last 64 KiB. */
  maxOutputBytes?: number;
  /** Shared by the renders of one run: the child waits for a free slot (see ProcessSlots). */
  slots?: ProcessSlots;
}

/**
 * The environment with only absolute PATH entries: a relative entry (`.`, `bin`) would let a file of the repo
 * being linted stand in for kustomize or helm.
 */
export function absolutePathEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.PATH === undefined) return env;
  return { ...env, PATH: env.PATH.split(path.delimiter).filter((dir) => dir !== '' && path.isAbsolute(dir)).join(path.delimiter) };
}

export function runCommand(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  return options.slots ? options.slots.run(() => runChild(argv, options)) : runChild(argv, options);
}

function runChild(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    const [command, ...args] = argv;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: absolutePathEnv(options.env ?? process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let tooLarge = false;
    let outBytes = 0;
    let errBytes = 0;
    let settled = false;
    const untrack = trackProcessGroup(process.platform === 'win32' ? undefined : child.pid);
    const finish = (result: RunResult) => {
      if (settled) return;
      settled = true;
      untrack();
      clearTimeout(timer);
      resolve(result);
    };
    const stop = () => {
      try {
        // Negative pid: the whole group, so grandchildren do not outlive the deadline.
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    // setTimeout takes at most 2^31-1 ms (24.8 days); past that Node fires it at once, so `--render-timeout 1e10`
    // would stop every render immediately. Longer than that is "no deadline" in practice.
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, Math.min(options.timeoutMs, MAX_TIMER_MS));
    const maxOut = options.maxOutputBytes ?? Number.POSITIVE_INFINITY;
    child.stdout.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      outBytes += chunk.length;
      if (outBytes > maxOut) {
        // A renderer that loops (a chart ranging forever, a generator gone wild) must not fill the memory.
        tooLarge = true;
        out.length = 0;
        stop();
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err.push(chunk);
      errBytes += chunk.length;
      while (errBytes > 65536 && err.length > 1) errBytes -= err.shift()!.length;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      finish({ status: missing ? 'missing' : 'failed', code: null, stdout: '', stderr: error.message });
    });
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (tooLarge) finish({ status: 'too-large', code, stdout: '', stderr });
      else if (timedOut) finish({ status: 'timeout', code, stdout, stderr });
      else finish({ status: code === 0 ? 'ok' : 'failed', code, stdout, stderr });
    });
  });
}
