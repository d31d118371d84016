// Symbolic links (loops, broken, out of the repository), FIFOs, directories named like files, unreadable paths.
// Tests run as root in CI, so "unreadable" is made of links and file types, not permissions.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { UsageError } from '../../src/load/discover.js';
import { runPvlint, runPvlintAsNobody } from '../helpers/spawn.js';
import { at, caseDir, findingsIn, fixtureText, lintBeside, lintIn, only, writeIn } from './helpers.js';

const test = suite('hostile file system');

const PVC = fixtureText('wrong-types.yaml').split('---\n')[2];

test('a symlink loop named .yaml is pvlint/read (ELOOP) for each link, and the run ends', async () => {
  const dir = caseDir();
  mkdirSync(path.join(dir, 'loops'));
  symlinkSync('b.yaml', path.join(dir, 'loops', 'a.yaml'));
  symlinkSync('a.yaml', path.join(dir, 'loops', 'b.yaml'));
  const result = await lintBeside(dir, ['loops']);
  for (const name of ['loops/a.yaml', 'loops/b.yaml']) assert.match(only(result, name, 'pvlint/read').message, /symbolic link loop \(ELOOP\)/);
});

test('directory links back up the tree (and to themselves) are followed at most once: every file is linted once', async () => {
  const dir = caseDir();
  writeIn(dir, 'tree/sub/pvc.yaml', PVC);
  symlinkSync('..', path.join(dir, 'tree', 'sub', 'up'));
  symlinkSync('.', path.join(dir, 'tree', 'self'));
  symlinkSync('sub', path.join(dir, 'tree', 'again'));
  const result = await lintBeside(dir, ['tree']);
  const files = [...new Set(result.findings.map((f) => f.location.file))].filter((f) => f !== 'good.yaml');
  assert.equal(files, ['tree/sub/pvc.yaml']);
  assert.is(findingsIn(result, 'tree/sub/pvc.yaml').filter((f) => f.ruleId === 'pvlint/shape').length, 1);
});

test('a link to a manifest elsewhere in the repository is linted once, under the link when its target is not in the walk', async () => {
  const dir = caseDir();
  writeIn(dir, 'shared/pvc.yaml', PVC);
  mkdirSync(path.join(dir, 'app'));
  symlinkSync('../shared/pvc.yaml', path.join(dir, 'app', 'pvc.yaml'));
  symlinkSync('../shared', path.join(dir, 'app', 'shared-dir'));
  const result = await lintBeside(dir, ['app']);
  // The file link and the directory link reach the same file: linted once, under the first path.
  const files = [...new Set(result.findings.map((f) => f.location.file))].filter((f) => f !== 'good.yaml');
  assert.equal(files, ['app/pvc.yaml']);
  // Linting the whole repository reaches it directly: the links add nothing.
  const whole = await lintIn(dir, ['.']);
  assert.equal([...new Set(whole.findings.map((f) => f.location.file))].filter((f) => f.startsWith('shared') || f.startsWith('app')), ['shared/pvc.yaml']);
});

test('links out of the repository are not followed (a note each) unless followSymlinks', async () => {
  const outside = mkdtempSync(path.join(os.tmpdir(), 'pvlint-outside-'));
  writeFileSync(path.join(outside, 'pvc.yaml'), PVC);
  const dir = caseDir();
  mkdirSync(path.join(dir, 'links'));
  symlinkSync(path.join(outside, 'pvc.yaml'), path.join(dir, 'links', 'file.yaml'));
  symlinkSync(outside, path.join(dir, 'links', 'dir'));
  const result = await lintBeside(dir, ['links']);
  for (const name of ['links/file.yaml', 'links/dir']) {
    const note = only(result, name, 'pvlint/read');
    assert.is(note.severity, 'note');
    assert.match(note.message, /outside the repository .*not followed \(--follow-symlinks follows it\)/);
  }
  const followed = await lintBeside(dir, ['links'], { followSymlinks: true });
  const files = [...new Set(followed.findings.map((f) => f.location.file))].filter((f) => f !== 'good.yaml');
  assert.equal(files, ['links/dir/pvc.yaml']);
});

