// R30: fsGroup makes the kubelet chown every file of large volumes at each mount (slow starts), or is silently not
// applied at all because of the driver's fsGroupPolicy.
import { defineRule } from '../src/define-rule.js';
import { RWO, RWOP, RWX } from '../src/model/claims.js';
import { networkFileSystem, type EffectiveCsiDriver } from '../src/model/csi-drivers.js';
import { effectiveUser, fsGroupOf, podContainers, usesOfContainer, volumeNamed } from '../src/model/mounts.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { compareQuantities, parseQuantity } from '../src/model/quantity.js';
import { requestedStorage, type ResolvedClaim } from '../src/model/volume-claims.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath } from '../src/types.js';

interface Options {
  minClaimSize: string;
}
const DEFAULTS: Options = { minClaimSize: '50Gi' };

const ORIGIN: Record<ResolvedClaim['origin'], string> = {
  pvc: 'PersistentVolumeClaim',
  'claim-template': 'claim template',
  ephemeral: 'generic ephemeral volume',
};

/** Whether the kubelet applies fsGroup to the claim's volume: `yes`, `no` (with why), or `unknown`. */
function fsGroupApplied(model: StorageModel, claim: ResolvedClaim): { applied: 'yes' | 'no' | 'unknown'; why: string; csiDriver?: EffectiveCsiDriver } {
  const storage = claim.storage;
  const driverName = storage.driver.name;
  const csi = driverName ? model.effectiveCsiDriver(driverName) : undefined;
  const singleNode = (storage.accessModes.includes(RWO) || storage.accessModes.includes(RWOP)) && !storage.accessModes.includes(RWX);
  const network = networkFileSystem(storage);
  if (csi?.fsGroupPolicy === 'None') return { applied: 'no', why: `CSIDriver "${driverName}" has fsGroupPolicy: None`, csiDriver: csi };
  if (csi?.fsGroupPolicy === 'File') return { applied: 'yes', why: `CSIDriver "${driverName}" has fsGroupPolicy: File`, csiDriver: csi };
  if (csi?.fsGroupPolicy === 'ReadWriteOnceWithFSType' || (csi && csi.fsGroupPolicy === undefined)) {
    if (!singleNode) return { applied: 'no', why: `CSIDriver "${driverName}" applies fsGroup only to ReadWriteOnce volumes with an fsType (fsGroupPolicy ReadWriteOnceWithFSType, the default), and the claim is ${storage.accessModes.join(', ') || 'without access modes'}`, csiDriver: csi };
    if (network) return { applied: 'no', why: `${network.name} volumes have no fsType`, csiDriver: csi };
    return { applied: 'yes', why: `CSIDriver "${driverName}" applies fsGroup to ReadWriteOnce volumes with an fsType`, csiDriver: csi };
  }
  if (network) return { applied: 'unknown', why: `${network.name} volume` };
  if (driverName === undefined) return { applied: 'unknown', why: 'the driver is unknown' };
  return singleNode && storage.attach.value === 'yes'
    ? { applied: 'yes', why: `${storage.driver.info?.driver ?? driverName} block volumes carry a file system` }
    : { applied: 'unknown', why: `driver ${driverName}` };
}

export default defineRule<
  {
    recursive: (d: { kind: string; workload: string; fsGroup: number; policy: string; origin: string; claim: string; size: string; min: string }) => string;
    notApplied: (d: { kind: string; workload: string; fsGroup: number; container: string; origin: string; claim: string; why: string }) => string;
  },
  Options
