#!/usr/bin/env node
// The executable: wires the real process into the CLI and sets the exit code.
import { writeFile } from 'node:fs/promises';
import { run } from './cli/main.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  cwd: process.cwd(),
  readStdin,
  writeFile: (file, text) => writeFile(file, text, 'utf8'),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    const detail = process.env.PVLINT_DEBUG ? (error as Error)?.stack : undefined;
    process.stderr.write(`pvlint: internal error: ${detail ?? (error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 2;
  },
);
