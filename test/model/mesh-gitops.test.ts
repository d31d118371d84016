import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { inContainerNfsMounts } from '../../src/model/container-nfs.js';
import { parseEfsHandle } from '../../src/model/efs.js';
import { hooksOf, managingTools, protectionOf, syncWaveOf } from '../../src/model/gitops.js';
import { cidrListHas, meshOf, outboundCapture, portListHas, type MeshDefaults } from '../../src/model/mesh.js';
import { StorageModel } from '../../src/model/storage-model.js';
import type { Resource } from '../../src/types.js';

const test = suite('mesh membership, in-container NFS, GitOps annotations, EFS handles');

function model(files: Record<string, string>, meshDefaults?: MeshDefaults): StorageModel {
  const resources: Resource[] = [];
  for (const [name, text] of Object.entries(files)) resources.push(...parseResources(makeSourceFile(`/virtual/${name}`, name, text)).resources);
  return new StorageModel(resources, { scope: 'test', ...(meshDefaults ? { meshDefaults } : {}) });
}

const ns = (labels = '', annotations = '') => `apiVersion: v1
kind: Namespace
metadata:
  name: apps${labels ? `\n  labels: {${labels}}` : ''}${annotations ? `\n  annotations: {${annotations}}` : ''}
---
`;
const pod = (labels = '', annotations = '', extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: apps
  labels: {app: p${labels ? `, ${labels}` : ''}}${annotations ? `\n  annotations: {${annotations}}` : ''}
spec:
  containers: [{name: c, image: busybox}]${extra}
`;
const membership = (files: string, defaults?: MeshDefaults) => {
  const m = model({ 'a.yaml': files }, defaults);
  return meshOf(m, m.templates[0]);
};

test('Istio: either label disabled means no injection; either enabled means injection', () => {
  assert.is(membership(ns('istio-injection: enabled') + pod()).state, 'in-mesh');
  assert.is(membership(ns('istio-injection: enabled') + pod('sidecar.istio.io/inject: "false"')).state, 'not-in-mesh');
  assert.is(membership(ns('istio-injection: disabled') + pod('sidecar.istio.io/inject: "true"')).state, 'not-in-mesh');
  assert.is(membership(ns() + pod('sidecar.istio.io/inject: "true"')).state, 'in-mesh');
  assert.is(membership(ns('istio.io/rev: canary') + pod()).mesh, 'istio-sidecar');
  assert.is(membership(ns() + pod('istio.io/rev: canary')).state, 'in-mesh');
  assert.is(membership(ns() + pod()).state, 'not-in-mesh');
  assert.is(membership(ns('istio-injection: enabled') + pod('', '', '\n  hostNetwork: true')).state, 'not-in-mesh');
});

test('a namespace the repo does not show is unknown, unless configured', () => {
  const unknown = membership(pod());
  assert.is(unknown.state, 'unknown');
  assert.match(unknown.reason.text, /namespace "apps" are not in the repo/);
  assert.is(membership(pod(), { meshNamespaces: { apps: 'istio-sidecar' } }).state, 'in-mesh');
  assert.is(membership(pod(), { plainNamespaces: ['apps'] }).state, 'not-in-mesh');
  assert.is(membership(pod(), { istioInjectByDefault: true }).state, 'in-mesh');
  // The deprecated annotation only counts once the webhook is called.
  assert.is(membership(pod('', 'sidecar.istio.io/inject: "true"')).state, 'unknown');
});

test('ambient and Linkerd', () => {
  assert.is(membership(ns('istio.io/dataplane-mode: ambient') + pod()).mesh, 'istio-ambient');
  assert.is(membership(ns('istio.io/dataplane-mode: ambient') + pod('istio.io/dataplane-mode: none')).state, 'not-in-mesh');
  assert.is(membership(ns('', 'linkerd.io/inject: enabled') + pod()).mesh, 'linkerd');
  assert.is(membership(ns('', 'linkerd.io/inject: enabled') + pod('', 'linkerd.io/inject: disabled')).state, 'not-in-mesh');
});

test('native sidecars: pod annotation, defaults, or unknown', () => {
  assert.is(membership(ns('istio-injection: enabled') + pod('', 'sidecar.istio.io/nativeSidecar: "true"')).nativeSidecar, 'yes');
  assert.is(membership(ns('istio-injection: enabled') + pod('', 'sidecar.istio.io/nativeSidecar: "false"')).nativeSidecar, 'no');
  assert.is(membership(ns('istio-injection: enabled') + pod()).nativeSidecar, 'unknown');
  assert.is(membership(ns('istio-injection: enabled') + pod(), { istioNativeSidecars: 'auto' }).nativeSidecar, 'yes');
  assert.is(membership(ns('', 'linkerd.io/inject: enabled') + pod()).nativeSidecar, 'no');
  assert.is(membership(ns('', 'linkerd.io/inject: enabled, config.beta.linkerd.io/proxy-enable-native-sidecar: "true"') + pod()).nativeSidecar, 'yes');
});

test('port and CIDR lists; outbound capture', () => {
  assert.ok(portListHas('111, 2049', 2049));
  assert.ok(portListHas('2000-2100', 2049));
  assert.not.ok(portListHas('20490', 2049));
  assert.is(cidrListHas('10.0.0.0/8,192.168.1.5', '10.2.3.4'), true);
  assert.is(cidrListHas('10.0.0.0/8', '11.0.0.1'), false);
  assert.is(cidrListHas('10.0.0.0/8', 'nfs.example.internal'), undefined);
  const m = model({ 'a.yaml': ns('istio-injection: enabled') + pod('', 'traffic.sidecar.istio.io/excludeOutboundPorts: "2049"') });
  assert.is(outboundCapture(m, m.templates[0], 'istio-sidecar', [2049]).verdict, 'excluded');
  assert.equal(outboundCapture(m, m.templates[0], 'istio-sidecar', [111, 2049]).missing, [111]);
});

test('in-container NFS: commands, helpers, privilege hints; kubelet volumes are not signals', () => {
  const signals = (container: string, spec = '') => {
    const m = model({ 'a.yaml': `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:${spec}\n  containers: [${container}]\n` });
    return inContainerNfsMounts(m.templates[0]);
  };
  const strong = signals('{name: c, image: x, command: [sh, -c, "mount -t nfs -o nfsvers=3,nolock filer:/vol /mnt"]}');
  assert.is(strong[0].strength, 'strong');
  assert.is(strong[0].server, 'filer');
  assert.is(strong[0].version, '3');
  assert.is(signals('{name: c, image: x, command: [mount], args: [-t, efs, "fs-0123456789abcdef0:/", /mnt]}')[0].efs, true);
  assert.is(signals('{name: c, image: x, command: [sh, -c, "umount /mnt; mount -o bind /a /b"]}').length, 0);
  assert.is(signals('{name: c, image: x, command: [sh, -c, "mount -t nfs4 localhost:/ /mnt"]}').length, 0);
  assert.is(signals('{name: c, image: registry/nfs-client:1, securityContext: {privileged: true}}')[0].strength, 'medium');
  assert.is(signals('{name: c, image: registry/nfs-client:1}').length, 0);
  assert.is(signals('{name: c, image: x}', '\n  volumes: [{name: v, nfs: {server: filer, path: /vol}}]').length, 0);
});

test('GitOps annotations: waves, hooks, protections, managing tools', () => {
  assert.equal(syncWaveOf({ annotations: { 'argocd.argoproj.io/sync-wave': '-3' } }), { wave: -3, from: 'sync-wave' });
  assert.equal(syncWaveOf({ annotations: { 'argocd.argoproj.io/sync-wave': 'x' } }), { wave: 0, from: 'default', invalid: 'x' });
  assert.equal(syncWaveOf({}), { wave: 0, from: 'default' });
  const helm = hooksOf({ annotations: { 'helm.sh/hook': 'pre-install, pre-upgrade' } });
  assert.equal(helm.map((h) => [h.tool, h.hooks, h.effectivePolicies]), [['helm', ['pre-install', 'pre-upgrade'], ['before-hook-creation']]]);
  assert.equal(hooksOf({ annotations: { 'argocd.argoproj.io/hook': 'Skip' } }), []);
  const argo = hooksOf({ annotations: { 'argocd.argoproj.io/hook': 'PreSync', 'helm.sh/hook-delete-policy': 'hook-succeeded' } });
  assert.equal(argo[0].effectivePolicies, ['HookSucceeded']);
  const p = protectionOf({ annotations: { 'argocd.argoproj.io/sync-options': 'Prune=false, PruneLast=true', 'helm.sh/resource-policy': 'keep' } });
  assert.equal([p.helmKeep, p.argoPrune, p.argoDelete, p.argoPruneLast, p.fluxPrune], [true, 'Prune=false', 'helm.sh/resource-policy: keep', true, false]);
  const m = model({
    'apps/web/pvc.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n',
    'apps/web/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, annotations: {argocd.argoproj.io/sync-wave: "1"}}\nspec: {template: {spec: {containers: [{name: a, image: b}]}}}\n',
    'apps/db/pvc.yaml': 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: db, labels: {app.kubernetes.io/managed-by: Helm}}\nspec: {accessModes: [ReadWriteOnce]}\n',
  });
  const byName = (n: string) => m.claimsOf().find((c) => c.name === n)!;
  assert.equal(managingTools(m, byName('data')).map((t) => t.tool), ['argocd']);
  assert.equal(managingTools(m, byName('db')).map((t) => t.tool), ['helm']);
});

test('EFS volume handles', () => {
  assert.equal(parseEfsHandle('fs-0123456789abcdef0::fsap-0123456789abcdef0'), { ok: true, fileSystem: 'fs-0123456789abcdef0', accessPoint: 'fsap-0123456789abcdef0' });
  assert.equal(parseEfsHandle('efs:fs-e8a95a42:/dir1'), { ok: true, prefix: 'efs', fileSystem: 'fs-e8a95a42', subpath: '/dir1' });
  assert.is((parseEfsHandle('fs-0123456789abcdef0:/a:fsap-0123456789abcdef0:x') as any).problem, 'fields');
  assert.is((parseEfsHandle('fs-123') as any).problem, 'file-system');
  assert.is((parseEfsHandle('fs-0123456789abcdef0::ap-1') as any).problem, 'access-point');
});

test.run();
