// pvlint runs custom rule code only from a configuration and rule files the user owns and nobody else can write;
// PVLINT_TRUST_RULE_FILES=1 overrides that, and pvlint says so.
import { chmodSync, chownSync, cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { requires } from '../helpers/requires.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';

const trust = suite('custom rule files: ownership and permissions');

function example(): string {
  const dir = tempTree({});
  mkdirSync(path.join(dir, '.git'));
  cpSync(path.join(PROJECT_ROOT, 'examples', 'custom-rules'), dir, { recursive: true });
  return dir;
}

trust('a configuration writable by every user: no rule code runs, exit 2 with the reason; the override says so', () => {
  const dir = example();
  assert.is(runPvlint(['.'], { cwd: dir }).code, 1, 'the example runs as shipped');
  chmodSync(path.join(dir, '.pvlint.yaml'), 0o666);
  const refused = runPvlint(['.'], { cwd: dir });
  assert.is(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /not running custom rule code: \.pvlint\.yaml: it is writable by every user/);
  assert.match(refused.stderr, /PVLINT_TRUST_RULE_FILES=1/);
  const forced = runPvlint(['.'], { cwd: dir, env: { PVLINT_TRUST_RULE_FILES: '1' } });
  assert.is(forced.code, 1, forced.stderr);
  assert.match(forced.stderr, /^pvlint: warning: running custom rule code although \.pvlint\.yaml: it is writable by every user/m);
});

trust('a rule file writable by every user is refused too', () => {
  const dir = example();
  chmodSync(path.join(dir, 'rules', 'prod-storage-class.ts'), 0o666);
  const refused = runPvlint(['.'], { cwd: dir });
  assert.is(refused.code, 2);
  assert.match(refused.stderr, /rules\/prod-storage-class\.ts: it is writable by every user/);
});

const ROOT = process.getuid?.() === 0;
requires(trust, ROOT, 'the foreign-owner test of custom rule files', 'it needs root to give a file to another user', 'run the tests as root (CI does)')(
  'a configuration owned by another user is refused',
  () => {
    const dir = example();
    chownSync(path.join(dir, '.pvlint.yaml'), 65534, 65534);
    const refused = runPvlint(['.'], { cwd: dir });
    assert.is(refused.code, 2);
    assert.match(refused.stderr, /\.pvlint\.yaml: it is owned by uid 65534, not by the user running pvlint \(uid 0\)/);
  },
);

trust.run();
