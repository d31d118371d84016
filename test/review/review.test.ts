// `--base` end to end through the API: temporary git repositories with a base commit and a change (committed or
// left in the working tree), plain manifests and a Kustomize overlay whose change is in a patch.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LintOptions, LintResult } from '../../src/lint.js';
import { lintWithBase, ReviewError } from '../../src/review/review.js';
import type { Finding } from '../../src/types.js';
import { requires } from '../helpers/requires.js';
import { HAS_KUSTOMIZE } from '../render/helpers.js';
import { lineOf, tempDir, TempRepo } from './helpers.js';

const review = suite('review (--base)');
/** The tests that render Kustomize overlays: skipped (and counted so) without kustomize or kubectl. */
const withKustomize = requires(review, HAS_KUSTOMIZE, 'the Kustomize --base tests', 'neither kustomize nor kubectl is on PATH, so real overlays cannot be rendered', 'install kubectl (its kustomize) or kustomize');

const PVC = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: uploads, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources:
    requests:
      storage: 20Gi
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: uploads, mountPath: /uploads}]}]
      volumes:
        - name: uploads
          persistentVolumeClaim:
            claimName: uploads
`;

function run(repo: TempRepo, base: string, options: Partial<LintOptions> = {}, newOnly = false): Promise<LintResult> {
  return lintWithBase({ paths: ['.'], cwd: repo.dir, ...options }, { base, newOnly });
}

const at = (f: Finding | undefined) => (f ? `${f.location.file}:${f.location.region.startLine}` : '(none)');
const byRule = (result: LintResult, ruleId: string) => result.findings.filter((f) => f.ruleId === ruleId);
const describe = (result: LintResult) => result.findings.map((f) => `${f.ruleId} ${at(f)} ${f.message}`).join('\n');

/** Awaits `run` and checks that it rejects with an error the predicate accepts. */
async function rejects(run: () => Promise<unknown>, accept: (error: unknown) => boolean): Promise<void> {
  try {
    await run();
  } catch (error) {
    assert.ok(accept(error), `unexpected error: ${(error as Error)?.message ?? String(error)}`);
    return;
  }
  assert.unreachable('expected a rejection');
}

function baseTrees(): string[] {
  return readdirSync(os.tmpdir()).filter((name) => name.startsWith('pvlint-base-'));
}

review('a shrunk claim in the working tree (not committed): found at the changed line; base, index and worktrees untouched', async () => {
  const repo = new TempRepo().write({ 'pvc.yaml': PVC, 'deploy.yaml': DEPLOYMENT });
  repo.commit('base');
  repo.write({ 'pvc.yaml': PVC.replace('storage: 20Gi', 'storage: 10Gi') });
  const status = repo.git('status', '--porcelain');
  const index = createHash('sha256').update(readFileSync(path.join(repo.dir, '.git', 'index'))).digest('hex');
  const before = baseTrees();
  const result = await run(repo, 'main');
  const shrink = byRule(result, 'pvc-resize-rejected');
  assert.is(shrink.length, 1, describe(result));
  assert.is(at(shrink[0]), 'pvc.yaml:8');
  assert.is(shrink[0].messageId, 'shrink');
  assert.is(shrink[0].related[0].message, 'PersistentVolumeClaim "uploads" requests 20Gi at the base (main)');
  assert.equal({ ...result.review, preExisting: 0 }, { base: 'main', commit: repo.git('rev-parse', 'main').trim(), newOnly: false, preExisting: 0 });
  // The user's checkout: same status, same index, no worktree registered, no temp tree left behind.
  assert.is(repo.git('status', '--porcelain'), status);
  assert.is(createHash('sha256').update(readFileSync(path.join(repo.dir, '.git', 'index'))).digest('hex'), index);
  assert.is(repo.git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1);
  assert.equal(baseTrees(), before);
  repo.remove();
});

review('a committed change compared with the previous commit (HEAD~1)', async () => {
  const repo = new TempRepo().write({ 'pvc.yaml': PVC, 'deploy.yaml': DEPLOYMENT });
  repo.commit('base');
  const changed = PVC.replace('accessModes: [ReadWriteOnce]', 'accessModes: [ReadWriteMany]');
  repo.write({ 'pvc.yaml': changed });
  repo.commit('change');
  const result = await run(repo, 'HEAD~1');
  const immutable = byRule(result, 'immutable-storage-field-change');
  assert.is(immutable.length, 1, describe(result));
  assert.is(at(immutable[0]), `pvc.yaml:${lineOf(changed, 'accessModes')}`);
  assert.match(immutable[0].message, /"ReadWriteOnce" to "ReadWriteMany"/);
  // Against itself, a tree has no change findings.
  const same = await run(repo, 'HEAD');
  assert.is(byRule(same, 'immutable-storage-field-change').length, 0);
  repo.remove();
});

review('a removed claim: located at the remaining consumer, the removed file named as in the base tree', async () => {
  const repo = new TempRepo().write({ 'k8s/pvc.yaml': PVC, 'k8s/deploy.yaml': DEPLOYMENT });
  repo.commit('base');
  repo.delete('k8s/pvc.yaml');
  const result = await run(repo, 'main', { paths: ['k8s'] });
  const removed = byRule(result, 'storage-removed-in-use');
  assert.is(removed.length, 1, describe(result));
  assert.is(at(removed[0]), `k8s/deploy.yaml:${lineOf(DEPLOYMENT, 'claimName')}`);
  assert.is(removed[0].related.length, 1);
  assert.is(`${removed[0].related[0].location.file}:${removed[0].related[0].location.region.startLine}`, 'k8s/pvc.yaml:3');
  assert.match(removed[0].related[0].message, /removed by this change \(main; k8s\/pvc\.yaml is not in the working tree\)$/);
  assert.equal(removed[0].environments, ['k8s']);
  repo.remove();
});

review('a StatefulSet renamed, and a StorageClass flipped to Delete, each found', async () => {
  const sts = (name: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: ${name}, namespace: shop}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: busybox, volumeMounts: [{name: data, mountPath: /data}]}]}
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], storageClassName: keep, resources: {requests: {storage: 1Gi}}}
`;
  const sc = (policy: string) => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: keep}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: ${policy}
