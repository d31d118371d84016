#!/usr/bin/env node
// The executable: wires the real process into the CLI and sets the exit code.
import { writeFile } from 'node:fs/promises';
import { exitCodeAfterOutput, guardOutput } from './cli/closed-output.js';
import type { CliIO } from './cli/io.js';

const stdout = guardOutput(process.stdout);
const stderr = guardOutput(process.stderr);

/**
 * Standard input, keeping at most `maxBytes + 1` bytes: enough for lint() to see that it is over the limit, without
 * holding an endless pipe in memory. Up to `maxBytes` more are read and dropped, so a writer that is merely large
 * finishes without SIGPIPE; an endless one (`yes | pvlint -`) is cut off there instead of read forever.
 */
async function readStdin(maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  for await (const chunk of process.stdin) {
    if (kept > maxBytes) {
      dropped += (chunk as Buffer).length;
      if (dropped > maxBytes) {
        process.stdin.destroy();
        break;
      }
      continue;
    }
    const buffer = chunk as Buffer;
    const room = maxBytes + 1 - kept;
    chunks.push(buffer.length > room ? buffer.subarray(0, room) : buffer);
    kept += Math.min(buffer.length, room);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const argv = process.argv.slice(2);

/**
 * `pvlint --version` and `pvlint --help` alone are answered before the CLI (rules, model, reporters) is imported:
 * the same output and exit code the CLI gives, at the cost of node's start-up. Anything else goes through run().
 */
async function fastPath(): Promise<number | undefined> {
  if (argv.length !== 1) return undefined;
  if (argv[0] === '--version' || argv[0] === '-v') {
    const { pvlintVersion } = await import('./version.js');
    stdout.write(`${pvlintVersion()}\n`);
    return 0;
  }
  if (argv[0] === '--help' || argv[0] === '-h') {
    const { HELP } = await import('./cli/help.js');
    stdout.write(HELP);
    return 0;
  }
  return undefined;
}

const io: CliIO = {
  stdout: stdout.write,
  stderr: stderr.write,
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
  readStdin,
  writeFile: (file, text) => writeFile(file, text, 'utf8'),
};

// Ctrl-C and SIGTERM stop the renderers pvlint started and remove its temporary directories before it exits.
async function runCli(): Promise<number> {
  const { run, stopOnSignals } = await import('./cli/entry.js');
  stopOnSignals();
  return run(argv, io);
}

fastPath().then(async (code) => code ?? runCli()).then(
  (code) => finish(code),
  (error) => {
    const detail = process.env.PVLINT_DEBUG ? (error as Error)?.stack : undefined;
    stderr.write(`pvlint: internal error: ${detail ?? (error as Error)?.message ?? String(error)}\n`);
    finish(2);
  },
);

/** The exit code, once what was written has been flushed (a write error arrives after the write call). */
function finish(code: number): void {
  process.exitCode = code;
  const settle = () => {
    const failure = stdout.failure();
    if (failure !== undefined && failure !== 'EPIPE') stderr.write(`pvlint: cannot write the report to stdout: ${failure}\n`);
    process.exitCode = exitCodeAfterOutput(code, failure);
  };
  // An empty write's callback runs after every earlier write was handed to the system (or failed).
  if (stdout.failure() !== undefined || process.stdout.writableLength === 0) {
    setImmediate(settle);
  } else {
    process.stdout.write('', () => settle());
  }
}
