// R16: StorageClass parameters the API, the CSI external-provisioner or the driver reject.
import { defineRule } from '../src/define-rule.js';
import { normaliseProvisioner } from '../src/model/provisioners.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { Resource } from '../src/types.js';

const PREFIX = 'csi.storage.k8s.io/';

/**
 * The external-provisioner release the list of reserved keys below was taken from (pkg/controller/controller.go,
 * `removePrefixedParameters`, and the release notes: v6.2.0 added the controller-modify keys). A newer release may know
 * more keys, so an unknown key is a warning that names this version, not an error.
 */
export const RESERVED_KEYS_VERSION = 'external-provisioner v6.2.0';

/** Prefixed keys the CSI external-provisioner knows (removePrefixedParameters); any other prefixed key fails provisioning. */
const KNOWN_PREFIXED = new Set([
  'fstype',
  'secret-name', 'secret-namespace',
  'provisioner-secret-name', 'provisioner-secret-namespace',
  'controller-publish-secret-name', 'controller-publish-secret-namespace',
  'node-stage-secret-name', 'node-stage-secret-namespace',
  'node-publish-secret-name', 'node-publish-secret-namespace',
  'controller-expand-secret-name', 'controller-expand-secret-namespace',
  'node-expand-secret-name', 'node-expand-secret-namespace',
  'controller-modify-secret-name', 'controller-modify-secret-namespace',
].map((k) => PREFIX + k));

const MAX_PARAMETERS = 512;
const MAX_BYTES = 256 * 1024;

/** Whether the class is served by the CSI external-provisioner (which checks the prefixed keys). */
function servedByCsi(model: StorageModel, provisioner: string): boolean {
  const info = model.driverCapabilities(provisioner);
  if (info) return info.capabilities.type === 'csi';
  if (model.lookupCsiDriver(provisioner).status === 'found') return true;
  return /(^|[.-])csi([.-]|$)/.test(provisioner);
}

