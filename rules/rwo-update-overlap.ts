// R18: an update strategy runs old and new pods at the same time while they write a ReadWriteOnce(Pod) claim.
import { databaseProductOf } from '../src/model/workload-database.js';
import { defineRule } from '../src/define-rule.js';
import { describeDriver, singleNodeEnforcement, ROX, type ClaimStorage, type Enforcement } from '../src/model/claims.js';
import type { PodCount } from '../src/model/pod-count.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';


const SEVERITY: Record<Enforcement, Severity> = { rwop: 'error', attach: 'warning', none: 'note', unknown: 'note' };
const RANK: Record<Enforcement, number> = { rwop: 4, attach: 3, unknown: 2, none: 1 };

/** An int-or-percent (`1`, `"25%"`), as intstr.GetScaledValueFromIntOrPercent reads it; undefined when invalid. */
type IntOrPercent = { kind: 'int'; value: number } | { kind: 'percent'; value: number };

function parseIntOrPercent(value: unknown): IntOrPercent | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? { kind: 'int', value } : undefined;
  if (typeof value === 'string') {
    const match = /^(\d+)%$/.exec(value.trim());
    return match ? { kind: 'percent', value: Number(match[1]) } : undefined;
  }
  return undefined;
}

/** Absolute value against `replicas`: surge rounds up, unavailable rounds down (ResolveFenceposts). */
function scaled(value: IntOrPercent, replicas: number, roundUp: boolean): number {
  if (value.kind === 'int') return value.value;
  const exact = (value.value * replicas) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

function show(raw: unknown, fallback: string): string {
  return raw === undefined || raw === null ? `${fallback} by default` : String(raw);
}

const pods = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;

interface Overlap {
  /** How the strategy overlaps old and new pods, for the message. */
  strategy: string;
  /** Old pods stay until new ones are Ready (maxUnavailable resolves to 0). */
  waitsForReady: boolean;
  path: JsonPath;
}

/** Deployment RollingUpdate with effective maxSurge > 0; Rollout blueGreen, or canary with maxSurge ≠ 0. */
function overlapOf(template: PodTemplate, count: PodCount): Overlap | undefined {
  const object = template.workload.object;
  const rawStrategy = object?.spec?.strategy;
  if (rawStrategy != null && (typeof rawStrategy !== 'object' || Array.isArray(rawStrategy))) return undefined;
  const strategy = rawStrategy ?? {};
  // Surge and unavailability are fractions of the written replicas (an autoscaler changes them over time).
  const replicas = count.replicas.kind === 'count' ? Math.max(count.replicas.count, 1) : 1;
  if (template.kind === 'Deployment') {
    const type = strategy.type ?? 'RollingUpdate';
    if (type !== 'RollingUpdate') return undefined;
    const rawSurge = strategy.rollingUpdate?.maxSurge;
    const rawUnavailable = strategy.rollingUpdate?.maxUnavailable;
    const surge = parseIntOrPercent(rawSurge ?? '25%');
    const unavailable = parseIntOrPercent(rawUnavailable ?? '25%');
    if (!surge || !unavailable) return undefined;
    const surgePods = scaled(surge, replicas, true);
    if (surgePods <= 0) return undefined;
    const unavailablePods = scaled(unavailable, replicas, false);
    return {
      strategy:
        `${strategy.type ? 'strategy RollingUpdate' : 'the default RollingUpdate strategy'} (at ${replicas} replica${replicas === 1 ? '' : 's'}: ` +
        `maxSurge ${show(rawSurge, '25%')} → ${pods(surgePods)} extra, maxUnavailable ${show(rawUnavailable, '25%')} → ${pods(unavailablePods)} unavailable)`,
      waitsForReady: unavailablePods === 0,
      path: rawSurge !== undefined ? ['spec', 'strategy', 'rollingUpdate', 'maxSurge'] : ['spec', 'strategy', 'type'],
    };
  }
  // Argo Rollout: no Recreate; blueGreen always runs both ReplicaSets, canary unless maxSurge is 0.
  if (strategy.blueGreen && typeof strategy.blueGreen === 'object') {
    return { strategy: 'the blueGreen strategy, which runs the new ReplicaSet next to the old one', waitsForReady: true, path: ['spec', 'strategy', 'blueGreen'] };
  }
  if (strategy.canary && typeof strategy.canary === 'object') {
    const rawSurge = strategy.canary.maxSurge;
    const surge = parseIntOrPercent(rawSurge ?? '25%');
    if (!surge || scaled(surge, replicas, true) <= 0) return undefined;
    const unavailable = parseIntOrPercent(strategy.canary.maxUnavailable ?? '25%');
    const unavailablePods = unavailable ? scaled(unavailable, replicas, false) : 0;
    return {
      strategy: `the canary strategy (maxSurge ${show(rawSurge, '25%')})`,
      waitsForReady: unavailablePods === 0,
      path: rawSurge !== undefined ? ['spec', 'strategy', 'canary', 'maxSurge'] : ['spec', 'strategy', 'canary'],
    };
  }
  return undefined;
}

function consequence(storage: ClaimStorage, enforcement: Enforcement, waitsForReady: boolean): string {
  switch (enforcement) {
    case 'rwop':
      return 'with ReadWriteOncePod the new pod cannot be scheduled while the old one runs ("node has pod using ' +
        'PersistentVolumeClaim with the same name and ReadWriteOncePod access mode")' +
        (waitsForReady ? ', and the old pod is only removed once the new one is Ready: the rollout deadlocks' : '');
    case 'attach':
      return `if the new pod lands on another node the volume cannot attach there while the old pod holds it (Multi-Attach error; ${storage.attach.reason})` +
        (waitsForReady
          ? ', and the old pod is only removed once the new one is Ready: the rollout stalls until progressDeadlineSeconds'
          : ', so the new pod waits until the old one has stopped and the volume is detached');
    case 'none':
      return storage.accessModes.includes(ROX)
        ? 'its access modes include ReadOnlyMany, so Kubernetes lets both pods attach it on different nodes and both write it during the update'
        : `${storage.attach.reason}, so old and new pods on different nodes both write the volume during the update`;
    case 'unknown':
      return `${storage.attach.reason}: either the new pod cannot attach the volume on another node (Multi-Attach error) or old and new pods write it at the same time`;
  }
}

interface Entry {
  storage: ClaimStorage;
  enforcement: Enforcement;
}

function writtenSingleNodeClaims(model: StorageModel, template: PodTemplate): Entry[] {
  const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
  const entries: Entry[] = [];
  const seen = new Set<string>();
  for (const volume of template.volumes) {
    if (volume.claimName === undefined || seen.has(volume.claimName)) continue;
    const writes = !volume.readOnly && template.uses.some((use) => use.volumeName === volume.name && !use.readOnly);
    if (!writes) continue;
    // A claim not in the repo has unknown access modes; when it is written several times, take the closest definition.
    const pvc = model.closestClaimDefinition(namespace, volume.claimName, template.workload);
    if (!pvc) continue;
    seen.add(volume.claimName);
    const storage = model.claimStorage(pvc);
    const enforcement = singleNodeEnforcement(storage);
    if (!enforcement) continue;
    // Old and new pods sharing one node may share a ReadWriteOnce volume; ReadWriteOncePod allows one pod anyway.
    if (enforcement !== 'rwop' && (storage.nodePin || model.selfCoLocated(template))) continue;
    entries.push({ storage, enforcement });
  }
  return entries;
}

export default defineRule({
  id: 'rwo-update-overlap',
  meta: {
    catalogueId: 'R18',
    severity: 'warning',
    severities: ['error', 'note'],
    kinds: ['Deployment', 'Rollout', 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'CSIDriver'],
    summary: 'An update strategy starts new pods before the old ones stop while they write a ReadWriteOnce(Pod) claim.',
    why:
      'A Deployment\'s default RollingUpdate (maxSurge 25%, rounded up; maxUnavailable 25%, rounded down: with one replica ' +
      'one extra pod and none unavailable) creates the new pod first and removes the old one only when the new one is ' +
      'Ready. If the new pod lands on another node, an attachable ReadWriteOnce volume cannot attach there while the old ' +
      'pod holds it (Multi-Attach), so the rollout stalls until progressDeadlineSeconds. With ReadWriteOncePod the new ' +
      'pod is never schedulable while the old one runs: a deterministic deadlock. Argo Rollouts has no Recreate: ' +
      'blueGreen always overlaps, canary unless maxSurge is 0. Without an attach step (NFS, EFS) both pods write the ' +
      'volume at once.',
    trigger:
      'A Deployment with `strategy.type` absent or RollingUpdate whose effective maxSurge is above 0 (percentages of ' +
      '`replicas`, rounded up; default 25%), or an Argo Rollout with `strategy.blueGreen`, or `strategy.canary` whose ' +
      'maxSurge (default 25%) is not 0, whose pod template writes (a mount without readOnly) a PVC in the repo with ' +
      'effective access modes ReadWriteOncePod, or ReadWriteOnce without ReadWriteMany. Error for ReadWriteOncePod, ' +
      'warning for an attachable ReadWriteOnce volume, note when the driver has no attach step or is unknown.',
    exceptions:
      '`strategy.type: Recreate` and `maxSurge: 0` (or "0%", or a percentage that rounds to 0) are fine. Silent for ' +
      'ReadWriteOnce when old and new pods must share a node anyway (the template is pinned to one node or requires ' +
      'podAffinity on kubernetes.io/hostname to its own pods, or the volume is node-local). Claims not in the repo ' +
      '(access modes unknown), read-only mounts, StatefulSet volumeClaimTemplates and generic ephemeral volumes are ' +
      'never reported; Rollouts that reference a Deployment through `workloadRef` are not read.',
    fix:
      'Use `strategy: {type: Recreate}`, or `rollingUpdate: {maxSurge: 0, maxUnavailable: 1}`; for Argo Rollouts use ' +
      '`canary: {maxSurge: 0, maxUnavailable: 1}` or a Deployment. Or move the data to a ReadWriteMany class.',
    reportsAt: '`spec.strategy.rollingUpdate.maxSurge` when set, else `spec.strategy.type` (or the closest existing parent); for Rollouts the canary `maxSurge` or the `blueGreen` key.',
    references: [
      { title: 'Kubernetes docs: Deployments, "Max Surge" and "Max Unavailable"', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#max-surge' },
      { title: 'Kubernetes API: Deployment (RollingUpdateDeployment rounding)', url: 'https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/deployment-v1/' },
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'KEP-2485: ReadWriteOncePod PersistentVolume access mode', url: 'https://github.com/kubernetes/enhancements/blob/master/keps/sig-storage/2485-read-write-once-pod-pv-access-mode/README.md' },
      { title: 'argo-rollouts issue #1310: Support recreate strategy type', url: 'https://github.com/argoproj/argo-rollouts/issues/1310' },
    ],
    messages: {
      overlap: (d: { kind: string; workload: string; strategy: string; claims: string; consequence: string }) =>
        `${d.kind} "${d.workload}" uses ${d.strategy}, so a new pod starts while the old one still mounts ${d.claims}; ${d.consequence}.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: grafana}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: grafana}
spec:
  replicas: 1
  selector: {matchLabels: {app: grafana}}
  template:
    metadata: {labels: {app: grafana}}
    spec:
      containers: [{name: grafana, image: grafana/grafana, volumeMounts: [{name: data, mountPath: /var/lib/grafana}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: grafana}}]
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: grafana}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: grafana}
spec:
  replicas: 1
  strategy: {type: Recreate}
  selector: {matchLabels: {app: grafana}}
  template:
    metadata: {labels: {app: grafana}}
    spec:
      containers: [{name: grafana, image: grafana/grafana, volumeMounts: [{name: data, mountPath: /var/lib/grafana}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: grafana}}]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (template.kind !== 'Deployment' && template.kind !== 'Rollout') continue;
      const count = model.podCount(template);
      if (count.kind === 'count' && count.count <= 0 && !count.autoscaler) continue;
      const overlap = overlapOf(template, count);
      if (!overlap) continue;
      const entries = writtenSingleNodeClaims(model, template);
      if (entries.length === 0) continue;
      const worst = entries.reduce((a, b) => (RANK[b.enforcement] > RANK[a.enforcement] ? b : a));
      const product = databaseProductOf(template);
      report({
        resource: template.workload,
        path: overlap.path,
        messageId: 'overlap',
        severity: SEVERITY[worst.enforcement],
        fix: template.kind === 'Rollout'
          ? 'Use `canary: {maxSurge: 0, maxUnavailable: 1}` or a Deployment with `strategy: {type: Recreate}`' + (product ? ` (${product} must not have two processes on one data directory).` : '; or move the data to a ReadWriteMany class.')
          : 'Use `strategy: {type: Recreate}`, or `rollingUpdate: {maxSurge: 0, maxUnavailable: 1}`' + (product ? ` (${product} must not have two processes on one data directory).` : '; or move the data to a ReadWriteMany class.'),
        data: {
          kind: template.kind,
          workload: template.workload.name,
          strategy: overlap.strategy,
          claims: [...new Map(entries.map((e) => [e.storage.pvc.name, e])).values()]
            .map((e) => `${e.enforcement === 'rwop' ? 'ReadWriteOncePod' : 'ReadWriteOnce'} PersistentVolumeClaim "${e.storage.pvc.name}"` +
              (e.storage.driver.name !== undefined ? ` (${describeDriver(e.storage)})` : ''))
            .join(', '),
          consequence: consequence(worst.storage, worst.enforcement, overlap.waitsForReady),
        },
        related: entries.map((e) => ({
          resource: e.storage.pvc,
          path: ['spec', 'accessModes'] as JsonPath,
          message: `PersistentVolumeClaim "${e.storage.pvc.name}" (${e.storage.accessModes.join(', ')})`,
        })),
      });
    }
  },
});
