// A reader that closes the pipe early (`pvlint -f json | head -1`) or a full disk: no Node stack trace, and for a
// closed pipe the exit code pvlint would have had with the whole report read.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, PROJECT_ROOT } from '../helpers/paths.js';
import { plainEnv, runPvlint } from '../helpers/spawn.js';

const closed = suite('closed output');
const cwd = `${PROJECT_ROOT}/examples`;

/** Runs pvlint into a pipe whose reader (`true`) is gone before pvlint writes, so every write meets EPIPE. */
function intoClosedPipe(args: readonly string[]): { code: number; stderr: string } {
  const quoted = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const result = spawnSync('bash', ['-c', `"$0" ${quoted} 2>"$ERR_FILE" | true; code=\${PIPESTATUS[0]}; cat "$ERR_FILE"; exit $code`, process.execPath], {
    cwd,
    encoding: 'utf8',
    env: { ...plainEnv(), ERR_FILE: `/tmp/pvlint-closed-${process.pid}.err` },
  });
  spawnSync('rm', ['-f', `/tmp/pvlint-closed-${process.pid}.err`]);
  return { code: result.status ?? -1, stderr: result.stdout + result.stderr };
}

const CASES: string[][] = [
  ['plain'],
  ['-f', 'json', 'plain'],
  ['-f', 'sarif', 'plain'],
  ['-f', 'github', 'plain'],
  ['-f', 'markdown', 'plain'],
  ['graph', 'plain'],
  ['graph', '-f', 'html', 'plain'],
  ['graph', '-f', 'dot', 'plain'],
  ['rules'],
  ['rules', '--format', 'json'],
  ['explain', 'rwo-claim-multi-node'],
  ['--help'],
  ['--version'],
];

for (const args of CASES) {
  closed(`pvlint ${args.join(' ')} | (closed): quiet, same exit code`, () => {
    const expected = runPvlint(args, { cwd });
    const piped = intoClosedPipe(args);
    assert.is(piped.code, expected.code, piped.stderr);
    assert.not.match(piped.stderr, /EPIPE|at .*\.js:\d+|Error:/, piped.stderr);
  });
}

if (existsSync('/dev/full')) {
  closed('a full disk (stdout to /dev/full): one line on stderr, exit 2, no stack trace', () => {
    const result = spawnSync('bash', ['-c', `"$0" "$1" -f json plain >/dev/full`, process.execPath, BIN], { cwd, encoding: 'utf8', env: plainEnv() });
    assert.is(result.status, 2, result.stderr);
    assert.is(result.stderr, 'pvlint: cannot write the report to stdout: ENOSPC\n');
  });
  closed('stderr on a full disk: the exit code stands, nothing crashes', () => {
    const run = (args: string) => spawnSync('bash', ['-c', `"$0" "$1" ${args} 2>/dev/full; echo "exit=$?"`, process.execPath, BIN], { cwd, encoding: 'utf8', env: plainEnv() });
    assert.match(run('no-such-path').stdout, /^exit=2\n$/);
    const findings = run('-f json plain');
    assert.match(findings.stdout, /\nexit=1\n$/);
    JSON.parse(findings.stdout.replace(/exit=1\n$/, ''));
  });
} else {
  console.warn('\n!! SKIPPED: the /dev/full test (no /dev/full on this system)\n');
  closed.skip('a full disk (stdout to /dev/full): one line on stderr, exit 2, no stack trace', () => {});
}

closed.run();
