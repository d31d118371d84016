import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  allDriverCapabilities, driverCapabilities, inTreeSourceProvisioner, normaliseProvisioner, IN_TREE_TO_CSI,
} from '../../src/model/provisioners.js';

const test = suite('provisioners');

/** Every row of the catalogue's §7 table. */
const CATALOGUE_ROWS = [
  'ebs.csi.aws.com', 'efs.csi.aws.com', 'fsx.csi.aws.com', 'pd.csi.storage.gke.io', 'filestore.csi.storage.gke.io',
  'disk.csi.azure.com', 'file.csi.azure.com', 'cinder.csi.openstack.org', 'rbd.csi.ceph.com', 'cephfs.csi.ceph.com',
  'driver.longhorn.io', 'nfs.csi.k8s.io', 'rancher.io/local-path', 'openebs.io/local', 'kubernetes.io/no-provisioner',
  'csi.vsphere.vmware.com', 'pxd.portworx.com', 'csi.hetzner.cloud', 'dobs.csi.digitalocean.com',
  'kubernetes.io/aws-ebs', 'kubernetes.io/gce-pd', 'kubernetes.io/azure-disk', 'kubernetes.io/azure-file', 'kubernetes.io/cinder',
];

test('every §7 row is in the table, once', () => {
  const rows = allDriverCapabilities().filter((r) => r.catalogue).map((r) => r.name);
  assert.equal([...rows].sort(), [...CATALOGUE_ROWS].sort());
  const names = allDriverCapabilities().flatMap((r) => [r.name, ...r.aliases]);
  assert.is(new Set(names).size, names.length);
});

test('every row cites sources with https links', () => {
  for (const row of allDriverCapabilities()) {
    assert.ok(row.refs.length > 0 && row.sources.length > 0, row.name);
    for (const source of row.sources) assert.match(source.url, /^https:\/\//);
  }
});

test('§1.4 normalisation', () => {
  assert.is(normaliseProvisioner('kubernetes.io/aws-ebs'), 'ebs.csi.aws.com');
  assert.is(normaliseProvisioner('kubernetes.io/gce-pd'), 'pd.csi.storage.gke.io');
  assert.is(normaliseProvisioner('kubernetes.io/azure-disk'), 'disk.csi.azure.com');
  assert.is(normaliseProvisioner('kubernetes.io/azure-file'), 'file.csi.azure.com');
  assert.is(normaliseProvisioner('kubernetes.io/cinder'), 'cinder.csi.openstack.org');
  assert.is(normaliseProvisioner('kubernetes.io/vsphere-volume'), 'csi.vsphere.vmware.com');
  assert.is(normaliseProvisioner('kubernetes.io/portworx-volume'), 'pxd.portworx.com');
  assert.is(normaliseProvisioner('ebs.csi.aws.com'), 'ebs.csi.aws.com');
  assert.is(normaliseProvisioner('example.com/unknown'), 'example.com/unknown');
  for (const target of Object.values(IN_TREE_TO_CSI)) assert.ok(driverCapabilities(target), target);
});

test('lookup of a CSI driver', () => {
  const ebs = driverCapabilities('ebs.csi.aws.com')!;
  assert.is(ebs.driver, 'ebs.csi.aws.com');
  assert.is(ebs.capabilities.attach, 'required');
  assert.is(ebs.capabilities.rwx.support, 'block-only');
  assert.is(ebs.capabilities.rox.support, 'no');
  assert.is(ebs.capabilities.topology.kind, 'zonal');
  assert.is(ebs.inTree, undefined);
  const efs = driverCapabilities('efs.csi.aws.com')!;
  assert.is(efs.capabilities.attach, 'not-required');
  assert.is(efs.capabilities.block.support, 'no');
});

test('a removed in-tree provisioner gets the CSI capabilities and keeps its own row', () => {
  const info = driverCapabilities('kubernetes.io/gce-pd')!;
  assert.is(info.requested, 'kubernetes.io/gce-pd');
  assert.is(info.driver, 'pd.csi.storage.gke.io');
  assert.is(info.capabilities.name, 'pd.csi.storage.gke.io');
  assert.is(info.inTree?.name, 'kubernetes.io/gce-pd');
  assert.is(info.inTree?.rwop.support, 'no');
  assert.is(info.inTree?.migratedTo, 'pd.csi.storage.gke.io');
});

test('aliases and unknown drivers', () => {
  assert.is(driverCapabilities('kubernetes.io/portworx-volume')?.capabilities.name, 'pxd.portworx.com');
  assert.is(driverCapabilities('kubernetes.io/local-volume')?.capabilities.name, 'kubernetes.io/no-provisioner');
  assert.is(driverCapabilities('example.com/unknown'), undefined);
  assert.is(driverCapabilities(' ebs.csi.aws.com ')?.driver, 'ebs.csi.aws.com');
});

test('in-tree PV sources', () => {
  assert.equal(inTreeSourceProvisioner({ nfs: { server: 'a', path: '/' } }), { source: 'nfs', provisioner: 'kubernetes.io/nfs' });
  assert.equal(inTreeSourceProvisioner({ awsElasticBlockStore: { volumeID: 'vol-1' } }), { source: 'awsElasticBlockStore', provisioner: 'kubernetes.io/aws-ebs' });
  assert.equal(inTreeSourceProvisioner({ local: { path: '/mnt' } }), { source: 'local', provisioner: 'kubernetes.io/local-volume' });
  assert.is(inTreeSourceProvisioner({ csi: { driver: 'x' } }), undefined);
  assert.is(inTreeSourceProvisioner(undefined), undefined);
  assert.is(driverCapabilities('kubernetes.io/nfs')?.capabilities.attach, 'not-applicable');
});

test.run();
