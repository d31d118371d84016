// `npm test`: uvu over dist/test with TMPDIR pointing at one fresh directory that is removed afterwards, so the
// temporary trees, git repositories, packed tarballs and npm installs the tests make do not pile up in /tmp
// (about 220 directories and 126 MB per run before). Extra arguments go to uvu (e.g. a file pattern).
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const root = mkdtempSync(path.join(os.tmpdir(), 'pvlint-tests-'));
// Tests run some processes as user nobody (unreadable-file tests): they must reach their own directories here.
chmodSync(root, 0o755);
// uvu exports no package.json: its bin is found from its entry point (node_modules/uvu/dist/index.js).
const uvu = path.join(path.dirname(createRequire(import.meta.url).resolve('uvu')), '..', 'bin.js');
const [dir = 'dist/test', pattern = '\\.test\\.js$', ...rest] = process.argv.slice(2);
let status = 1;
let output = '';
try {
  status = await new Promise((resolve) => {
    const child = spawn(process.execPath, [uvu, dir, pattern, ...rest], {
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: root },
    });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
  // uvu prints a failure under its file's line, thousands of lines above the end: CI logs often keep only the
  // tail, so the failures are said again last.
  const failures = failureBlocks(output);
  if (failures.length > 0) console.log(`\n${failures.length} failed test(s), again:\n\n${failures.join('\n\n')}\n`);
} finally {
  const { entries, bytes } = measure(root);
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  console.log(`removed the tests' ${entries} temporary entries (${(bytes / 1024 / 1024).toFixed(0)} MB) from ${root}`);
}

/** Each of uvu's failure reports (its FAIL line and what follows, up to the end of its stack trace, at most 40 lines), colours removed. */
function failureBlocks(text) {
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const blocks = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^\s*FAIL\s/.test(lines[index])) continue;
    const block = [lines[index]];
    for (let next = index + 1; next < lines.length && next <= index + 40 && !/^\s*(FAIL\s|Total:)/.test(lines[next]); next++) {
      // the stack trace ends the report
      if (lines[next].trim() === '' && /^\s+at /.test(lines[next - 1])) break;
      block.push(lines[next]);
    }
    blocks.push(block.join('\n').trimEnd());
  }
  return blocks;
}

/** Top-level entries and total size of what the tests left. */
function measure(dir) {
  let bytes = 0;
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      try {
        if (entry.isDirectory()) walk(full);
        else bytes += lstatSync(full).size;
      } catch {
        // vanished or unreadable: not counted
      }
    }
  };
  try {
    walk(dir);
    return { entries: readdirSync(dir).length, bytes };
  } catch {
    return { entries: 0, bytes };
  }
}
process.exit(status);
