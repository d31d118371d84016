// Cluster facts from the configuration change what rules conclude: a declared StorageClass is found (not external),
// a declared default class takes part in binding, a declared provisioner or driver decides attachability.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint } from '../../src/lint.js';
import { LocateStage } from '../../src/locate/locate-stage.js';
import { parseResources } from '../../src/load/parse-resources.js';
import { makeSourceFile } from '../../src/load/source-file.js';
import { claimStorage } from '../../src/model/claims.js';
import { driverCapabilities, withDriverOverrides } from '../../src/model/provisioners.js';
import { StorageModel } from '../../src/model/storage-model.js';
import { runPvlint } from '../helpers/spawn.js';
import { PVC, repo, resolved } from './helpers.js';

const test = suite('cluster facts');

const DEPLOYMENT = (claim: string) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
      volumes:
        - name: d
          persistentVolumeClaim: {claimName: ${claim}}
`;
const SELECTOR_CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  selector: {matchLabels: {disk: orders}}
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: orders-disk, labels: {disk: orders}}
spec:
  capacity: {storage: 5Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: nfs.example.com, path: /exports/orders}
`;

function findings(dir: string, args: string[] = []): { ruleId: string; severity: string; message: string; related: any[] }[] {
  const run = runPvlint(['--format', 'json', ...args, '.'], { cwd: dir });
  assert.ok(run.code !== null && run.code < 2, run.stderr || run.stdout);
  return JSON.parse(run.stdout).findings;
}

const byRule = (list: ReturnType<typeof findings>, rule: string) => list.filter((f) => f.ruleId === rule);

test('a declared StorageClass stops the unknown-class note', () => {
  const manifests = { 'pvc.yaml': PVC('data', 'shop', 'fast') };
  assert.is(byRule(findings(repo(manifests)), 'pvc-unknown-storageclass').length, 1);
  const declared = repo({ ...manifests, '.pvlint.yaml': 'cluster:\n  storageClasses:\n    - {name: fast, provisioner: ebs.csi.aws.com}\n' });
  assert.equal(byRule(findings(declared), 'pvc-unknown-storageclass'), []);
  // A class the configuration declares under another name does not.
  const other = repo({ ...manifests, '.pvlint.yaml': 'cluster:\n  storageClasses:\n    - {name: faster, provisioner: ebs.csi.aws.com}\n' });
  assert.is(byRule(findings(other), 'pvc-unknown-storageclass').length, 1);
});

test('a declared default class changes the binding verdicts: the classless claim no longer matches the classless PV', () => {
  assert.equal(findings(repo({ 'storage.yaml': SELECTOR_CLAIM })).map((f) => f.ruleId), []);
  const dir = repo({ 'storage.yaml': SELECTOR_CLAIM, '.pvlint.yaml': 'cluster:\n  storageClasses:\n    - {name: gp3, provisioner: ebs.csi.aws.com, default: true}\n' });
  const list = findings(dir);
  const mismatch = byRule(list, 'pv-pvc-static-mismatch');
  assert.is(mismatch.length, 1);
  assert.match(mismatch[0].message, /gets the default class "gp3"/);
  assert.is(byRule(list, 'pvc-selector-dynamic-provisioning').length, 1);
});

test('a declared class provisioner decides attachability: RWO across 3 replicas becomes an error', () => {
  const manifests = { 'app.yaml': PVC('data', 'shop', 'fast') + DEPLOYMENT('data') };
  const unknown = byRule(findings(repo(manifests)), 'rwo-claim-multi-node');
  assert.is(unknown[0].severity, 'warning', 'unknown driver: a warning');
  const ebs = byRule(findings(repo({ ...manifests, '.pvlint.yaml': 'cluster:\n  storageClasses:\n    - {name: fast, provisioner: ebs.csi.aws.com}\n' })), 'rwo-claim-multi-node');
  assert.is(ebs[0].severity, 'error', 'EBS attaches volumes to one node');
  assert.match(ebs[0].message, /ebs\.csi\.aws\.com/);
});

test('a driver override: an unknown driver declared as attaching, a known one corrected', () => {
  const manifests = { 'app.yaml': PVC('data', 'shop', 'fast') + DEPLOYMENT('data') };
  const classOnly = 'cluster:\n  storageClasses:\n    - {name: fast, provisioner: acme.csi.io}\n';
  assert.is(byRule(findings(repo({ ...manifests, '.pvlint.yaml': classOnly })), 'rwo-claim-multi-node')[0].severity, 'warning');
  const attaching = `${classOnly}  drivers:\n    - {name: acme.csi.io, attach: required}\n`;
  assert.is(byRule(findings(repo({ ...manifests, '.pvlint.yaml': attaching })), 'rwo-claim-multi-node')[0].severity, 'error');
  // EFS has no attach step; a cluster whose EFS driver was installed with attachRequired: true says so.
  const efs = 'cluster:\n  storageClasses:\n    - {name: fast, provisioner: efs.csi.aws.com}\n';
  assert.is(byRule(findings(repo({ ...manifests, '.pvlint.yaml': efs })), 'rwo-claim-multi-node')[0]?.severity ?? 'none', 'warning');
  const corrected = `${efs}  drivers:\n    - {name: efs.csi.aws.com, attach: required}\n`;
  assert.is(byRule(findings(repo({ ...manifests, '.pvlint.yaml': corrected })), 'rwo-claim-multi-node')[0].severity, 'error');
});

