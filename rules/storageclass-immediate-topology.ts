// R11: Immediate volume binding on a provisioner whose volumes are tied to a zone, region or node.
import { defineRule } from '../src/define-rule.js';
import { type Topology } from '../src/model/provisioners.js';
import type { Severity } from '../src/types.js';
import { ownEntry } from '../src/engine/own-entry.js';

const GENERIC_KEYS: Record<string, readonly string[]> = {
  zonal: ['topology.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/zone'],
  regional: ['topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region'],
  node: ['kubernetes.io/hostname'],
};

const SEVERITY: Partial<Record<Topology['kind'], Severity>> = { node: 'error', zonal: 'warning', regional: 'note' };

const WHERE: Partial<Record<Topology['kind'], string>> = {
  node: 'on one node (node-local storage)',
  zonal: 'in one zone',
  regional: 'in one region / location',
};

/** The single topology value `allowedTopologies` pins for one of `keys`, when every term pins the same single value. */
function pinnedValue(allowed: unknown, keys: readonly string[]): string | undefined {
  if (!Array.isArray(allowed) || allowed.length === 0) return undefined;
  const values = new Set<string>();
  for (const term of allowed) {
    const expressions: any[] = Array.isArray(term?.matchLabelExpressions) ? term.matchLabelExpressions : [];
    const relevant = expressions.filter((e) => keys.includes(String(e?.key)) && Array.isArray(e?.values));
    if (relevant.length === 0) return undefined;
    const termValues = relevant.map((e) => new Set<string>(e.values.map(String)));
    // Within a term the expressions are ANDed: the allowed values are their intersection.
    const allowedHere = [...termValues[0]].filter((v) => termValues.every((set) => set.has(v)));
    allowedHere.forEach((v) => values.add(v));
  }
  return values.size === 1 ? [...values][0] : undefined;
}

const AZURE_DISK = 'disk.csi.azure.com';
/** Dynamic node-local provisioners that provision only on the node the scheduler selected (WaitForFirstConsumer). */
const NEEDS_SELECTED_NODE = new Set(['rancher.io/local-path', 'openebs.io/local']);

/** Azure zone-redundant disks (`Premium_ZRS`, `StandardSSD_ZRS`) attach to nodes in every zone of the region. */
function zoneRedundantAzureDisk(parameters: unknown): boolean {
  if (!parameters || typeof parameters !== 'object') return false;
  return Object.entries(parameters as Record<string, unknown>).some(([key, value]) =>
    ['skuname', 'storageaccounttype'].includes(key.toLowerCase()) && /_ZRS$/i.test(String(value)));
}

