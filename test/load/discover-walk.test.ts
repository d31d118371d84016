// Discovery lists an argument in one synchronous pass, and walks it as a stream (which stops at maxFiles manifests)
// only when the tree holds more entries than the listing may: both ways must find exactly the same thing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discover, type DiscoverOptions } from '../../src/load/discover.js';

const test = suite('discover: one-pass listing and stream walk agree');

const PVC = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n';

function write(dir: string, name: string, text = PVC): void {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), text);
}

/** A repository with every kind of entry discovery treats specially, and `arg/` inside it. */
function tree(): { root: string; outside: string } {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-walk-')));
  const outside = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-walk-out-')));
  write(outside, 'far.yaml');
  write(outside, 'sub/far.yaml');
  for (const name of [
    'arg/a.yaml', 'arg/b/c.yml', 'arg/b/d.json', 'arg/b/notes.txt', 'arg/deep/x/y/z.yaml',
    'arg/.deploy/pvc.yaml', 'arg/.hidden.yaml', 'arg/new\nline.yaml', 'arg/carriage\rreturn.yml', 'arg/sp ace [x]/p.yaml',
    'arg/.git/pvc.yaml', 'arg/node_modules/m/pvc.yaml', 'arg/.github/workflows/ci.yaml', 'arg/b/.circleci/config.yml',
    'arg/.sops.yaml', 'arg/.vscode/settings.json', 'arg/skipped/s.yaml', 'arg/rootanchored/r.yaml', 'arg/abs/q.yaml',
    'arg/kust/kustomization.yaml', 'arg/kust/res.yaml', 'arg/chart/Chart.yaml', 'arg/chart/templates/t.yaml',
  ]) {
    write(root, name, name.endsWith('kustomization.yaml') ? 'resources: [res.yaml]\n' : name.endsWith('Chart.yaml') ? 'apiVersion: v2\nname: c\nversion: 0.1.0\n' : PVC);
  }
  write(root, 'arg/.pre-commit-config.yaml', 'repos: []\n');
  write(root, 'arg/.yaml-dir.yaml/inner.yaml');
  symlinkSync('../a.yaml', path.join(root, 'arg/b/link-to-a.yaml'));
  symlinkSync('..', path.join(root, 'arg/deep/up'));
  symlinkSync(path.join(outside, 'far.yaml'), path.join(root, 'arg/far.yaml'));
  symlinkSync(path.join(outside, 'sub'), path.join(root, 'arg/far-dir'));
  symlinkSync(path.join(root, 'other'), path.join(root, 'arg/in-repo'));
  symlinkSync('missing.yaml', path.join(root, 'arg/broken.yaml'));
  write(root, 'other/o.yaml');
  return { root, outside };
}

function options(root: string, extra: Partial<DiscoverOptions>): DiscoverOptions {
  return { cwd: root, roots: [root], ignore: ['skipped/**', 'arg/rootanchored/**', path.join(root, 'arg/abs/**')], ...extra };
}

for (const follow of [false, true]) {
  test(`every file, link, note and root is the same either way${follow ? ' (--follow-symlinks)' : ''}`, async () => {
    const { root } = tree();
    const listed = await discover('arg', options(root, { followSymlinks: follow }));
    const streamed = await discover('arg', options(root, { followSymlinks: follow, listingBound: 0 }));
    assert.equal(listed, streamed);
    const files = listed.files.map((f) => path.relative(root, f));
    // The walk saw what it had to: hidden and odd names in, ignored and tool files out.
    for (const name of ['arg/.deploy/pvc.yaml', 'arg/.hidden.yaml', 'arg/new\nline.yaml', 'arg/carriage\rreturn.yml', 'arg/sp ace [x]/p.yaml', 'arg/.yaml-dir.yaml/inner.yaml', 'arg/a.yaml', 'arg/broken.yaml']) {
      assert.ok(files.includes(name), `${JSON.stringify(name)} in ${JSON.stringify(files)}`);
    }
    for (const name of ['arg/.git/pvc.yaml', 'arg/node_modules/m/pvc.yaml', 'arg/.github/workflows/ci.yaml', 'arg/b/.circleci/config.yml', 'arg/.sops.yaml', 'arg/.vscode/settings.json', 'arg/skipped/s.yaml', 'arg/rootanchored/r.yaml', 'arg/abs/q.yaml', 'arg/.pre-commit-config.yaml', 'arg/kust/res.yaml']) {
      assert.not.ok(files.includes(name), name);
    }
    assert.equal(listed.kustomizations.map((k) => path.relative(root, k)), ['arg/kust']);
    assert.equal(listed.charts.map((c) => path.relative(root, c)), ['arg/chart']);
    assert.is(files.includes('arg/in-repo/o.yaml'), true, 'a link into the repository is followed');
    assert.is(files.some((f) => f.startsWith('arg/far-dir/')), follow, 'a link out of the repository is followed only with followSymlinks');
  });
}

test('more manifests than maxFiles: refused as a whole either way, the listing bound passed or not', async () => {
  const { root } = tree();
  for (let i = 0; i < 40; i++) write(root, `arg/many/m${i}.yaml`);
  for (const listingBound of [undefined, 0, 10, 1_000]) {
    const result = await discover('arg', options(root, { maxFiles: 20, listingBound }));
    assert.equal(result.files, [], String(listingBound));
    assert.is(result.problems.length, 1);
    assert.match(result.problems[0]!.message, /more than 20 manifest files \(maxFiles\)/);
  }
  // Spread over directories, so that a listing cut at 30 entries already holds more than 20 manifests.
  // Listed breadth-first: a bound of 30 entries cuts at 20 manifests (the stream decides), one of 45 at 35 (settled).
  const spread = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-walk-spread-')));
  for (let i = 0; i < 40; i++) write(spread, `arg/spread/d${i % 8}/m${i}.yaml`);
  for (const listingBound of [30, 45]) {
    const result = await discover('arg', options(spread, { maxFiles: 20, listingBound }));
    assert.equal([result.files, result.problems.map((p) => p.message)], [[], [`arg holds more than 20 manifest files (maxFiles); it is not linted. Lint its subdirectories one by one, or raise the limit`]]);
  }
  const within = await discover('arg', options(root, { maxFiles: 200, listingBound: 10 }));
  assert.equal(within, await discover('arg', options(root, { maxFiles: 200 })), 'a tree past the listing bound but within maxFiles is linted whole');
});

test.run();
