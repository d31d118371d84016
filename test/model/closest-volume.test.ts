// In a repository of independent samples, a claim's PV is the definition written closest to it, not the last PV of
// that name: another sample's PV must neither fail the claim nor be pointed at.
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lint } from '../../src/lint.js';
import { volumeFor } from '../../src/model/claims.js';
import { PROJECT_ROOT } from '../helpers/paths.js';

const DIR = path.join(PROJECT_ROOT, 'test', 'fixtures', 'precision', 'samples');

test('a claim pre-bound to "test-pv" is checked against its own sample\'s PV, not a later sample\'s PV of that name', async () => {
  const result = await lint({ paths: ['.'], cwd: DIR, root: DIR, skipMissingRenderers: true });
  assert.is(result.stats.resources, 4);
  assert.equal(result.findings.map((f) => `${f.ruleId} ${f.location.file}:${f.location.region.startLine}`), []);
});

test('volumeFor and volumesReserving pick the definition in the claim\'s own sample directory', async () => {
  const picked: string[] = [];
  await lint({
    paths: ['.'], cwd: DIR, root: DIR, skipMissingRenderers: true,
    onScope: ({ model }) => {
      const claim = model.claimsOf().find((c) => c.name === 'ebs-claim')!;
      const lookup = volumeFor(model, 'test-pv', claim);
      if (lookup.status === 'found') picked.push(lookup.value.file.path);
      picked.push(String(model.volumesNamed('test-pv').length));
      const last = model.lookupVolume('test-pv');
      if (last.status === 'found') picked.push(last.value.file.path);
    },
  });
  assert.equal(picked, ['ebs-static-provisioning/pv.yaml', '2', 'hostpath-task-pv/pv-volume.yaml']);
});

test.run();
