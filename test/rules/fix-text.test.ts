// Fix texts are composed per finding from what the finding knows: no PostgreSQL advice on a MongoDB finding, no EFS
// handle formats for another driver, no "keep the emptyDir" without one, no ReadWriteMany for a database.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import csiDuplicate from '../../rules/csi-duplicate-volume-handle.js';
import databaseEphemeral from '../../rules/database-ephemeral-data.js';
import rwoMultiNode from '../../rules/rwo-claim-multi-node.js';
import rwoUpdateOverlap from '../../rules/rwo-update-overlap.js';
import legacyProvisioner from '../../rules/storageclass-legacy-provisioner.js';
import { lint } from '../../src/lint.js';
import { lintText } from '../helpers/rule-tester.js';

// argoproj/argocd-example-apps sock-shop/base/carts-db-dep.yaml (the shape of it: MongoDB with no volume at /data/db).
const mongo = `apiVersion: apps/v1
kind: Deployment
metadata: {name: carts-db}
spec:
  replicas: 1
  selector: {matchLabels: {name: carts-db}}
  template:
    metadata: {labels: {name: carts-db}}
    spec:
      containers:
        - name: carts-db
          image: mongo
          ports: [{name: mongo, containerPort: 27017}]
          volumeMounts: [{mountPath: /tmp, name: tmp-volume}]
      volumes: [{name: tmp-volume, emptyDir: {medium: Memory}}]
`;

test('database-ephemeral-data on MongoDB: its data path, no PostgreSQL layout, no emptyDir that is not there', () => {
  const [finding] = lintText(databaseEphemeral, mongo);
  assert.ok(finding, 'a finding');
  assert.match(finding.fix, /at \/data\/db/);
  assert.not.match(finding.fix, /PostgreSQL|PGDATA/);
  assert.not.match(finding.fix, /keep the emptyDir/);
});

test('database-ephemeral-data on PostgreSQL in an emptyDir: the PostgreSQL layout and that emptyDir by name', () => {
  const code = mongo.replace('image: mongo', 'image: postgres:16').replace('mountPath: /tmp', 'mountPath: /var/lib/postgresql/data').replace('medium: Memory', '');
  const [finding] = lintText(databaseEphemeral, code);
  assert.ok(finding, 'a finding');
  assert.match(finding.fix, /PGDATA/);
  assert.match(finding.fix, /keep the emptyDir "tmp-volume"/);
});

const pv = (name: string, driver: string, handle: string) => `---
apiVersion: v1
kind: PersistentVolume
metadata: {name: ${name}}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteMany]
  csi: {driver: ${driver}, volumeHandle: ${handle}}
`;

test('csi-duplicate-volume-handle: EFS handle formats for EFS only', () => {
  const nfs = lintText(csiDuplicate, pv('a', 'nfs.csi.k8s.io', 'nfs.example.com#/exports#data') + pv('b', 'nfs.csi.k8s.io', 'nfs.example.com#/exports#data'));
  assert.ok(nfs.length > 0);
  for (const f of nfs) assert.not.match(f.fix, /fs-id|EFS/);
  const efs = lintText(csiDuplicate, pv('a', 'efs.csi.aws.com', 'fs-0123456789abcdef0') + pv('b', 'efs.csi.aws.com', 'fs-0123456789abcdef0'));
  assert.match(efs[0].fix, /fs-id::fsap-id/);
});

const claim = (modes: string) => `---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {storageClassName: gp3, accessModes: [${modes}], resources: {requests: {storage: 10Gi}}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
`;
const deployment = (image: string, volumes = 'volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]') => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  replicas: 3
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers: [{name: app, image: ${image}, volumeMounts: [{name: data, mountPath: /data}]}]
      ${volumes}
`;

test('rwo-claim-multi-node: a database gets one volume per replica, never ReadWriteMany advice', () => {
  const [finding] = lintText(rwoMultiNode, claim('ReadWriteOnce') + deployment('mysql:8'));
  assert.ok(finding, 'a finding');
  assert.match(finding.fix, /MySQL keeps single-writer data/);
  assert.not.match(finding.fix, /use a ReadWriteMany class/);
});

test('rwo-claim-multi-node: no "use ReadWriteOncePod" on a claim that already is ReadWriteOncePod', () => {
  const [finding] = lintText(rwoMultiNode, claim('ReadWriteOncePod') + deployment('registry.example.com/app:1'));
  assert.ok(finding, 'a finding');
  assert.not.match(finding.fix, /Use ReadWriteOncePod/);
});

test('rwo-claim-multi-node: three samples with the same Deployment and claim give three findings, each naming its own claim once', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pvlint-samples-'));
  for (const sample of ['one', 'two', 'three']) {
    mkdirSync(path.join(dir, sample));
    writeFileSync(path.join(dir, sample, 'app.yaml'), claim('ReadWriteOnce') + deployment('registry.example.com/app:1'));
  }
  const result = await lint({ paths: ['.'], cwd: dir, root: dir, skipMissingRenderers: true });
  const findings = result.findings.filter((f) => f.ruleId === 'rwo-claim-multi-node');
  assert.is(findings.length, 3);
  for (const finding of findings) {
    assert.is(finding.message.split('"data"').length - 1, 1, finding.message);
    const sample = finding.location.file.split('/')[0];
    for (const related of finding.related) assert.is(related.location.file.split('/')[0], sample, related.location.file);
  }
});

test('rwo-update-overlap: a database is told Recreate, not ReadWriteMany', () => {
  const code = claim('ReadWriteOnce') + deployment('postgres:16').replace('replicas: 3', 'replicas: 1\n  strategy: {type: RollingUpdate}');
  const [finding] = lintText(rwoUpdateOverlap, code);
  assert.ok(finding, 'a finding');
  assert.match(finding.fix, /Recreate/);
  assert.not.match(finding.fix, /ReadWriteMany/);
});

test('storageclass-legacy-provisioner: the fix names the driver of this plugin, not EBS for GlusterFS', () => {
  const sc = (provisioner: string) => `apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: c}\nprovisioner: ${provisioner}\n`;
  const [gluster] = lintText(legacyProvisioner, sc('kubernetes.io/glusterfs'));
  assert.not.match(gluster.fix, /ebs/);
  assert.match(gluster.fix, /kubernetes\.io\/glusterfs/);
  const [azure] = lintText(legacyProvisioner, sc('kubernetes.io/azure-disk'));
  assert.match(azure.fix, /disk\.csi\.azure\.com/);
});

test.run();