test('mesh defaults: a namespace the configuration declares injected turns the in-container NFS note into an error', () => {
  const uploader = `apiVersion: apps/v1
kind: Deployment
metadata: {name: uploader, namespace: shop}
spec:
  selector: {matchLabels: {app: uploader}}
  template:
    metadata: {labels: {app: uploader}}
    spec:
      containers:
        - name: app
          image: acme/uploader:1
          command: ["sh", "-c", "mount -t nfs4 fs.example.com:/exports /mnt && exec app"]
          securityContext: {privileged: true}
`;
  const rule = 'mesh-in-container-nfs-unexcluded';
  assert.is(byRule(findings(repo({ 'app.yaml': uploader })), rule)[0]?.severity, 'note', 'namespace not in the repo: membership unknown');
  const injected = repo({ 'app.yaml': uploader, '.pvlint.yaml': 'cluster:\n  mesh:\n    injectedNamespaces: [shop]\n' });
  assert.is(byRule(findings(injected), rule)[0]?.severity, 'error');
  const plain = repo({ 'app.yaml': uploader, '.pvlint.yaml': 'cluster:\n  mesh:\n    plainNamespaces: [shop]\n' });
  assert.equal(byRule(findings(plain), rule), []);
});

test('driverCapabilities applies overrides only inside withDriverOverrides, merging over the table row', () => {
  assert.is(driverCapabilities('acme.csi.io'), undefined);
  const overrides = [{ name: 'acme.csi.io', attach: 'required' as const, rwx: 'no' as const }, { name: 'ebs.csi.aws.com', rwx: 'yes' as const }];
  withDriverOverrides(overrides, () => {
    const acme = driverCapabilities('acme.csi.io')!;
    assert.is(acme.capabilities.attach, 'required');
    assert.is(acme.capabilities.rwx.support, 'no');
    assert.is(acme.capabilities.rwo.support, 'unknown');
    assert.is(acme.capabilities.declared, true);
    const ebs = driverCapabilities('kubernetes.io/aws-ebs')!;
    assert.is(ebs.driver, 'ebs.csi.aws.com');
    assert.is(ebs.capabilities.rwx.support, 'yes', 'the override');
    assert.is(ebs.capabilities.attach, 'required', 'the table, where the override says nothing');
    assert.is(ebs.capabilities.topology.kind, 'zonal');
  });
  assert.is(driverCapabilities('ebs.csi.aws.com')!.capabilities.rwx.support, 'block-only', 'restored after the run');
});

test('the model: a declared class is found and marked declared, points at its config entry, and a class of the repo wins', async () => {
  const dir = repo({
    '.pvlint.yaml': 'cluster:\n  kubernetesVersion: "v1.29.4"\n  storageClasses:\n    - name: fast\n      provisioner: ebs.csi.aws.com\n      default: true\n    - name: shipped\n      provisioner: from.config\n  mesh:\n    istioInjectionDefault: true\n    injectedNamespaces: [shop]\n    ambientNamespaces: [edge]\n    nativeSidecars: auto\n',
  });
  const config = await resolved(dir);
  const file = makeSourceFile('/virtual/sc.yaml', 'sc.yaml', 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: shipped}\nprovisioner: from.repo\n');
  const model = new StorageModel(parseResources(file).resources, { scope: 'test', cluster: config.cluster, meshDefaults: config.cluster?.mesh });
  const fast = model.lookupClass('fast');
  assert.is(fast.status, 'found');
  if (fast.status !== 'found') return;
  assert.is(fast.declared, true);
  assert.ok(model.isDeclared(fast.value));
  assert.is(fast.value.object.provisioner, 'ebs.csi.aws.com');
  assert.is(model.newestDefaultClass()?.name, 'fast');
  assert.equal(model.ofKind('StorageClass').map((r) => r.name), ['shipped'], 'declared classes are facts, not manifests to lint');
  const stage = new LocateStage();
  const at = stage.locate(fast.value, ['provisioner']).location;
  assert.equal([at.file, at.region.startLine], ['.pvlint.yaml', 5]);
  assert.is(stage.locate(fast.value, ['metadata', 'name']).location.region.startLine, 4);
  const shipped = model.lookupClass('shipped');
  assert.ok(shipped.status === 'found' && shipped.value.object.provisioner === 'from.repo' && shipped.declared === undefined);
  assert.equal(model.kubernetesVersion, { major: 1, minor: 29, patch: 4, text: 'v1.29.4' });
  assert.equal(model.meshDefaults, { istioInjectByDefault: true, meshNamespaces: { shop: 'istio-sidecar', edge: 'istio-ambient' }, istioNativeSidecars: 'auto' });
});

test('lint() takes the same facts programmatically', async () => {
  const dir = repo({ 'app.yaml': PVC('data', 'shop', 'fast') + DEPLOYMENT('data') });
  const without = await lint({ paths: ['.'], cwd: dir });
  assert.ok(without.findings.some((f) => f.ruleId === 'pvc-unknown-storageclass'));
  const result = await lint({ paths: ['.'], cwd: dir, cluster: { storageClasses: [{ name: 'fast', provisioner: 'ebs.csi.aws.com' }] } });
  assert.not.ok(result.findings.some((f) => f.ruleId === 'pvc-unknown-storageclass'));
  assert.is(result.findings.find((f) => f.ruleId === 'rwo-claim-multi-node')?.severity, 'error');
  // The storage view of the claim agrees.
  const file = makeSourceFile(path.join(dir, 'app.yaml'), 'app.yaml', PVC('data', 'shop', 'fast'));
  const model = new StorageModel(parseResources(file).resources, { scope: 't', cluster: { storageClasses: [{ name: 'fast', provisioner: 'ebs.csi.aws.com' }] } });
  const storage = claimStorage(model, model.claimsOf()[0]);
  assert.is(storage.attach.value, 'yes');
});

test.run();
