// R34: one pod needs more attachable volumes of a driver than a node of that driver can attach.
import { defineRule } from '../src/define-rule.js';
import { volumeNamed } from '../src/model/mounts.js';
import { nodePinOf } from '../src/model/placement.js';
import { WORKLOAD_KINDS, type PodTemplate } from '../src/model/pod-templates.js';
import { normaliseProvisioner } from '../src/model/provisioners.js';
import type { JsonPath } from '../src/types.js';

interface Options {
  /** Attach limit per node by CSI driver name. */
  limits: Record<string, number>;
}

/**
 * Hard driver constants (§7): Hetzner `MaxVolumesPerNode = 16`, DigitalOcean `defaultMaxVolumesPerNode = 7`. The cloud
 * block drivers depend on the node type; their defaults are the largest per-node numbers the Kubernetes docs
 * ("Node-specific Volume Limits", as of v1.34) give, so a pod above them fits no node type: GCE PD "up to 127",
 * Azure Disk "up to 64", EBS 39 (25 on M5/C5/R5/T3/Z1D; set the option for instance types that attach more).
 */
const DEFAULTS: Options = {
  limits: { 'csi.hetzner.cloud': 16, 'dobs.csi.digitalocean.com': 7, 'ebs.csi.aws.com': 39, 'pd.csi.storage.gke.io': 127, 'disk.csi.azure.com': 64 },
};

interface PinnedVolumes {
  ids: Set<string>;
  workloads: string[];
  last?: { template: PodTemplate; path: JsonPath };
}

/** Where a template's node pin is written, for pointing at it. */
function pinPath(template: PodTemplate): JsonPath {
  const spec = template.spec ?? {};
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') return [...template.specPath, 'nodeName'];
  if (spec.nodeSelector?.['kubernetes.io/hostname'] != null) return [...template.specPath, 'nodeSelector', 'kubernetes.io/hostname'];
  return [...template.specPath, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'];
}

export default defineRule<
  {
    tooMany: (d: { kind: string; workload: string; count: number; driver: string; limit: number; claims: string }) => string;
    pinnedTooMany: (d: { node: string; count: number; driver: string; limit: number; workloads: string }) => string;
  },
  Options
>({
  id: 'node-volume-attach-limit',
  meta: {
    catalogueId: 'R34',
    severity: 'warning',
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim', 'StorageClass'],
    summary: 'One pod needs more attachable volumes of a driver than a node can attach for that driver.',
    why:
      'Every node can attach only so many volumes per driver; CSI drivers report the number (`max_volumes_per_node`) into ' +
      '`CSINode.spec.drivers[].allocatable.count`, and the scheduler places a pod only on a node with room for all its attachable ' +
      'volumes. A pod that needs more than the limit fits no node and stays Pending ("node(s) exceed max volume count"). Some ' +
      'drivers have a fixed limit: Hetzner Cloud 16 volumes per server, DigitalOcean 7 per droplet; others depend on the instance ' +
      'type (EBS estimates it from the instance type unless the driver runs with `--volume-attach-limit`).',
    trigger:
      'A pod template whose distinct claims (PersistentVolumeClaims in the repo, StatefulSet claim templates, generic ephemeral ' +
      'volumes) on volumes that attach to a node, of one driver, outnumber that driver\'s limit in the `limits` option (default: ' +
      'csi.hetzner.cloud 16, dobs.csi.digitalocean.com 7, and the largest per-node numbers the Kubernetes docs give for the cloud ' +
      'block drivers: pd.csi.storage.gke.io 127, disk.csi.azure.com 64, ebs.csi.aws.com 39; set the limit of your node type to ' +
      'be stricter). Also the pods that all must run on one node (`nodeName`, a kubernetes.io/hostname nodeSelector or required ' +
      'node affinity on one host), counted together: replicas × per-pod claims, a shared claim once.',
    exceptions:
      'Drivers without a configured limit, claims not in the repo, and volumes without an attach step are not counted. Volumes of ' +
      'other pods on the same node are not known, so a pod at or just below the limit is not reported. The cloud defaults are ' +
      'the documented maxima: most node types attach fewer (EBS on Nitro instances shares 28 attachments with network interfaces), ' +
      'and instance types with dedicated EBS volume limits attach more (raise `limits` for them).',
    fix:
      'Spread the data over fewer, larger volumes, split the workload into several pods, or use nodes with a higher attach limit ' +
      '(and set the limit here).',
    reportsAt: 'The first volume beyond the limit in the pod spec\'s `volumes` (or claim templates); for pods pinned to one node, the pin of the workload that brings the count over the limit.',
    references: [
      { title: 'Kubernetes docs: Node-specific Volume Limits (EBS 39 / 25, GCE PD up to 127, Azure Disk up to 64 per node)', url: 'https://kubernetes.io/docs/concepts/storage/storage-limits/' },
      { title: 'hetznercloud/csi-driver internal/driver/driver.go (MaxVolumesPerNode = 16)', url: 'https://github.com/hetznercloud/csi-driver/blob/53ead0b/internal/driver/driver.go' },
      { title: 'digitalocean/csi-digitalocean driver/driver.go (defaultMaxVolumesPerNode = 7)', url: 'https://github.com/digitalocean/csi-digitalocean/blob/0711283/driver/driver.go' },
    ],
    messages: {
      tooMany: (d) =>
        `${d.kind} "${d.workload}" needs ${d.count} ${d.driver} volumes attached to its node (${d.claims}), but a node attaches at most ` +
        `${d.limit}: the pod fits no node and stays Pending ("exceed max volume count").`,
      pinnedTooMany: (d) =>
        `The pods pinned to node "${d.node}" (${d.workloads}) need ${d.count} ${d.driver} volumes attached to it, but a node attaches at most ` +
        `${d.limit}: the pods beyond the limit stay Pending on that node ("exceed max volume count").`,
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          limits: {
            type: 'object',
            description: 'Attach limit per node, by CSI driver name (after in-tree → CSI normalisation).',
            additionalProperties: { type: 'integer', minimum: 1 },
          },
        },
        additionalProperties: false,
      },
      defaults: DEFAULTS,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: do-block}
provisioner: dobs.csi.digitalocean.com
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: shards}
spec:
  serviceName: shards
  selector: {matchLabels: {app: shards}}
  template:
    metadata: {labels: {app: shards}}
    spec:
      containers:
        - name: shard
          image: registry.example.com/shard:1
          volumeMounts:
            - {name: d1, mountPath: /d1}
            - {name: d2, mountPath: /d2}
            - {name: d3, mountPath: /d3}
            - {name: d4, mountPath: /d4}
            - {name: d5, mountPath: /d5}
            - {name: d6, mountPath: /d6}
            - {name: d7, mountPath: /d7}
            - {name: d8, mountPath: /d8}
  volumeClaimTemplates:
    - {metadata: {name: d1}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d2}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d3}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d4}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d5}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d6}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d7}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
    - {metadata: {name: d8}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: do-block}