`;
  const repo = new TempRepo().write({ 'sts.yaml': sts('db'), 'sc.yaml': sc('Retain') });
  repo.commit('base');
  repo.write({ 'sts.yaml': sts('database'), 'sc.yaml': sc('Delete') });
  const result = await run(repo, 'main');
  const renamed = byRule(result, 'statefulset-renamed');
  assert.is(renamed.length, 1, describe(result));
  assert.is(at(renamed[0]), 'sts.yaml:3');
  assert.match(renamed[0].message, /"database" replaces "db"/);
  const flipped = byRule(result, 'storageclass-field-change');
  assert.is(flipped.length, 1, describe(result));
  assert.is(at(flipped[0]), 'sc.yaml:6');
  assert.is(flipped[0].messageId, 'reclaimToDelete');
  repo.remove();
});

review('--new-only: a pre-existing finding is hidden although its lines moved; a new one is kept and counted', async () => {
  // At the base: a ReadWriteOnce claim shared by 3 replicas (rwo-claim-multi-node, an error).
  const shared = DEPLOYMENT.replace('replicas: 1', 'replicas: 3');
  const repo = new TempRepo().write({ 'app.yaml': `${PVC}---\n${shared}` });
  repo.commit('base');
  // The change puts a document above (every line moves) and adds a second workload with the same problem.
  const api = shared.replace(/name: web/g, 'name: api').replace(/app: web/g, 'app: api');
  const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {mode: prod}\n';
  const changed = `${configMap}---\n${PVC}---\n${shared}---\n${api}`;
  repo.write({ 'app.yaml': changed });

  const all = await run(repo, 'main');
  const multi = byRule(all, 'rwo-claim-multi-node');
  assert.ok(multi.length >= 2, describe(all));
  assert.is(all.review?.newOnly, false);
  const preExisting = all.review!.preExisting;
  assert.ok(preExisting >= 1, 'the base had the web finding');

  const fresh = await run(repo, 'main', {}, true);
  assert.is(fresh.review?.newOnly, true);
  assert.is(fresh.review?.preExisting, preExisting);
  assert.is(fresh.findings.length, all.findings.length - preExisting);
  const kept = byRule(fresh, 'rwo-claim-multi-node');
  assert.ok(kept.length >= 1, describe(fresh));
  const apiStart = changed.indexOf('name: api');
  for (const finding of kept) {
    assert.is(finding.resource?.name, 'api', `only the new workload's findings are new: ${describe(fresh)}`);
    assert.ok(finding.location.region.startLine >= lineOf(changed, 'name: api'), at(finding));
  }
  assert.ok(apiStart > 0);
  repo.remove();
});

