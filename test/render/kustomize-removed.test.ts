// An overlay that deletes a claim with `$patch: delete` while the base's workload still mounts it: the real render
// lacks the claim, the base declares it, so pod-missing-pvc is an error at the delete patch (not a "maybe in the
// cluster" note).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import podMissingPvc from '../../rules/pod-missing-pvc.js';
import { lint } from '../../src/lint.js';
import { at, copyFixture, HAS_KUSTOMIZE, only, warnSkipped } from './helpers.js';

const test = suite('kustomize: claims an overlay deletes');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('kustomize deleted-claim tests');

let dir = '';
test.before(() => {
  if (HAS_KUSTOMIZE) dir = copyFixture('kustomize/removed-claim');
});

const run = async (overlay: string) => (await lint({ paths: [`overlays/${overlay}`], cwd: dir, rules: only(podMissingPvc) })).findings.filter((f) => f.ruleId === 'pod-missing-pvc');

it('an inline delete patch: an error at its $patch line, the mount and the base claim related', async () => {
  const findings = await run('inline');
  assert.is(findings.length, 1);
  const [finding] = findings;
  assert.is(finding.severity, 'error');
  assert.is(finding.messageId, 'removedByPatch');
  assert.is(at(finding), 'overlays/inline/kustomization.yaml:10');
  assert.equal(finding.related.map((r) => `${r.location.file}:${r.location.region.startLine}`), ['base/deployment.yaml:19', 'base/claims.yaml:13']);
});

it('a patchesStrategicMerge file with a namePrefix: the claimName stays unprefixed and the patch file is the location', async () => {
  const findings = await run('file');
  assert.is(findings.length, 1);
  assert.is(findings[0].messageId, 'removedByPatch');
  assert.is(at(findings[0]), 'overlays/file/drop-uploads.yaml:5');
});

it('deleting a claim no workload mounts is not reported', async () => {
  assert.equal(await run('unused'), []);
});

test.run();
