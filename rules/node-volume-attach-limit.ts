// R34: one pod needs more attachable volumes of a driver than a node of that driver can attach.
import { defineRule } from '../src/define-rule.js';
import { volumeNamed } from '../src/model/mounts.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { normaliseProvisioner } from '../src/model/provisioners.js';
import { claimOfVolume } from '../src/model/volume-claims.js';
import type { JsonPath } from '../src/types.js';

interface Options {
  /** Attach limit per node by CSI driver name. */
  limits: Record<string, number>;
}

/** Hard driver constants (§7): Hetzner `MaxVolumesPerNode = 16`, DigitalOcean `defaultMaxVolumesPerNode = 7`. */
const DEFAULTS: Options = { limits: { 'csi.hetzner.cloud': 16, 'dobs.csi.digitalocean.com': 7 } };

export default defineRule<
  { tooMany: (d: { kind: string; workload: string; count: number; driver: string; limit: number; claims: string }) => string },
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
      'csi.hetzner.cloud 16, dobs.csi.digitalocean.com 7; add other drivers with the limit of your node type).',
    exceptions:
      'Drivers without a configured limit, claims not in the repo, and volumes without an attach step are not counted. Volumes of ' +
      'other pods on the same node are not known, so a pod at or just below the limit is not reported.',
    fix:
      'Spread the data over fewer, larger volumes, split the workload into several pods, or use nodes with a higher attach limit ' +
      '(and set the limit here).',
    reportsAt: 'The first volume beyond the limit in the pod spec\'s `volumes` (or claim templates).',
    references: [
      { title: 'Kubernetes docs: Node-specific Volume Limits', url: 'https://kubernetes.io/docs/concepts/storage/storage-limits/' },
      { title: 'hetznercloud/csi-driver internal/driver/driver.go (MaxVolumesPerNode = 16)', url: 'https://github.com/hetznercloud/csi-driver/blob/53ead0b/internal/driver/driver.go' },
      { title: 'digitalocean/csi-digitalocean driver/driver.go (defaultMaxVolumesPerNode = 7)', url: 'https://github.com/digitalocean/csi-digitalocean/blob/0711283/driver/driver.go' },
    ],
    messages: {
      tooMany: (d) =>
        `${d.kind} "${d.workload}" needs ${d.count} ${d.driver} volumes attached to its node (${d.claims}), but a node attaches at most ` +
        `${d.limit}: the pod fits no node and stays Pending ("exceed max volume count").`,
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
    for (const template of model.templates) {
      const byDriver = new Map<string, { names: string[]; paths: JsonPath[] }>();
      const names = [...template.claimTemplates.map((t) => t.name), ...template.volumes.map((v) => v.name)];
      const seen = new Set<string>();
      for (const name of names) {
        if (seen.has(name)) continue;
        seen.add(name);
        const ref = volumeNamed(template, name);
        if (!ref) continue;
        const claim = claimOfVolume(model, template, ref);
        if (!claim || claim === 'external') continue;
        const driver = claim.storage.driver.name;
        if (driver === undefined || claim.storage.attach.value !== 'yes') continue;
        const key = normaliseProvisioner(driver);
        if (!limits.has(key)) continue;
        const path: JsonPath = ref.volume && ref.kind !== 'claim-template' ? ref.volume.path : ref.claimTemplate ? ref.claimTemplate.path : claim.path;
        const entry = byDriver.get(key) ?? { names: [], paths: [] };
        if (entry.names.includes(claim.name) && claim.origin === 'pvc') continue;
        entry.names.push(claim.name);
        entry.paths.push(path);
        byDriver.set(key, entry);
      }
      for (const [driver, entry] of byDriver) {
        const limit = limits.get(driver)!;
        if (entry.names.length <= limit) continue;
        report({
          resource: template.workload, path: entry.paths[limit], messageId: 'tooMany',
          data: { kind: template.kind, workload: template.workload.name, count: entry.names.length, driver, limit, claims: entry.names.join(', ') },
        });
      }
    }
  },
});