export default defineRule({
  id: 'storageclass-immediate-topology',
  meta: {
    catalogueId: 'R11',
    severity: 'warning',
    severities: ['error', 'note'],
    kinds: ['StorageClass'],
    summary: 'A StorageClass for zonal or node-local volumes binds Immediately, before the pod is scheduled.',
    why:
      'With `volumeBindingMode: Immediate` (the default when unset) the volume is provisioned or bound as soon as the ' +
      'claim exists, "without knowledge of the Pod\'s scheduling requirements". Zonal disks (EBS, GCE PD, Azure Disk, ' +
      'Cinder) are then created in some zone, and a pod that must run elsewhere — because of its node selector, ' +
      'affinity, taints, resources or a second volume — stays Pending with "node(s) had volume node affinity conflict". ' +
      'Node-local storage (local PVs, local-path, OpenEBS hostpath) binds to an arbitrary node. WaitForFirstConsumer ' +
      'delays binding until the scheduler has picked a node and provisions there.',
    trigger:
      'A StorageClass whose provisioner (in-tree names normalised to their CSI driver) has zonal, regional or node ' +
      'topology in pvlint\'s provisioner table, whose `volumeBindingMode` is unset or Immediate, and whose ' +
      '`allowedTopologies` is absent or allows more than one zone (region, node). Error for dynamic node-local provisioners ' +
      '(rancher.io/local-path, openebs.io/local), which cannot provision without the scheduler\'s node ("configuration error, ' +
      'no node was specified"); warning for static local PVs (kubernetes.io/no-provisioner: they bind, on an arbitrary ' +
      'node) and for zonal disks; note for ' +
      'region-bound volumes (Hetzner locations, DigitalOcean regions: only a problem when the cluster spans several).',
    exceptions:
      'Classes with `volumeBindingMode: WaitForFirstConsumer`, classes whose allowedTopologies pin exactly one zone ' +
      '(or node), provisioners without topology or with optional topology (Ceph RBD, vSphere), Azure zone-redundant disks (`skuName` ' +
      'Premium_ZRS or StandardSSD_ZRS attach in every zone), file storage (EFS, ' +
      'Filestore, Azure Files, NFS) and provisioners pvlint does not know. Single-zone clusters do not have the problem ' +
      'either; pvlint cannot see that.',
    fix:
      'Set `volumeBindingMode: WaitForFirstConsumer` (the EBS driver: "recommended whenever possible"; required for ' +
      'local volumes). The field is immutable: re-create the StorageClass (existing volumes keep working).',
    reportsAt: 'The class\'s `volumeBindingMode`, or the StorageClass itself when the field is unset.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Volume binding mode"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#volume-binding-mode' },
      { title: 'Kubernetes docs: Storage Classes, "Local"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#local' },
      { title: 'aws-ebs-csi-driver docs/parameters.md (WaitForFirstConsumer recommended)', url: 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/blob/master/docs/parameters.md' },
      { title: 'rancher/local-path-provisioner README (WaitForFirstConsumer)', url: 'https://github.com/rancher/local-path-provisioner/blob/master/README.md' },
      { title: 'OpenEBS docs: Local PV Hostpath ("must be WaitForFirstConsumer")', url: 'https://openebs.io/docs/user-guides/local-storage-user-guide/local-pv-hostpath/hostpath-installation' },
      { title: 'rancher/local-path-provisioner issue #386: Immediate binding fails with "configuration error, no node was specified"', url: 'https://github.com/rancher/local-path-provisioner/issues/386' },
      { title: 'azuredisk-csi-driver deploy/example/topology: ZRS disks can be scheduled on all zone and non-zone nodes', url: 'https://github.com/kubernetes-sigs/azuredisk-csi-driver/tree/master/deploy/example/topology' },
    ],
    messages: {
      immediate: (d: { storageClass: string; provisioner: string; where: string; mode: string; consequence: string }) =>
        `StorageClass "${d.storageClass}" (${d.provisioner}) creates volumes that live ${d.where}, but its volumeBindingMode is ${d.mode}: ` +
        `${d.consequence}. Use volumeBindingMode: WaitForFirstConsumer.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
parameters: {type: gp3}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
parameters: {type: gp3}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const storageClass of model.ofKind('StorageClass')) {
      const provisioner = storageClass.object?.provisioner;
      if (typeof provisioner !== 'string' || provisioner === '') continue;
      const mode = storageClass.object?.volumeBindingMode;
      if (mode === 'WaitForFirstConsumer') continue;
      const info = model.driverCapabilities(provisioner);
      if (!info) continue;
      const topology = info.capabilities.topology;
      const severity = SEVERITY[topology.kind];
      if (!severity) continue;
      if (info.driver === AZURE_DISK && zoneRedundantAzureDisk(storageClass.object?.parameters)) continue;
      const keys = [...topology.keys, ...(ownEntry(GENERIC_KEYS, topology.kind) ?? [])];
      if (pinnedValue(storageClass.object?.allowedTopologies, keys) !== undefined) continue;
      // A node-local provisioner needs the scheduler's node choice to provision at all; static local PVs only bind too early.
      const needsNode = topology.kind === 'node' && NEEDS_SELECTED_NODE.has(info.driver);
      const consequence = needsNode
        ? 'the provisioner creates a volume on the node the scheduler picks, and with Immediate binding no node is picked, so provisioning fails ("configuration error, no node was specified") and the claim stays Pending'
        : topology.kind === 'node'
        ? 'each claim binds to a local volume on an arbitrary node before its pod is scheduled, and the pod is then forced onto that node even when it does not fit there (resources, anti-affinity, taints) and stays Pending'
        : `each volume is provisioned ${topology.kind === 'zonal' ? 'in some zone' : 'in some region'} as soon as its claim exists, and a pod that must run elsewhere stays Pending with "node(s) had volume node affinity conflict"`;
      report({
        resource: storageClass,
        path: ['volumeBindingMode'],
        messageId: 'immediate',
        severity: topology.kind === 'node' && !needsNode ? 'warning' : severity,
        data: {
          storageClass: storageClass.name,
          provisioner: info.driver === provisioner ? provisioner : `${provisioner}, migrated to ${info.driver}`,
          where: WHERE[topology.kind]!,
          mode: mode == null ? 'unset (Immediate)' : String(mode),
          consequence,
        },
      });
    }
  },
});
