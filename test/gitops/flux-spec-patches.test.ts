// A Flux Kustomization's own `spec.patches` are the last edits of its build: a finding on a field one of them sets
// is reported at that line of the Flux object (in the cluster directory), not at the base manifest it overrides.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { at, copyFixture, HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';

const test = suite('gitops: findings on fields a Flux Kustomization patch sets');
const it = HAS_KUSTOMIZE ? test : test.skip;
warnSkipped('Flux spec.patches location tests');

let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  result = await lint({ paths: ['clusters/prod'], cwd: copyFixture('gitops/flux-spec-patches') });
});

const finding = (ruleId: string) => result.findings.find((f) => f.ruleId === ruleId);

it('replicas from a JSON 6902 patch in spec.patches: at the op value, the base Deployment related', () => {
  const f = finding('rwo-claim-multi-node');
  assert.ok(f, 'rwo-claim-multi-node reported');
  assert.is(f!.severity, 'error');
  assert.is(at(f), 'clusters/prod/apps.yaml:21');
  assert.ok(f!.related.some((r) => `${r.location.file}:${r.location.region.startLine}` === 'apps/deployment.yaml:6'), JSON.stringify(f!.related));
});

it('a strategy from a strategic-merge patch in spec.patches: at the patched field', () => {
  assert.is(at(finding('rwo-update-overlap')), 'clusters/prod/apps.yaml:32');
});

it('a field no Flux patch touches stays at the base manifest', () => {
  assert.is(at(finding('gitops-pvc-prune-unprotected')), 'apps/claim.yaml:3');
});

test.run();
