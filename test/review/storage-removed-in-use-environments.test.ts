// storage-removed-in-use in a Flux cluster, end to end with `--base`: the message names the Flux Kustomization that
// prunes the removed claim, and a Kustomization with `prune: false` keeps it (nothing deletes it, nothing manages it).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lintWithBase } from '../../src/review/review.js';
import { FLUX_SYSTEM, fluxKustomization } from '../helpers/flux-manifests.js';
import { requires } from '../helpers/requires.js';
import { HAS_KUSTOMIZE } from '../render/helpers.js';
import { TempRepo } from './helpers.js';

const test = suite('storage-removed-in-use: claims of Flux Kustomizations');
const it = requires(test, HAS_KUSTOMIZE, 'storage-removed-in-use in a Flux cluster', 'neither kustomize nor kubectl is on PATH, so the cluster cannot be built', 'install kubectl (its kustomize) or kustomize');

const claim = (name: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: main, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: ${name}}}]
`;

it('a removed claim names the Kustomization that prunes it, or the one whose prune: false keeps it', async () => {
  const repo = new TempRepo().write({
    'clusters/prod/flux-system.yaml': FLUX_SYSTEM,
    'clusters/prod/apps.yaml': fluxKustomization('apps', 'apps', true) + fluxKustomization('archive', 'archive', false),
    'apps/pvc.yaml': claim('uploads'),
    'apps/deploy.yaml': deployment('uploads'),
    'archive/pvc.yaml': claim('records'),
    'archive/deploy.yaml': deployment('records'),
  });
  try {
    repo.commit('base');
    repo.delete('apps/pvc.yaml', 'archive/pvc.yaml');
    const result = await lintWithBase({ paths: ['.'], cwd: repo.dir }, { base: 'main', newOnly: false });
    const removed = result.findings.filter((f) => f.ruleId === 'storage-removed-in-use');
    const pruned = removed.find((f) => f.location.file === 'apps/deploy.yaml');
    assert.is(pruned?.messageId, 'claimRemoved', removed.map((f) => f.message).join('\n'));
    assert.ok(pruned!.message.includes('Flux prunes it (Flux Kustomization "apps" applies it with prune: true), it stays Terminating'), pruned!.message);
    const kept = removed.find((f) => f.location.file === 'archive/deploy.yaml');
    assert.is(kept?.messageId, 'claimRemovedProtected', removed.map((f) => f.message).join('\n'));
    assert.is(kept!.severity, 'warning');
    assert.ok(kept!.message.includes('Flux Kustomization "archive" (prune: false) keeps it in the cluster'), kept!.message);
  } finally {
    repo.remove();
  }
});

test.run();