>({
  id: 'fsgroup-recursive-chown',
  meta: {
    catalogueId: 'R30',
    severity: 'note',
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim', 'CSIDriver'],
    summary: 'A pod sets fsGroup without fsGroupChangePolicy: OnRootMismatch on a large volume (every file is chowned at each mount), or on a volume whose driver never applies fsGroup.',
    why:
      '"By default, Kubernetes recursively changes ownership and permissions for the contents of each volume to match the fsGroup ' +
      'specified in a Pod\'s securityContext when that volume is mounted. For large volumes, checking and changing ownership and ' +
      'permissions can take a lot of time, slowing Pod startup" — millions of files mean minutes, and mount timeouts. ' +
      '`fsGroupChangePolicy: OnRootMismatch` skips the walk when the volume root already has the right owner. Conversely the ' +
      'kubelet does not apply fsGroup at all when the CSIDriver\'s `fsGroupPolicy` is `None`, or under the default ' +
      '`ReadWriteOnceWithFSType` when the volume is not ReadWriteOnce or has no fsType — a non-root container that relies on the ' +
      'group then cannot write.',
    trigger:
      'A pod template with `securityContext.fsGroup` and `fsGroupChangePolicy` absent or `Always`, mounting a claim (PVC, claim ' +
      'template or generic ephemeral volume) that requests at least `minClaimSize` (default 50Gi) on a volume fsGroup applies to ' +
      '(a CSIDriver with fsGroupPolicy `File`, or a ReadWriteOnce claim on an attachable block driver). Separately: fsGroup set, a ' +
      'non-root container, and a claim whose CSIDriver in the repo has `fsGroupPolicy: None`, or the default policy with a claim ' +
      'that is not ReadWriteOnce.',
    exceptions:
      'Claims smaller than `minClaimSize`, claims not in the repo (size and driver unknown), network file systems (no fsType: ' +
      'fsGroup is not applied), and drivers pvlint cannot place are not reported. The "not applied" case needs the CSIDriver ' +
      'object in the repo.',
    fix:
      'Add `fsGroupChangePolicy: OnRootMismatch` next to `fsGroup` (stable since v1.23). Where fsGroup is not applied, set the ' +
      'ownership another way: the driver\'s own uid/gid options, an init container, or `runAsUser`/`runAsGroup` matching the ' +
      'files.',
    reportsAt: 'The pod `securityContext.fsGroupChangePolicy` (or the securityContext where it should be), or `fsGroup` for the not-applied case.',
    references: [
      { title: 'Kubernetes docs: Configure a Security Context, "Configure volume permission and ownership change policy for Pods"', url: 'https://kubernetes.io/docs/tasks/configure-pod-container/security-context/#configure-volume-permission-and-ownership-change-policy-for-pods' },
      { title: 'Kubernetes API: CSIDriverSpec (fsGroupPolicy)', url: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/csi-driver-v1/' },
      { title: 'Kubernetes CSI docs: Support for fsGroup', url: 'https://kubernetes-csi.github.io/docs/support-fsgroup.html' },
    ],
    messages: {
      recursive: (d) =>
        `${d.kind} "${d.workload}" sets fsGroup ${d.fsGroup} with ${d.policy}, and mounts ${d.origin} "${d.claim}" of ${d.size} ` +
        `(at least ${d.min}): the kubelet walks and chowns every file of the volume at each mount, which slows pod start and can time out on large volumes.`,
      notApplied: (d) =>
        `${d.kind} "${d.workload}" sets fsGroup ${d.fsGroup} for non-root ${d.container}, but it is not applied to ${d.origin} "${d.claim}": ` +
        `${d.why}; files there keep their owner, so the container may not be able to write.`,
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          minClaimSize: { type: 'string', description: 'A Kubernetes quantity: claims requesting at least this much storage count as large.', pattern: '^[0-9.]+([KMGTPE]i?|[eE][0-9]+)?$' },
        },
        additionalProperties: false,
      },
      defaults: DEFAULTS,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: search}
spec:
  serviceName: search
  selector: {matchLabels: {app: search}}
  template:
    metadata: {labels: {app: search}}
    spec:
      securityContext: {fsGroup: 1000}
      containers: [{name: search, image: registry.example.com/search:9, volumeMounts: [{name: index, mountPath: /index}]}]
  volumeClaimTemplates:
    - metadata: {name: index}
      spec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 500Gi}}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: search}
spec:
  serviceName: search
  selector: {matchLabels: {app: search}}
  template:
    metadata: {labels: {app: search}}
    spec:
      securityContext: {fsGroup: 1000, fsGroupChangePolicy: OnRootMismatch}
      containers: [{name: search, image: registry.example.com/search:9, volumeMounts: [{name: index, mountPath: /index}]}]
  volumeClaimTemplates:
    - metadata: {name: index}
      spec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 500Gi}}}
`,
      ],
    },
  },
  check({ model, options, report }) {
    const min = parseQuantity(options.minClaimSize) ?? parseQuantity(DEFAULTS.minClaimSize)!;
    for (const template of model.templates) {
      const fsGroup = fsGroupOf(template);
      if (fsGroup === undefined) continue;
      const securityContextPath: JsonPath = [...template.specPath, 'securityContext'];
      const policy = template.spec?.securityContext?.fsGroupChangePolicy;
      const containers = podContainers(template);
      const mounted = new Set(containers.flatMap((c) => usesOfContainer(template, c).map((u) => u.volumeName)));
      let reportedRecursive = false;
      for (const name of mounted) {
        const ref = volumeNamed(template, name);
        if (!ref) continue;
        const claim = model.claimOfVolume(template, ref);
        if (!claim || claim === 'external') continue;
        const applied = fsGroupApplied(model, claim);
        const base = { kind: template.kind, workload: template.workload.name, fsGroup, origin: ORIGIN[claim.origin], claim: claim.name };
        if (!reportedRecursive && policy !== 'OnRootMismatch' && applied.applied === 'yes') {
          const size = parseQuantity(requestedStorage(claim.object));
          if (size && compareQuantities(size, min) >= 0) {
            reportedRecursive = true;
            report({
              resource: template.workload,
              path: [...securityContextPath, 'fsGroupChangePolicy'],
              messageId: 'recursive',
              data: { ...base, policy: policy === undefined ? 'no fsGroupChangePolicy (Always by default)' : `fsGroupChangePolicy: ${policy}`, size: size.text, min: min.text },
              related: [{ resource: claim.owner, path: [...claim.path, 'spec', 'resources', 'requests', 'storage'], message: `${ORIGIN[claim.origin]} "${claim.name}" requests ${size.text}` }],
            });
          }
        }
        if (applied.applied === 'no' && applied.csiDriver?.from === 'bundle') {
          const writer = containers.find((c) => effectiveUser(template, c.object) === 'non-root' && usesOfContainer(template, c).some((u) => u.volumeName === name && !u.readOnly));
          if (!writer) continue;
          report({
            resource: template.workload,
            path: [...securityContextPath, 'fsGroup'],
            messageId: 'notApplied',
            data: { ...base, container: `container "${writer.name}"`, why: applied.why },
            related: [{ resource: applied.csiDriver.object!, path: ['spec', 'fsGroupPolicy'], message: `CSIDriver "${applied.csiDriver.object!.name}"` }],
          });
        }
      }
    }
  },
});