provisioner: dobs.csi.digitalocean.com
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: shards}
spec:
  serviceName: shards
  selector: {matchLabels: {app: shards}}
  template:
    metadata: {labels: {app: shards}}
    spec:
      containers:
        - name: shard
          image: registry.example.com/shard:1
          volumeMounts: [{name: data, mountPath: /data}]
  volumeClaimTemplates:
    - {metadata: {name: data}, spec: {storageClassName: do-block, accessModes: [ReadWriteOnce], resources: {requests: {storage: 80Gi}}}}
`,
      ],
    },
  },
  check({ model, options, report }) {
    const limits = new Map<string, number>();
    for (const [driver, limit] of Object.entries({ ...DEFAULTS.limits, ...(options.limits ?? {}) })) {
      if (typeof limit === 'number' && limit > 0) limits.set(normaliseProvisioner(driver), limit);
    }
    if (limits.size === 0) return;
    const pinned = new Map<string, PinnedVolumes>();
    for (const template of model.templates) {
      const byDriver = new Map<string, { names: string[]; paths: JsonPath[]; shared: boolean[] }>();
      const names = [...template.claimTemplates.map((t) => t.name), ...template.volumes.map((v) => v.name)];
      const seen = new Set<string>();
      for (const name of names) {
        if (seen.has(name)) continue;
        seen.add(name);
        const ref = volumeNamed(template, name);
        if (!ref) continue;
        const claim = model.claimOfVolume(template, ref);
        if (!claim || claim === 'external') continue;
        const driver = claim.storage.driver.name;
        if (driver === undefined || claim.storage.attach.value !== 'yes') continue;
        const key = normaliseProvisioner(driver);
        if (!limits.has(key)) continue;
        const path: JsonPath = ref.volume && ref.kind !== 'claim-template' ? ref.volume.path : ref.claimTemplate ? ref.claimTemplate.path : claim.path;
        const entry = byDriver.get(key) ?? { names: [], paths: [], shared: [] };
        if (entry.names.includes(claim.name) && claim.origin === 'pvc') continue;
        entry.names.push(claim.name);
        entry.paths.push(path);
        entry.shared.push(claim.origin === 'pvc');
        byDriver.set(key, entry);
      }
      let alone = false;
      for (const [driver, entry] of byDriver) {
        const limit = limits.get(driver)!;
        if (entry.names.length <= limit) continue;
        alone = true;
        report({
          resource: template.workload, path: entry.paths[limit], messageId: 'tooMany',
          data: { kind: template.kind, workload: template.workload.name, count: entry.names.length, driver, limit, claims: entry.names.join(', ') },
        });
      }
      const node = nodePinOf(template);
      if (node === undefined || alone) continue;
      // Every pod of the template runs on that node: its claim templates and ephemeral volumes once per pod, a PVC once.
      const written = model.podCount(template).replicas;
      const pods = written.kind === 'count' ? Math.min(Math.max(written.count, 0), 1000) : 1;
      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      for (const [driver, entry] of byDriver) {
        const key = `${node}|${driver}`;
        const set = pinned.get(key) ?? { ids: new Set<string>(), workloads: [] };
        entry.names.forEach((name, i) => {
          const shared = entry.shared[i];
          if (shared) set.ids.add(`pvc:${namespace}/${name}`);
          else for (let pod = 0; pod < pods; pod++) set.ids.add(`${template.workload.id}:${name}:${pod}`);
        });
        set.workloads.push(`${template.kind} "${template.workload.name}"${pods > 1 ? ` ×${pods}` : ''}`);
        set.last = { template, path: pinPath(template) };
        pinned.set(key, set);
      }
    }
    for (const [key, set] of pinned) {
      const [node, driver] = key.split('|');
      const limit = limits.get(driver)!;
      if (set.ids.size <= limit || !set.last || set.workloads.length === 0) continue;
      report({
        resource: set.last.template.workload, path: set.last.path, messageId: 'pinnedTooMany',
        data: { node, count: set.ids.size, driver, limit, workloads: set.workloads.join(', ') },
      });
    }
  },
});
