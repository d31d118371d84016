// `npm test`: uvu over dist/test with TMPDIR pointing at one fresh directory that is removed afterwards, so the
// temporary trees, git repositories, packed tarballs and npm installs the tests make do not pile up in /tmp
// (about 220 directories and 126 MB per run before). Extra arguments go to uvu (e.g. a file pattern).
import { spawnSync } from 'node:child_process';
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
try {
  const result = spawnSync(process.execPath, [uvu, dir, pattern, ...rest], { stdio: 'inherit', env: { ...process.env, TMPDIR: root } });
  status = result.status ?? 1;
} finally {
  const { entries, bytes } = measure(root);
  rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  console.log(`removed the tests' ${entries} temporary entries (${(bytes / 1024 / 1024).toFixed(0)} MB) from ${root}`);
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
