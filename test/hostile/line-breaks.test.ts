// Byte order marks after `---` and the Unicode line breaks NEL (U+0085), U+2028 and U+2029: pvlint reads a file's
// documents as kustomize (Go YAML behind kyaml's `---` line split) reads them. Each case states which claims
// kustomize reads; with kubectl or kustomize on PATH the statement itself is checked against the real tool.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { findOnPath } from '../../src/render/executables.js';
import { HAS_KUSTOMIZE, warnSkipped } from '../render/helpers.js';
import { caseDir, lintIn, writeIn } from './helpers.js';

const test = suite('hostile line breaks');

const claim = (name: string) =>
  `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n`;
const twoClaims = claim('a') + '---\n' + claim('b');

interface Case {
  text: string;
  /** The claims kustomize reads, in order; undefined when kustomize refuses the file. */
  kustomize: string[] | undefined;
  /** What pvlint reads of a file kustomize refuses: the documents it can stand for, and a pvlint/parse finding. */
  pvlint?: string[];
}

const CASES: Record<string, Case> = {
  'a byte order mark after ---': { text: claim('a') + '---\n\uFEFF' + claim('b'), kustomize: ['a', 'b'] },
  'a byte order mark after --- and a comment': { text: claim('a') + '--- # next\n\uFEFF' + claim('b'), kustomize: ['a', 'b'] },
  'NEL ending one line': { text: twoClaims.replace('namespace: shop\n', 'namespace: shop\u0085'), kustomize: ['a', 'b'] },
  'U+2028 ending one line': { text: twoClaims.replace('namespace: shop\n', 'namespace: shop\u2028'), kustomize: ['a', 'b'] },
  'U+2029 ending one line': { text: twoClaims.replace('namespace: shop\n', 'namespace: shop\u2029'), kustomize: ['a', 'b'] },
  // kyaml splits at `\n---` lines only; Go YAML then decodes one document per part, so `b` is never read.
  'NEL ending every line': { text: twoClaims.replaceAll('\n', '\u0085'), kustomize: ['a'] },
  'U+2028 ending every line': { text: twoClaims.replaceAll('\n', '\u2028'), kustomize: ['a'] },
  'U+2029 ending every line': { text: twoClaims.replaceAll('\n', '\u2029'), kustomize: ['a'] },
  'U+2028 inside a plain value': { text: twoClaims.replace('name: a', 'name: a\u2028b'), kustomize: undefined, pvlint: ['b'] },
  'U+2028 right after ---': { text: claim('a') + '---\u2028' + claim('b'), kustomize: undefined, pvlint: ['a'] },
  'NEL right after ---': { text: claim('a') + '---\u0085' + claim('b'), kustomize: undefined, pvlint: ['a'] },
};

function kustomizeNames(dir: string): string[] | undefined {
  const kubectl = findOnPath('kustomize') ? undefined : findOnPath('kubectl');
  const command = kubectl ? [kubectl, 'kustomize', dir] : [findOnPath('kustomize')!, 'build', dir];
  const run = spawnSync(command[0], command.slice(1), { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) return undefined;
  return parseAllDocuments(run.stdout).map((d) => (d.toJS() as { metadata: { name: string } }).metadata.name);
}

for (const [name, c] of Object.entries(CASES)) {
  test(`${name}: pvlint reads the claims kustomize reads`, async () => {
    const dir = caseDir();
    writeIn(dir, 'claims/claims.yaml', c.text);
    writeIn(dir, 'claims/kustomization.yaml', 'resources: [claims.yaml]\n');
    const result = await lintIn(dir, ['claims/claims.yaml'], { parseAllDocuments: true });
    const read = result.findings
      .filter((f) => f.ruleId === 'pvc-classless-without-default')
      .map((f) => /PersistentVolumeClaim "([^"]*)"/.exec(f.message)![1]);
    const parseErrors = result.findings.filter((f) => f.ruleId === 'pvlint/parse');
    assert.equal(result.findings.filter((f) => f.ruleId === 'pvlint/rule-crash'), []);
    if (c.kustomize) {
      assert.equal(read, c.kustomize);
      assert.equal(parseErrors.map((f) => f.message), []);
    } else {
      assert.equal(read, c.pvlint);
      assert.ok(parseErrors.length > 0, 'a file kustomize refuses has a pvlint/parse finding');
    }
    if (!HAS_KUSTOMIZE) return warnSkipped(`${name} against kustomize`);
    assert.equal(kustomizeNames(path.join(dir, 'claims')), c.kustomize, 'what this case says kustomize reads');
  });
}

test.run();