review('--new-only keeps a finding that is new in an environment, and change rules findings are always new', async () => {
  const repo = new TempRepo().write({ 'a/app.yaml': `${PVC}---\n${DEPLOYMENT.replace('replicas: 1', 'replicas: 2')}` });
  repo.commit('base');
  repo.write({
    'a/app.yaml': `${PVC.replace('20Gi', '10Gi')}---\n${DEPLOYMENT.replace('replicas: 1', 'replicas: 2')}`,
    'b/app.yaml': `${PVC}---\n${DEPLOYMENT.replace('replicas: 1', 'replicas: 2')}`,
  });
  const result = await run(repo, 'main', { paths: ['a', 'b'] }, true);
  const multi = byRule(result, 'rwo-claim-multi-node');
  assert.equal(multi.map((f) => f.environments.join(',')), ['b'], describe(result));
  assert.is(byRule(result, 'pvc-resize-rejected').length, 1, describe(result));
  // Everything else of environment a was there at the base.
  for (const finding of result.findings) {
    assert.ok(finding.environments.includes('b') || finding.ruleId === 'pvc-resize-rejected', `${finding.ruleId} ${at(finding)} is not new`);
  }
  assert.ok((result.review?.preExisting ?? 0) >= 1);
  repo.remove();
});

review('a path the change adds has no base: linted, nothing to compare', async () => {
  const repo = new TempRepo().write({ 'README.md': 'x\n' });
  repo.commit('base');
  repo.write({ 'new/pvc.yaml': PVC });
  const result = await run(repo, 'main', { paths: ['new'] }, true);
  assert.is(result.fatal, false);
  assert.is(result.review?.preExisting, 0);
  assert.ok(result.stats.resources === 1);
  repo.remove();
});

review('errors: an unknown ref, a shallow clone without the base, no git repository, stdin', async () => {
  const repo = new TempRepo().write({ 'pvc.yaml': PVC });
  repo.commit('one');
  repo.write({ 'pvc.yaml': PVC.replace('20Gi', '30Gi') });
  repo.commit('two');
  await rejects(() => run(repo, 'no-such-branch'), (error: unknown) => error instanceof ReviewError && /no commit, branch or tag/.test((error as Error).message) && /git fetch origin/.test((error as Error).message));

  const clone = tempDir('pvlint-review-clone-');
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone], { stdio: 'ignore' });
  await rejects(
    () => lintWithBase({ paths: ['.'], cwd: clone }, { base: 'HEAD~1' }),
    (error: unknown) => error instanceof ReviewError && /shallow clone/.test((error as Error).message) && /fetch-depth: 0/.test((error as Error).message),
  );
  rmSync(clone, { recursive: true, force: true });

  const plain = tempDir('pvlint-review-nogit-');
  await rejects(
    () => lintWithBase({ paths: ['.'], cwd: plain }, { base: 'main' }),
    (error: unknown) => error instanceof ReviewError && /not inside a git repository/.test((error as Error).message),
  );
  rmSync(plain, { recursive: true, force: true });

  await rejects(() => lintWithBase({ paths: ['-'], cwd: repo.dir, stdin: PVC }, { base: 'main' }), (error) => /standard input/.test((error as Error).message));
  repo.remove();
});

review('Helm: chart dependencies fetched into the working tree (not committed) are used for the base too', async () => {
  // A fake helm that fails like `helm template` does when a dependency is missing, and renders a claim otherwise.
  const bin = tempDir('pvlint-review-helm-');
  const helm = path.join(bin, 'helm');
  writeFileSync(
    helm,
    `#!/bin/sh
chart=""
for arg in "$@"; do [ -f "$arg/Chart.yaml" ] && chart="$arg"; done
if [ ! -f "$chart/charts/dep-0.1.0.tgz" ]; then echo "Error: found in Chart.yaml, but missing in charts/ directory: dep" >&2; exit 1; fi
printf -- '---\n# Source: app/templates/pvc.yaml\n'
cat "$chart/templates/pvc.yaml"
`,
  );
  chmodSync(helm, 0o755);
  const repo = new TempRepo().write({
    '.gitignore': 'charts/app/charts/\n',
    'charts/app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies: [{name: dep, version: 0.1.0, repository: "https://example.com"}]\n',
    'charts/app/templates/pvc.yaml': PVC,
  });
  repo.commit('base');
  repo.write({ 'charts/app/charts/dep-0.1.0.tgz': 'not really a tarball', 'charts/app/templates/pvc.yaml': PVC.replace('20Gi', '10Gi') });
  const result = await run(repo, 'main', { helmCommand: helm });
  assert.is(result.fatal, false, describe(result));
  assert.is(byRule(result, 'pvc-resize-rejected').length, 1, describe(result));
  assert.is(repo.git('status', '--porcelain').trim(), 'M charts/app/templates/pvc.yaml');
  rmSync(bin, { recursive: true, force: true });
  repo.remove();
});

