// Runs a renderer as a child process with a deadline. The child gets its own process group so a
// timeout can stop the tool and anything it started (kustomize may run helm, helm may run plugins).
import { spawn } from 'node:child_process';

export type RunStatus = 'ok' | 'failed' | 'timeout' | 'missing';

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
}

export function runCommand(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve) => {
    const [command, ...args] = argv;
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let settled = false;
    const finish = (result: RunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        // Negative pid: the whole group, so grandchildren do not outlive the deadline.
        if (child.pid !== undefined) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      finish({ status: missing ? 'missing' : 'failed', code: null, stdout: '', stderr: error.message });
    });
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) finish({ status: 'timeout', code, stdout, stderr });
      else finish({ status: code === 0 ? 'ok' : 'failed', code, stdout, stderr });
    });
  });
}
