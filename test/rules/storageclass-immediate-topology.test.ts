import rule from '../../rules/storageclass-immediate-topology.js';
import { ruleTester } from '../helpers/rule-tester.js';

const sc = (provisioner: string, extra = '') => `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: ${provisioner}${extra}
`;
const topology = (key: string, values: string) => `
allowedTopologies:
  - matchLabelExpressions:
      - {key: ${key}, values: [${values}]}`;

ruleTester(rule, {
  valid: [
    { name: 'WaitForFirstConsumer', code: sc('ebs.csi.aws.com', '\nvolumeBindingMode: WaitForFirstConsumer') },
    { name: 'file storage without topology', code: sc('efs.csi.aws.com') },
    { name: 'NFS CSI', code: sc('nfs.csi.k8s.io', '\nvolumeBindingMode: Immediate') },
    { name: 'Ceph RBD has optional topology', code: sc('rbd.csi.ceph.com') },
    { name: 'Filestore only uses the zone as a placement hint', code: sc('filestore.csi.storage.gke.io') },
    { name: 'an unknown provisioner', code: sc('example.com/zonal') },
    { name: 'allowedTopologies pins one zone', code: sc('ebs.csi.aws.com', topology('topology.ebs.csi.aws.com/zone', 'eu-west-1a')) },
    { name: 'allowedTopologies pins one zone with the generic key', code: sc('pd.csi.storage.gke.io', topology('topology.kubernetes.io/zone', 'europe-west1-b')) },
    { name: 'stays quiet on Azure zone-redundant disks (Premium_ZRS attaches in every zone)', code: sc('disk.csi.azure.com', '\nparameters: {skuName: Premium_ZRS}') },
    { name: 'stays quiet on Azure StandardSSD_ZRS written with the lower-case key', code: sc('disk.csi.azure.com', '\nvolumeBindingMode: Immediate\nparameters: {skuname: StandardSSD_ZRS}') },
    { name: 'a local class pinned to one node', code: sc('kubernetes.io/no-provisioner', topology('kubernetes.io/hostname', 'node1')) },
    ...rule.meta.examples.valid.map((code, i) => ({ name: `documented valid example ${i + 1}`, code })),
  ],
  invalid: [
    {
      name: 'EBS without volumeBindingMode',
      code: sc('ebs.csi.aws.com'),
      errors: [{ messageId: 'immediate', severity: 'warning', path: ['volumeBindingMode'], line: 2, messageIncludes: ['live in one zone', 'unset (Immediate)', 'volume node affinity conflict'] }],
    },
    {
      name: 'explicit Immediate is reported at the field',
      code: sc('disk.csi.azure.com', '\nvolumeBindingMode: Immediate'),
      errors: [{ messageId: 'immediate', severity: 'warning', line: 5, messageIncludes: ['volumeBindingMode is Immediate'] }],
    },
    {
      name: 'an in-tree name is normalised',
      code: sc('kubernetes.io/gce-pd'),
      errors: [{ messageId: 'immediate', messageIncludes: ['kubernetes.io/gce-pd, migrated to pd.csi.storage.gke.io'] }],
    },
    // Static local PVs still bind (on an arbitrary node); the dynamic node-local provisioners cannot provision at all.
    { name: 'no-provisioner (static local PVs) is a warning', code: sc('kubernetes.io/no-provisioner'), errors: [{ messageId: 'immediate', severity: 'warning', messageIncludes: ['on one node', 'arbitrary node'] }] },
    { name: 'local-path is an error', code: sc('rancher.io/local-path'), errors: [{ messageId: 'immediate', severity: 'error', messageIncludes: ['no node was specified'] }] },
    { name: 'OpenEBS local hostpath is an error', code: sc('openebs.io/local'), errors: [{ messageId: 'immediate', severity: 'error', messageIncludes: ['provisioning fails'] }] },
    {
      name: 'a locally redundant Azure disk still binds in one zone',
      code: sc('disk.csi.azure.com', '\nparameters: {skuName: Premium_LRS}'),
      errors: [{ messageId: 'immediate', severity: 'warning' }],
    },
    { name: 'Hetzner locations are a note', code: sc('csi.hetzner.cloud'), errors: [{ messageId: 'immediate', severity: 'note' }] },
    {
      name: 'allowedTopologies with two zones',
      code: sc('ebs.csi.aws.com', topology('topology.ebs.csi.aws.com/zone', 'eu-west-1a, eu-west-1b')),
      errors: [{ messageId: 'immediate' }],
    },
    ...rule.meta.examples.invalid.map((code, i) => ({ name: `documented invalid example ${i + 1}`, code, errors: [{ messageId: 'immediate' }] })),
  ],
});