export default defineRule({
  id: 'storageclass-parameter-invalid',
  meta: {
    catalogueId: 'R16',
    severity: 'error',
    severities: ['warning'],
    kinds: ['StorageClass'],
    summary: 'StorageClass parameters that the API server, the CSI external-provisioner or the driver reject.',
    why:
      'StorageClass `parameters` is a map of strings with at most 512 entries and 256 KiB in total; a number or boolean ' +
      'value fails to decode, so the class is never created. The CSI external-provisioner reserves the ' +
      '`csi.storage.k8s.io/` prefix and fails every provisioning of the class on a key it does not know ("found ' +
      'unknown parameter key … with reserved namespace csi.storage.k8s.io/"), and on a file system type given both as ' +
      '`fstype` and as `csi.storage.k8s.io/fstype`. Drivers reject contradictory settings: the EBS driver refuses ' +
      '`iops` together with `iopsPerGB` ("invalid StorageClass"). Every claim of the class stays Pending.',
    trigger:
      'A StorageClass with a parameter value that is not a string; more than 512 parameters or more than 256 KiB of keys ' +
      'and values; for classes served by a CSI driver (a CSI provisioner pvlint knows, an in-tree name migrated to CSI, ' +
      'a CSIDriver in the repo, or a name with a `csi` segment): a `csi.storage.k8s.io/` key that is a known key in other ' +
      'letter case (error: the provisioner compares keys exactly), any other key outside fstype and the provisioner, ' +
      'controller-publish, node-stage, node-publish, controller-expand, node-expand, controller-modify and default secret ' +
      'name/namespace keys known to ' + RESERVED_KEYS_VERSION + ' (warning: a newer provisioner may know it), or two file-system-type keys (`fstype` in any case plus `csi.storage.k8s.io/fstype`); for ' +
      'ebs.csi.aws.com (and kubernetes.io/aws-ebs): both `iops` and `iopsPerGB` (case-insensitive, as the driver reads them).',
    exceptions:
      'When pvlint/shape reports a non-string value (the API server rejects the class), the rest of the class is not ' +
      'checked. Driver-specific parameter names and values are not validated beyond the cases above (EFS classes are ' +
      'efs-storageclass-invalid\'s). Non-CSI provisioners (local-path, OpenEBS local, no-provisioner) do not check the ' +
      'csi.storage.k8s.io/ prefix. A parameter whose value is null is ignored.',
    fix:
      'Quote every parameter value (`iopsPerGB: "10"`), spell the reserved keys exactly as the external-provisioner ' +
      'documents them (e.g. `csi.storage.k8s.io/fstype`), keep one fstype key, and set either iops or iopsPerGB.',
    reportsAt: 'The offending parameter (key line); the parameters map for size limits.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Parameters" (512 parameters, 256 KiB)', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#parameters' },
      { title: 'kubernetes-csi external-provisioner controller.go (removePrefixedParameters, fstype keys)', url: 'https://github.com/kubernetes-csi/external-provisioner/blob/master/pkg/controller/controller.go' },
      { title: 'kubernetes-csi docs: external-provisioner StorageClass parameters', url: 'https://kubernetes-csi.github.io/docs/external-provisioner.html' },
      { title: 'kubernetes-csi external-provisioner CHANGELOG-6.2 (controller-modify-secret-name/-namespace, PR #1440)', url: 'https://github.com/kubernetes-csi/external-provisioner/blob/master/CHANGELOG/CHANGELOG-6.2.md' },
      { title: 'aws-ebs-csi-driver docs/parameters.md ("either iops or iopsPerGB, not both")', url: 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/blob/master/docs/parameters.md' },
    ],
    messages: {
      notString: (d: { storageClass: string; key: string; type: string }) =>
        `StorageClass "${d.storageClass}" parameter "${d.key}" is a ${d.type}; parameters are strings (map[string]string), so the API rejects the ` +
        'class and none of its claims can be provisioned. Quote the value.',
      tooMany: (d: { storageClass: string; count: number; bytes: number }) =>
        `StorageClass "${d.storageClass}" has ${d.count} parameters (${d.bytes} bytes of keys and values); the API allows at most ${MAX_PARAMETERS} parameters and 256 KiB.`,
      unknownPrefixed: (d: { storageClass: string; key: string; version: string }) =>
        `StorageClass "${d.storageClass}" has parameter "${d.key}" in the reserved ${PREFIX} namespace, which ${d.version} (the release pvlint's list of ` +
        `reserved keys comes from) does not know; a provisioner that does not know it fails every provisioning of the class ("found unknown parameter ` +
        `key … with reserved namespace ${PREFIX}"). Check that your external-provisioner release documents this key.`,
      miscasedPrefixed: (d: { storageClass: string; key: string; suggestion: string }) =>
        `StorageClass "${d.storageClass}" has parameter "${d.key}" in the reserved ${PREFIX} namespace; the CSI external-provisioner compares these keys ` +
        `exactly, knows "${d.suggestion}" but not this spelling, and fails every provisioning of the class ("found unknown parameter key … with reserved namespace ${PREFIX}").`,
      twoFsTypes: (d: { storageClass: string; keys: string }) =>
        `StorageClass "${d.storageClass}" sets the file system type twice (${d.keys}); the CSI external-provisioner fails every provisioning of the class ` +
        '("fstype specified in parameters with both "fstype" and "csi.storage.k8s.io/fstype" keys"). Keep csi.storage.k8s.io/fstype.',
      ebsIops: (d: { storageClass: string; iops: string; perGb: string }) =>
        `StorageClass "${d.storageClass}" sets both ${d.iops} and ${d.perGb}; the EBS CSI driver accepts only one of them ("invalid StorageClass"), so every ` +
        'provisioning of the class fails.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: io2}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
parameters:
  type: io2
  iops: "3000"
  iopsPerGB: "50"
  csi.storage.k8s.io/fsType: xfs
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: io2}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
parameters:
  type: io2
  iopsPerGB: "50"
  csi.storage.k8s.io/fstype: xfs
`,
      ],
    },
  },
  check({ model, report }) {
    for (const storageClass of model.ofKind('StorageClass')) {
      checkClass(storageClass);
    }

    function checkClass(storageClass: Resource): void {
      const parameters = storageClass.object?.parameters;
      if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters)) return;
      const entries = Object.entries(parameters as Record<string, unknown>);
      const name = storageClass.name;
      for (const [key, value] of entries) {
        if (value == null || typeof value === 'string') continue;
        report({
          resource: storageClass, path: ['parameters', key], messageId: 'notString',
          data: { storageClass: name, key, type: Array.isArray(value) ? 'list' : typeof value === 'object' ? 'map' : typeof value },
        });
      }
      const bytes = entries.reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v == null ? '' : String(v)), 0);
      if (entries.length > MAX_PARAMETERS || bytes > MAX_BYTES) {
        report({ resource: storageClass, path: ['parameters'], messageId: 'tooMany', data: { storageClass: name, count: entries.length, bytes } });
      }
      const provisioner = storageClass.object?.provisioner;
      if (typeof provisioner !== 'string' || provisioner === '') return;
      if (servedByCsi(model, provisioner)) {
        for (const [key] of entries) {
          if (!key.startsWith(PREFIX) || KNOWN_PREFIXED.has(key)) continue;
          const lower = key.toLowerCase();
          const suggestion = [...KNOWN_PREFIXED].find((known) => known.toLowerCase() === lower);
          if (suggestion !== undefined) {
            report({ resource: storageClass, path: ['parameters', key], messageId: 'miscasedPrefixed', data: { storageClass: name, key, suggestion } });
          } else {
            report({ resource: storageClass, path: ['parameters', key], messageId: 'unknownPrefixed', severity: 'warning', data: { storageClass: name, key, version: RESERVED_KEYS_VERSION } });
          }
        }
        const fsKeys = entries.map(([key]) => key).filter((key) => key.toLowerCase() === 'fstype' || key === PREFIX + 'fstype');
        if (fsKeys.length > 1) {
          report({ resource: storageClass, path: ['parameters', fsKeys[1]], messageId: 'twoFsTypes', data: { storageClass: name, keys: fsKeys.map((k) => `"${k}"`).join(' and ') } });
        }
      }
      if (normaliseProvisioner(provisioner) === 'ebs.csi.aws.com') {
        const iops = entries.find(([key]) => key.toLowerCase() === 'iops');
        const perGb = entries.find(([key]) => key.toLowerCase() === 'iopspergb');
        if (iops && perGb) {
          report({ resource: storageClass, path: ['parameters', perGb[0]], messageId: 'ebsIops', data: { storageClass: name, iops: iops[0], perGb: perGb[0] } });
        }
      }
    }
  },
});
