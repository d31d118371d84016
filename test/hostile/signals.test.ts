// SIGINT and SIGTERM during a render: the renderer's process group is killed and pvlint's temporary directories are
// removed before it exits (128 + the signal's number). The renderer is a script that records its pid and sleeps.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/paths.js';
import { caseDir, writeIn } from './helpers.js';

const test = suite('signals');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  test(`${signal} during a slow render: the renderer is killed, temporary directories removed, exit ${code}`, async () => {
    if (process.platform === 'win32') return;
    const dir = caseDir();
    writeIn(dir, 'app/kustomization.yaml', 'resources: []\n');
    const bin = mkdtempSync(path.join(os.tmpdir(), 'pvlint-slow-'));
    const pidFile = path.join(bin, 'pid');
    const renderer = path.join(bin, 'slow-kustomize');
    writeFileSync(renderer, `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 60\n`);
    chmodSync(renderer, 0o755);
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'pvlint-tmp-'));
    const child = spawn(process.execPath, [BIN, '--kustomize-command', renderer, 'app'], { cwd: dir, env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (status) => resolve(status)));
    assert.ok(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 30_000), 'the renderer started');
    const rendererPid = Number(readFileSync(pidFile, 'utf8'));
    assert.ok(readdirSync(tmp).length > 0, 'pvlint made its wrapper directory');
    child.kill(signal);
    assert.is(await exited, code);
    assert.ok(await waitFor(() => !alive(rendererPid), 5_000), 'the renderer is gone');
    assert.equal(readdirSync(tmp), [], 'temporary directories removed');
  });
}

test.run();