test('a broken symlink given on the command line is pvlint/read, not "path not found"', async () => {
  const dir = caseDir();
  symlinkSync('nowhere.yaml', path.join(dir, 'broken.yaml'));
  const result = await lintBeside(dir, ['broken.yaml']);
  const read = only(result, 'broken.yaml', 'pvlint/read');
  assert.is(at(read), 'broken.yaml:1');
  assert.match(read.message, /broken symbolic link/);
  await lintIn(dir, ['no-such-file.yaml']).then(
    () => assert.unreachable('a path that does not exist is a usage error'),
    (error) => assert.instance(error, UsageError),
  );
});

test('a FIFO named .yaml is pvlint/read at once (reading it would block forever); given explicitly it is a usage error', async () => {
  const dir = caseDir();
  mkdirSync(path.join(dir, 'pipes'));
  execFileSync('mkfifo', [path.join(dir, 'pipes', 'fifo.yaml')]);
  const start = Date.now();
  const result = await lintBeside(dir, ['pipes']);
  assert.match(only(result, 'pipes/fifo.yaml', 'pvlint/read').message, /not a regular file/);
  assert.ok(Date.now() - start < 10_000);
  await lintIn(dir, ['pipes/fifo.yaml']).then(
    () => assert.unreachable('a FIFO argument is a usage error'),
    (error) => assert.instance(error, UsageError),
  );
});

test('a directory named like a manifest is walked, not read', async () => {
  const dir = caseDir();
  writeIn(dir, 'odd.yaml/pvc.yaml', PVC);
  const result = await lintBeside(dir, ['odd.yaml']);
  assert.ok(findingsIn(result, 'odd.yaml/pvc.yaml').some((f) => f.ruleId === 'pvlint/shape'));
  assert.equal(findingsIn(result, 'odd.yaml'), []);
});

test('the CLI: hostile corpus and file system in one run: exit 1, a JSON report, no stack trace, --follow-symlinks accepted', () => {
  const dir = caseDir(['half-written.yaml', 'go-template.yaml', 'tabs.yaml', 'duplicate-keys.yaml', 'billion-laughs.yaml', 'binary.yaml', 'non-utf8.yaml', 'wrong-types.yaml']);
  symlinkSync('loop.yaml', path.join(dir, 'loop.yaml'));
  symlinkSync('missing.yaml', path.join(dir, 'broken.yaml'));
  execFileSync('mkfifo', [path.join(dir, 'fifo.yaml')]);
  for (const args of [['--format', 'json', '.'], ['--format', 'json', '--follow-symlinks', '.'], ['--format', 'json', '--parse-all-documents', '.']]) {
    const run = runPvlint(args, { cwd: dir });
    assert.is(run.code, 1, run.stderr);
    assert.not.match(run.stderr, /\n\s+at .+:\d+:\d+/);
    const ids = new Set(JSON.parse(run.stdout).findings.map((f: any) => `${f.ruleId} ${f.location.file}`));
    for (const expected of ['pvlint/read loop.yaml', 'pvlint/read broken.yaml', 'pvlint/read fifo.yaml', 'pvlint/shape wrong-types.yaml']) {
      assert.ok(ids.has(expected), `${expected} missing from ${[...ids].join(', ')}`);
    }
    // The alias bomb is a ConfigMap: refused when parsed, never parsed when only the kinds rules read are.
    const parsesAll = args.includes('--parse-all-documents');
    assert.is(ids.has('pvlint/limit billion-laughs.yaml'), parsesAll, `${args.join(' ')}: ${[...ids].join(', ')}`);
  }
});

test('a directory pvlint may not list is a pvlint/read error, not silence; --ignore and node_modules stay quiet', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-unreadable-'));
  chmodSync(dir, 0o755);
  writeIn(dir, 'ok/pvc.yaml', PVC);
  writeIn(dir, 'secret/pvc.yaml', PVC);
  writeIn(dir, 'node_modules/x/pvc.yaml', PVC);
  for (const sub of ['ok', 'ok/pvc.yaml']) chmodSync(path.join(dir, sub), sub.endsWith('.yaml') ? 0o644 : 0o755);
  chmodSync(path.join(dir, 'secret'), 0o000);
  chmodSync(path.join(dir, 'node_modules'), 0o000);
  const run = runPvlintAsNobody(['--no-config', '-f', 'json', '.'], dir);
  if (!run) {
    console.warn('\n  SKIPPED (loudly): unreadable directories need root, setpriv, and a checkout that user nobody can read, to run pvlint as another user\n');
    return;
  }
  assert.is(run.code, 1, run.stderr);
  const findings = JSON.parse(run.stdout).findings.map((f: any) => `${f.ruleId} ${f.location.file}`);
  assert.ok(findings.includes('pvlint/read secret'), findings.join(', '));
  assert.ok(findings.some((f: string) => f.endsWith(' ok/pvc.yaml')), 'the readable directory is still linted');
  assert.not.ok(findings.some((f: string) => f.includes('node_modules')));
  const ignored = runPvlintAsNobody(['--no-config', '-f', 'json', '--ignore', 'secret/**', '.'], dir)!;
  assert.not.ok(JSON.parse(ignored.stdout).findings.some((f: any) => f.location.file === 'secret'));
});

