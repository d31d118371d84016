import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { claimStorage, closestDefinition, singleNodeEnforcement } from '../../src/model/claims.js';
import { coLocated, nodePinOf, selfCoLocated } from '../../src/model/placement.js';
import { StorageModel } from '../../src/model/storage-model.js';
import type { Resource } from '../../src/types.js';

const test = suite('claims and placement');

function model(files: Record<string, string>, bundleComplete = false): StorageModel {
  const resources: Resource[] = [];
  for (const [name, text] of Object.entries(files)) resources.push(...parseResources(makeSourceFile(`/virtual/${name}`, name, text)).resources);
  return new StorageModel(resources, { scope: 'test', bundleComplete });
}
const pvc = (name: string, modes: string, extra = '') => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ${name}}
spec:
  accessModes: [${modes}]
  resources: {requests: {storage: 1Gi}}${extra}
`;
const claim = (m: StorageModel, name: string) => m.claimsOf().find((c) => c.name === name)!;

test('driver and attachability from the class, the bound PV and CSIDriver objects', () => {
  const m = model({
    'a.yaml': `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
` + pvc('ebs', 'ReadWriteOnce', '\n  storageClassName: gp3') + pvc('pinned', 'ReadWriteOnce', '\n  storageClassName: ""\n  volumeName: local-1') + `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: local-1}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 1Gi}
  local: {path: /mnt/disk}
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-a]}]
` + pvc('unknown', 'ReadWriteOnce', '\n  storageClassName: elsewhere') + pvc('block', 'ReadWriteOnce', '\n  storageClassName: elsewhere\n  volumeMode: Block'),
  });
  const ebs = claimStorage(m, claim(m, 'ebs'));
  assert.is(ebs.driver.name, 'ebs.csi.aws.com');
  assert.is(ebs.attach.value, 'yes');
  assert.is(singleNodeEnforcement(ebs), 'attach');
  const pinned = claimStorage(m, claim(m, 'pinned'));
  assert.is(pinned.bound?.pv.name, 'local-1');
  assert.is(pinned.driver.name, 'kubernetes.io/local-volume');
  assert.is(pinned.attach.value, 'no');
  assert.match(pinned.nodePin ?? '', /node-a/);
  const unknown = claimStorage(m, claim(m, 'unknown'));
  assert.is(unknown.driver.name, undefined);
  assert.is(unknown.attach.value, 'unknown');
  assert.match(unknown.attach.reason, /StorageClass "elsewhere" is not in the repo/);
  assert.is(claimStorage(m, claim(m, 'block')).attach.value, 'yes');
});

test('a CSIDriver object overrides the table both ways', () => {
  const m = model({
    'a.yaml': `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: kubernetes.io/aws-ebs
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: ebs.csi.aws.com}
spec: {attachRequired: false}
` + pvc('data', 'ReadWriteOnce', '\n  storageClassName: gp3'),
  });
  const storage = claimStorage(m, claim(m, 'data'));
  assert.is(storage.attach.value, 'no');
  assert.is(storage.attach.csiDriver?.name, 'ebs.csi.aws.com');
});

test('single-node enforcement by access modes', () => {
  const m = model({ 'a.yaml': pvc('rwop', 'ReadWriteOncePod') + pvc('rwx', 'ReadWriteOnce, ReadWriteMany') + pvc('rox', 'ReadWriteOnce, ReadOnlyMany') + pvc('roxonly', 'ReadOnlyMany') });
  assert.is(singleNodeEnforcement(claimStorage(m, claim(m, 'rwop'))), 'rwop');
  assert.is(singleNodeEnforcement(claimStorage(m, claim(m, 'rwx'))), undefined);
  assert.is(singleNodeEnforcement(claimStorage(m, claim(m, 'rox'))), 'none');
  assert.is(singleNodeEnforcement(claimStorage(m, claim(m, 'roxonly'))), undefined);
});

test('the closest definition of a claim written several times', () => {
  const deployment = (claimName: string) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  template:
    spec:
      containers: [{name: app, image: app}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: ${claimName}}}]
`;
  const m = model({
    'examples/a/claim.yaml': pvc('data', 'ReadWriteOnce'),
    'examples/b/claim.yaml': pvc('data', 'ReadWriteMany'),
    'examples/b/app.yaml': deployment('data'),
    'examples/c/all.yaml': pvc('data', 'ReadOnlyMany') + deployment('data'),
    'examples/d/app.yaml': deployment('data'),
  });
  const definitions = m.claimDefinitions('default', 'data');
  assert.is(definitions.length, 3);
  const app = (file: string) => m.templates.find((t) => t.workload.file.path === file)!.workload;
  assert.is(closestDefinition(definitions, app('examples/b/app.yaml'), m).file.path, 'examples/b/claim.yaml');
  assert.is(closestDefinition(definitions, app('examples/c/all.yaml'), m).file.path, 'examples/c/all.yaml');
  // No definition nearby: a stand-alone claim file wins over one bundled with another app.
  assert.is(closestDefinition(definitions, app('examples/d/app.yaml'), m).file.path, 'examples/a/claim.yaml');
  // The model's own lookup answers the same, and nothing for a claim the scope does not define.
  assert.is(m.closestClaimDefinition('default', 'data', app('examples/b/app.yaml'))?.file.path, 'examples/b/claim.yaml');
  assert.is(m.closestClaimDefinition('default', 'data', app('examples/d/app.yaml'))?.file.path, 'examples/a/claim.yaml');
  assert.is(m.closestClaimDefinition('default', 'other', app('examples/d/app.yaml')), undefined);
  // Each use of the claim goes with the definition closest to its workload.
  const grouped = [...m.usesByDefinition('default', 'data')].map(([pvc, uses]) => [pvc.file.path, uses.map((u) => u.template.workload.file.path)]);
  assert.equal(grouped, [
    ['examples/b/claim.yaml', ['examples/b/app.yaml']],
    ['examples/c/all.yaml', ['examples/c/all.yaml']],
    ['examples/a/claim.yaml', ['examples/d/app.yaml']],
  ]);
});

test('node pins and co-location', () => {
  const pod = (name: string, spec: string, labels = `{app: ${name}}`) => `---
apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: ${labels}}
spec:${spec}
  containers: [{name: c, image: c}]
`;
  const m = model({
    'a.yaml':
      pod('pinned-a', '\n  nodeName: node-a') +
      pod('selector-a', '\n  nodeSelector: {kubernetes.io/hostname: node-a}') +
      pod('two-terms', `
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-a]}]
          - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-b]}]`) +
      pod('free', '') +
      pod('follower', `
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: kubernetes.io/hostname
          labelSelector: {matchLabels: {app: free}}`) +
      pod('zone-follower', `
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: topology.kubernetes.io/zone
          labelSelector: {matchLabels: {app: free}}`),
  });
  const t = (name: string) => m.templates.find((x) => x.workload.name === name)!;
  assert.is(nodePinOf(t('pinned-a')), 'node-a');
  assert.is(nodePinOf(t('selector-a')), 'node-a');
  assert.is(nodePinOf(t('two-terms')), undefined);
  assert.is(nodePinOf(t('free')), undefined);
  const single = () => false;
  assert.ok(coLocated(m, [t('pinned-a'), t('selector-a')], single));
  assert.not.ok(coLocated(m, [t('pinned-a'), t('free')], single));
  assert.ok(coLocated(m, [t('free'), t('follower')], single));
  assert.not.ok(coLocated(m, [t('free'), t('zone-follower')], single));
  assert.ok(selfCoLocated(m, t('pinned-a')));
  assert.not.ok(selfCoLocated(m, t('free')));
});

test.run();
