// What a new user meets in the first runs: --ignore with the paths pvlint prints, a warning for a glob that
// matches nothing, an empty directory as a usage error, and colours as the Node ecosystem switches them.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { BIN } from '../helpers/paths.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';
import { MISSING_CLAIM } from '../helpers/manifests.js';

const first = suite('first hour');


function repo(files: Record<string, string>): string {
  const dir = tempTree(files);
  mkdirSync(path.join(dir, '.git'));
  return dir;
}

const files = (stdout: string) => [...new Set(JSON.parse(stdout).findings.map((f: { location: { file: string } }) => f.location.file))].sort();

first('--ignore matches the repo-relative paths pvlint prints, and paths relative to the argument, from any directory', () => {
  const dir = repo({ 'clusters/prod/a.yaml': MISSING_CLAIM, 'clusters/prod/b.yaml': MISSING_CLAIM, 'clusters/dev/c.yaml': MISSING_CLAIM });
  const all = runPvlint(['-f', 'json', 'clusters'], { cwd: dir });
  assert.equal(files(all.stdout), ['clusters/dev/c.yaml', 'clusters/prod/a.yaml', 'clusters/prod/b.yaml']);
  // As printed (repository-relative), from the root and from a subdirectory.
  const printed = runPvlint(['-f', 'json', '--ignore', 'clusters/prod/**', 'clusters'], { cwd: dir });
  assert.equal(files(printed.stdout), ['clusters/dev/c.yaml'], printed.stderr);
  assert.is(printed.stderr, '');
  const fromSub = runPvlint(['-f', 'json', '--ignore', 'clusters/prod/a.yaml', '.'], { cwd: path.join(dir, 'clusters') });
  assert.equal(files(fromSub.stdout), ['clusters/dev/c.yaml', 'clusters/prod/b.yaml'], fromSub.stderr);
  // Relative to the argument, as before.
  const relative = runPvlint(['-f', 'json', '--ignore', 'prod/**', 'clusters'], { cwd: dir });
  assert.equal(files(relative.stdout), ['clusters/dev/c.yaml']);
});

first('an --ignore glob that matches nothing is a warning on stderr; the run goes on', () => {
  const dir = repo({ 'k8s/a.yaml': MISSING_CLAIM });
  const run = runPvlint(['--ignore', 'k8z/**', '--ignore', 'k8s/a.yaml', '--ignore', 'nothing.yaml', '.'], { cwd: dir });
  assert.is(run.code, 2, 'everything else ignored: nothing to lint');
  const typo = runPvlint(['-f', 'json', '--ignore', 'k8z/**', '.'], { cwd: dir });
  assert.is(typo.code, 0, 'a note only');
  assert.is(typo.stderr, "pvlint: warning: --ignore 'k8z/**' matches no file (globs match paths relative to the repository root, as printed, or to each directory argument)\n");
  const config = repo({ '.pvlint.yaml': 'ignore:\n  - vendro/**\n', 'k8s/a.yaml': MISSING_CLAIM });
  const fromConfig = runPvlint(['.'], { cwd: config });
  assert.match(fromConfig.stderr, /^pvlint: warning: the configuration's ignore 'vendro\/\*\*' matches no file \(its globs are relative to the configuration file\)$/m);
});

first('nothing to lint under a named directory (empty, or all ignored) is a usage error, exit 2', () => {
  const dir = repo({ 'k8s/a.yaml': MISSING_CLAIM, 'docs/README.md': '# docs\n' });
  mkdirSync(path.join(dir, 'empty'));
  const empty = runPvlint(['empty'], { cwd: dir });
  assert.is(empty.code, 2);
  assert.match(empty.stderr, /^pvlint: nothing to lint in empty: no \.yaml, \.yml or \.json manifest, Kustomization or Helm chart\n/);
  assert.is(empty.stdout, '');
  assert.is(runPvlint(['docs'], { cwd: dir }).code, 2);
  const ignored = runPvlint(['--ignore', 'k8s/**', 'k8s'], { cwd: dir });
  assert.is(ignored.code, 2);
  assert.match(ignored.stderr, /nothing to lint in k8s: .* that is not ignored/);
});

const ESC = '\u001b[';
first('colours: --color / --no-color win; FORCE_COLOR over NO_COLOR; FORCE_COLOR=0 off; none in a pipe by default', () => {
  const dir = repo({ 'a.yaml': MISSING_CLAIM });
  const colored = (args: string[], env: Record<string, string>) => {
    const clean: NodeJS.ProcessEnv = { ...process.env };
    delete clean.NO_COLOR;
    delete clean.FORCE_COLOR;
    const run = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', env: { ...clean, ...env } });
    return run.stdout.includes(ESC);
  };
  const plain = { NO_COLOR: '1' };
  assert.not.ok(colored(['.'], plain), 'a pipe with NO_COLOR: none');
  assert.ok(colored(['--color', '.'], plain), '--color wins over NO_COLOR');
  assert.ok(colored(['.'], { NO_COLOR: '1', FORCE_COLOR: '1' }), 'FORCE_COLOR wins over NO_COLOR');
  assert.not.ok(colored(['.'], { FORCE_COLOR: '0' }), 'FORCE_COLOR=0');
  assert.not.ok(colored(['--no-color', '.'], { FORCE_COLOR: '1' }), '--no-color wins over FORCE_COLOR');
  assert.not.ok(colored(['-f', 'json', '--color', '.'], {}), 'JSON is never coloured');
  assert.not.ok(colored(['.'], {}), 'stdout is a pipe: none by default');
  assert.not.ok(colored(['.'], { NO_COLOR: '' }), 'an empty NO_COLOR changes nothing');
});

first('--help documents --color, --no-color, NO_COLOR and FORCE_COLOR', () => {
  const help = runPvlint(['--help'], { cwd: tempTree({}) }).stdout;
  for (const word of ['--color', '--no-color', 'NO_COLOR', 'FORCE_COLOR', '--debug']) assert.ok(help.includes(word), word);
});

first.run();