test('dot-named directories and files, and names with a newline or a carriage return, are linted as Flux applies them; .git, CI configuration and dot-JSON are not', async () => {
  const dir = caseDir();
  const linted = ['.deploy/pvc.yaml', '.hidden.yaml', 'new\nline.yaml', 'carriage\rreturn.yml', 'apps/.overlay/pvc.yaml'];
  const skipped = ['.git/pvc.yaml', '.github/workflows/pvc.yaml', 'apps/.circleci/pvc.yaml', '.sops.yaml', '.vscode/pvc.json'];
  for (const name of [...linted, ...skipped]) writeIn(dir, name, name.endsWith('.json') ? '{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "x"}, "spec": {"accessModes": "ReadWriteOnce"}}' : PVC);
  const result = await lintBeside(dir, ['.']);
  const files = [...new Set(result.findings.map((f) => f.location.file))].filter((f) => f !== 'good.yaml').sort();
  assert.equal(files, [...linted].sort());
  for (const name of linted) assert.is(findingsIn(result, name).filter((f) => f.ruleId === 'pvlint/shape').length, 1, name);
});

test('--follow-symlinks stops at another file system: a link to / is not walked (pvlint/read at the link), the run ends at once', () => {
  if (statSync('/proc', { throwIfNoEntry: false })?.dev === statSync('/').dev) {
    console.warn('\n!!! SKIPPED link to /: /proc is not a file system of its own here !!!\n');
    return;
  }
  const dir = caseDir();
  writeIn(dir, 'pvc.yaml', PVC);
  symlinkSync('/', path.join(dir, 'root'));
  const started = Date.now();
  const run = runPvlint(['--format', 'json', '--no-config', '--follow-symlinks', '.'], { cwd: dir });
  const findings = JSON.parse(run.stdout).findings as any[];
  const stopped = findings.filter((f) => f.location.file === 'root');
  assert.is(stopped.length, 1, run.stdout);
  assert.is(stopped[0].ruleId, 'pvlint/read');
  assert.match(stopped[0].message, /another file system .*not followed/);
  assert.equal([...new Set(findings.map((f) => f.location.file))].sort(), ['good.yaml', 'pvc.yaml', 'root']);
  assert.ok(Date.now() - started < 30_000, 'the walk stopped at the first entry on another device');
});

test('--follow-symlinks stops at maxFiles entries of any kind under followed links: the link is not followed, and says so', async () => {
  const dir = caseDir();
  const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'pvlint-elsewhere-'));
  for (let i = 0; i < 60; i++) writeFileSync(path.join(elsewhere, `notes-${i}.txt`), 'not a manifest');
  writeFileSync(path.join(elsewhere, 'pvc.yaml'), PVC);
  mkdirSync(path.join(dir, 'links'));
  symlinkSync(elsewhere, path.join(dir, 'links', 'many'));
  const result = await lintBeside(dir, ['links'], { followSymlinks: true, limits: { maxFiles: 50 } });
  const limit = only(result, 'links/many', 'pvlint/limit');
  assert.match(limit.message, /more than 50 files and directories \(maxFiles\); not followed/);
  assert.equal(findingsIn(result, 'links/many/pvc.yaml'), []);
  // Under the bound, the same link is followed.
  const followed = await lintIn(dir, ['links'], { followSymlinks: true, limits: { maxFiles: 100 } });
  assert.is(findingsIn(followed, 'links/many/pvc.yaml').filter((f) => f.ruleId === 'pvlint/shape').length, 1);
});

test.run();