const KUSTOMIZE = {
  'k8s/base/kustomization.yaml': 'resources: [statefulset.yaml, pvc.yaml, deployment.yaml]\n',
  'k8s/base/statefulset.yaml': `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
        - name: db
          image: busybox
          volumeMounts: [{name: data, mountPath: /data}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests:
            storage: 10Gi
`,
  'k8s/base/pvc.yaml': PVC.replace('namespace: shop', 'namespace: default'),
  'k8s/base/deployment.yaml': DEPLOYMENT.replace('namespace: shop', 'namespace: default'),
  'k8s/overlays/prod/kustomization.yaml': `resources: [../../base]
namespace: prod
patches:
  - path: storage.yaml
`,
  'k8s/overlays/prod/storage.yaml': `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: uploads
spec:
  resources:
    requests:
      storage: 50Gi
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests:
            storage: 100Gi
`,
};

withKustomize('Kustomize: changes made in an overlay patch are found at the patch lines; the base tree renders the same overlay', async () => {
  const repo = new TempRepo().write(KUSTOMIZE);
  repo.commit('base');
  const patch = KUSTOMIZE['k8s/overlays/prod/storage.yaml'].replace('storage: 50Gi', 'storage: 40Gi').replace('storage: 100Gi', 'storage: 200Gi');
  repo.write({ 'k8s/overlays/prod/storage.yaml': patch });
  const result = await run(repo, 'main', { paths: ['k8s'] });
  assert.is(result.fatal, false, describe(result));
  const shrink = byRule(result, 'pvc-resize-rejected');
  assert.is(shrink.length, 1, describe(result));
  assert.is(at(shrink[0]), `k8s/overlays/prod/storage.yaml:${lineOf(patch, 'storage: 40Gi')}`);
  assert.equal(shrink[0].environments, ['k8s/overlays/prod']);
  const immutable = byRule(result, 'immutable-storage-field-change');
  assert.is(immutable.length, 1, describe(result));
  assert.is(at(immutable[0]), `k8s/overlays/prod/storage.yaml:${lineOf(patch, 'storage: 200Gi')}`);
  assert.match(immutable[0].message, /"100Gi" → "200Gi"/);
  repo.remove();
});

withKustomize('Kustomize: a namePrefix added to an overlay renames the StatefulSet and swaps the claim', async () => {
  const repo = new TempRepo().write(KUSTOMIZE);
  repo.commit('base');
  const kustomization = `namePrefix: v2-\n${KUSTOMIZE['k8s/overlays/prod/kustomization.yaml']}`;
  repo.write({ 'k8s/overlays/prod/kustomization.yaml': kustomization });
  const result = await run(repo, 'main', { paths: ['k8s'] });
  assert.is(result.fatal, false, describe(result));
  const renamed = byRule(result, 'statefulset-renamed');
  assert.is(renamed.length, 1, describe(result));
  assert.match(renamed[0].message, /"v2-db" replaces "db"/);
  assert.match(renamed[0].message, /"data-v2-db-0"/);
  assert.ok(renamed[0].location.file.startsWith('k8s/'), at(renamed[0]));
  const swapped = byRule(result, 'storage-removed-in-use');
  assert.is(swapped.length, 1, describe(result));
  assert.is(swapped[0].messageId, 'claimReplaced');
  assert.match(swapped[0].message, /"v2-uploads" instead of "uploads"/);
  assert.is(swapped[0].location.file, 'k8s/base/deployment.yaml');
  repo.remove();
});

withKustomize('a base that does not render is an error that says what to do', async () => {
  const repo = new TempRepo().write({ ...KUSTOMIZE, 'k8s/overlays/prod/kustomization.yaml': 'resources: [../../base, missing.yaml]\n' });
  repo.commit('base');
  repo.write({ 'k8s/overlays/prod/kustomization.yaml': 'resources: [../../base]\n' });
  await rejects(
    () => run(repo, 'main', { paths: ['k8s'] }),
    (error: unknown) => error instanceof ReviewError && /the base does not render/.test((error as Error).message) && /k8s\/overlays\/prod\/kustomization\.yaml:1/.test((error as Error).message),
  );
  assert.ok(!existsSync(path.join(repo.dir, 'k8s', 'overlays', 'prod', 'missing.yaml')));
  repo.remove();
});

review.run();
