// Argo CD Applications that patch the Kustomize root they sync (`spec.source.kustomize.patches`): a finding on a
// field a patch sets is reported at that line of the Application, not at the base the patch changes; a patch an
// ApplicationSet template writes with an expression in it is not credited to its unrendered lines.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint, type LintResult } from '../../src/lint.js';
import { defaultRuleSettings } from '../../src/registry.js';
import { at, copyFixture, HAS_KUSTOMIZE } from '../render/helpers.js';
import type { Finding } from '../../src/types.js';

if (!HAS_KUSTOMIZE) console.warn('\n!!! SKIPPED Argo CD kustomize patch tests: they need kustomize (or kubectl) !!!\n');
const test = suite('gitops: kustomize patches written in an Argo CD Application');
const it = HAS_KUSTOMIZE ? test : test.skip;

let result: LintResult;
test.before(async () => {
  if (!HAS_KUSTOMIZE) return;
  const dir = copyFixture('gitops/argocd-kustomize-patches');
  mkdirSync(path.join(dir, '.git'));
  result = await lint({ paths: ['.'], cwd: dir, root: dir, rules: defaultRuleSettings() });
});

const about = (findings: readonly Finding[], rule: string, text: string) => findings.find((f) => f.ruleId === rule && f.message.includes(text));

it('a JSON6902 patch of the Application: at the operation that sets the field', () => {
  assert.is(at(about(result.findings, 'pvc-unknown-storageclass', '"fast-nvme"')), 'argocd/db.yaml:20');
});

it('a strategic-merge patch of the Application, with the Application\'s namePrefix: at the patch line', () => {
  assert.is(at(about(result.findings, 'pod-missing-pvc', '"db-seed"')), 'argocd/db-staging.yaml:31');
});

it('an ApplicationSet template\'s patch with an expression: the base line, not the unrendered text', () => {
  assert.is(at(about(result.findings, 'pvc-unknown-storageclass', '"slow-hdd"')), 'apps/db/statefulset.yaml:25');
});

test.run();
