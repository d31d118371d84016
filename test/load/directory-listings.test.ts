// One run's walks share directory listings: each walk must still list exactly what it lists reading the directories
// itself, whatever another walk pruned or matched before it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { DirectoryListings } from '../../src/load/directory-listings.js';
import { discover } from '../../src/load/discover.js';
import { SourceCache } from '../../src/render/source-cache.js';
import { scanGitopsObjects } from '../../src/gitops/scan-gitops-objects.js';

const test = suite('directory listings shared by the walks of a run');

const FLUX = 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps, namespace: flux-system}\nspec: {path: ./apps}\n';
const PVC = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n';

function tree(): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pvlint-listings-')));
  const files: Record<string, string> = {
    'apps/pvc.yaml': PVC, 'clusters/prod/flux.yaml': FLUX, '.github/flux.yaml': FLUX, 'skipped/flux.yaml': FLUX,
    '.hidden/deep/flux.yml': FLUX, 'node_modules/m/flux.yaml': FLUX, 'notes.txt': 'x', 'new\nline/flux.yaml': FLUX,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  symlinkSync('clusters', path.join(dir, 'linked'));
  return dir;
}

const walks: [string[], fg.Options][] = [
  [['**/*'], { dot: true, onlyFiles: false, followSymbolicLinks: false, ignore: ['**/.github/**', 'skipped/**'] }],
  [['**/*.yaml', '**/*.yml'], { dot: true, absolute: true, followSymbolicLinks: false, ignore: ['**/.git/**', '**/node_modules/**'] }],
  [['clusters/**'], { dot: false }],
  [['**/*'], { dot: true, onlyFiles: false, ignore: [] }],
];

test('every walk lists what it lists alone, in any order after any other', () => {
  const dir = tree();
  for (let first = 0; first < walks.length; first++) {
    const listings = new DirectoryListings();
    for (const [patterns, options] of [...walks.slice(first), ...walks.slice(0, first)]) {
      const alone = fg.sync(patterns, { ...options, cwd: dir }).sort();
      const shared = fg.sync(patterns, { ...options, cwd: dir, fs: listings.fs }).sort();
      assert.equal(shared, alone, `${patterns.join(',')} after walk ${first}`);
    }
  }
});

test('a bounded listing lists nothing past its bound and says so; the shared listings stay whole', () => {
  const dir = tree();
  const listings = new DirectoryListings();
  const reader = listings.bounded(3);
  const cut = fg.sync(['**/*'], { cwd: dir, dot: true, onlyFiles: false, fs: reader.fs });
  assert.ok(reader.passed());
  assert.ok(cut.length <= 3, String(cut.length));
  assert.equal(fg.sync(['**/*'], { cwd: dir, dot: true, fs: listings.fs }).sort(), fg.sync(['**/*'], { cwd: dir, dot: true }).sort());
});

test('the GitOps scan after discovery finds what it finds alone: directories discovery leaves out are still scanned', async () => {
  const dir = tree();
  const scanAlone = await scanGitopsObjects(new SourceCache(dir), dir, ['skipped/**']);
  const cache = new SourceCache(dir);
  await discover('.', { cwd: dir, cache, roots: [dir], ignore: ['skipped/**'] });
  const scanAfter = await scanGitopsObjects(cache, dir, ['skipped/**']);
  const files = (objects: typeof scanAlone) => objects.flux.map((k) => path.relative(dir, k.file.absPath)).sort();
  assert.equal(files(scanAfter), files(scanAlone));
  // Flux walks dot directories (and so does the scan), unlike discovery's CI-configuration exclusions.
  assert.equal(files(scanAlone), ['.github/flux.yaml', '.hidden/deep/flux.yml', 'clusters/prod/flux.yaml']);
});

test.run();
