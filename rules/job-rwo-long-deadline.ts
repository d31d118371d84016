// A Job or CronJob mounts a ReadWriteOnce claim that another workload also uses, with no activeDeadlineSeconds or a
// long one: a stuck run keeps the volume attached to its node (or, for ReadWriteOncePod, owns it) that long.
import { defineRule } from '../src/define-rule.js';
import { describeDriver, nearestDefinitions, singleNodeEnforcement, singleNodeMode, type Enforcement } from '../src/model/claims.js';
import { volumeNamed } from '../src/model/mounts.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import { type ResolvedClaim } from '../src/model/volume-claims.js';
import type { JsonPath, Severity } from '../src/types.js';

interface Options {
  maxDeadlineSeconds: number;
}

const DEFAULTS: Options = { maxDeadlineSeconds: 3600 };

/** Where the Job spec lives in the resource. */
const jobSpecPath = (template: PodTemplate): JsonPath => (template.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec'] : ['spec']);

function seconds(value: number): string {
  if (value % 86400 === 0) return `${value} s (${value / 86400} day${value === 86400 ? '' : 's'})`;
  if (value % 3600 === 0) return `${value} s (${value / 3600} hour${value === 3600 ? '' : 's'})`;
  return `${value} s`;
}

/** The enforcements that make a second pod wait (`none` lets it run). */
type Blocking = Exclude<Enforcement, 'none'>;
const SEVERITY: Record<Blocking, Severity> = { rwop: 'warning', attach: 'warning', unknown: 'note' };
const HOLD: Record<Blocking, string> = {
  rwop: 'while it runs, no other pod can use the ReadWriteOncePod claim',
  attach: 'while it runs, the volume stays attached to its node, so pods of the other workload that are (re)scheduled to another node cannot attach it (Multi-Attach error)',
  unknown: 'while it runs, the volume may stay attached to its node, and pods of the other workload on another node then cannot attach it',
};

export default defineRule<
  {
    noDeadline: (d: { kind: string; job: string; mode: string; claim: string; driver: string; otherKind: string; other: string; hold: string; max: number }) => string;
    longDeadline: (d: { kind: string; job: string; deadline: string; mode: string; claim: string; driver: string; otherKind: string; other: string; hold: string; max: number }) => string;
  },
  Options
>({
  id: 'job-rwo-long-deadline',
  meta: {
    severity: 'warning',
    severities: ['note'],
    kinds: ['Job', 'CronJob', 'PersistentVolumeClaim'],
    summary: 'A Job or CronJob mounts a ReadWriteOnce claim another workload also uses, with no activeDeadlineSeconds or a longer one than allowed.',
    why:
      'A Job pod that hangs — a backup waiting on a lock, a migration stuck on the network — keeps running until the Job\'s ' +
      '`activeDeadlineSeconds` ends it; without one it runs until someone deletes it. While it runs it holds its volumes: an ' +
      'attachable ReadWriteOnce volume stays attached to the Job\'s node, so the application that shares the claim cannot start ' +
      'a pod on any other node (Multi-Attach error) — after a node drain, a rollout or a reschedule it hangs in ' +
      'ContainerCreating for as long as the stuck Job lives. A ReadWriteOncePod claim is owned by the Job pod outright. In the ' +
      'incident this rule is modelled on, a nightly backup Job with `activeDeadlineSeconds: 86400` held the database volume for ' +
      'a day.',
    trigger:
      'A Job or CronJob whose pod template mounts a PersistentVolumeClaim in the repo whose effective access modes are ' +
      'ReadWriteOncePod, or ReadWriteOnce without ReadWriteMany on a volume that attaches to one node — read-only mounts included, ' +
      'since attach and the ReadWriteOncePod check ignore readOnly — or writes one of an unknown driver (note), when another ' +
      'workload in the repo mounts the same claim, and the Job spec has no ' +
      '`activeDeadlineSeconds` or one above `maxDeadlineSeconds` (default 3600). A pod-level `activeDeadlineSeconds` within the ' +
      'limit counts as a bound when the Job sets none.',
    exceptions:
      'Claims only the Job uses, claims that are not in the repo, ReadWriteMany claims, and drivers without an attach step (NFS, ' +
      'EFS: nothing is held across nodes) are not reported. Co-locating the Job with the ' +
      'application (required podAffinity) does not help: the application cannot move to another node while the Job holds the ' +
      'volume.',
    fix:
      'Set `activeDeadlineSeconds` on the Job spec (`spec.jobTemplate.spec` for a CronJob) to the longest a healthy run needs, ' +
      'at most `maxDeadlineSeconds`; with a CronJob also set `concurrencyPolicy: Forbid`. Better still, back up from a ' +
      'VolumeSnapshot instead of mounting the live claim.',
    reportsAt: 'The Job spec\'s `activeDeadlineSeconds` (or the Job spec, where it should be set); related: the other workload\'s use of the claim.',
    references: [
      { title: 'Kubernetes docs: Jobs, "Job termination and cleanup" (activeDeadlineSeconds)', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/job/#job-termination-and-cleanup' },
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'kubernetes attach/detach reconciler (Multi-Attach error)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/attachdetach/reconciler/reconciler.go' },
    ],
    messages: {
      noDeadline: (d) =>
        `${d.kind} "${d.job}" mounts ${d.mode} PersistentVolumeClaim "${d.claim}"${d.driver}, which ${d.otherKind} "${d.other}" also mounts, ` +
        `and sets no activeDeadlineSeconds on the Job: a stuck run holds the volume until someone deletes it — ${d.hold}. ` +
        `Bound the run to at most ${d.max} s.`,
      longDeadline: (d) =>
        `${d.kind} "${d.job}" mounts ${d.mode} PersistentVolumeClaim "${d.claim}"${d.driver}, which ${d.otherKind} "${d.other}" also mounts, ` +
        `with activeDeadlineSeconds ${d.deadline}, above the limit of ${d.max} s: a stuck run holds the volume that long — ${d.hold}.`,
    },
    options: {
      schema: {
        type: 'object',
        properties: {
          maxDeadlineSeconds: { type: 'integer', minimum: 1, description: 'The longest activeDeadlineSeconds accepted for a Job that mounts a shared ReadWriteOnce claim.' },
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
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-data}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: registry.example.com/db:3, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: db-backup}
spec:
  activeDeadlineSeconds: 86400
  template:
    spec:
      restartPolicy: Never
      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: db}}}
      containers: [{name: backup, image: registry.example.com/backup:1, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-data}
spec:
  storageClassName: gp3
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: registry.example.com/db:3, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: db-backup}
spec:
  activeDeadlineSeconds: 1800
  template:
    spec:
      restartPolicy: Never
      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: db}}}
      containers: [{name: backup, image: registry.example.com/backup:1, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
`,
      ],
    },
  },
  check({ model, options, report }) {
    const max = typeof options.maxDeadlineSeconds === 'number' && options.maxDeadlineSeconds > 0 ? options.maxDeadlineSeconds : DEFAULTS.maxDeadlineSeconds;
    for (const template of model.templates) {
      if (template.kind !== 'Job' && template.kind !== 'CronJob') continue;
      const specPath = jobSpecPath(template);
      const jobSpec: any = specPath.reduce((o: any, k) => (o == null ? undefined : o[k as any]), template.workload.object);
      const jobDeadline = jobSpec?.activeDeadlineSeconds;
      const podDeadline = template.spec?.activeDeadlineSeconds;
      let deadline: { value: number; path: JsonPath } | undefined;
      if (typeof jobDeadline === 'number') deadline = { value: jobDeadline, path: [...specPath, 'activeDeadlineSeconds'] };
      else if (typeof podDeadline === 'number' && podDeadline <= max) continue;
      else if (jobDeadline != null) continue; // not a number: the API rejects it, another rule's business
      if (deadline && deadline.value <= max) continue;

      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      const done = new Set<string>();
      for (const volume of template.volumes) {
        if (volume.claimName === undefined || done.has(volume.claimName)) continue;
        const uses = template.uses.filter((use) => use.volumeName === volume.name);
        if (uses.length === 0) continue;
        const writes = !volume.readOnly && uses.some((use) => !use.readOnly);
        const ref = volumeNamed(template, volume.name);
        const claim: ResolvedClaim | 'external' | undefined = ref ? model.claimOfVolume(template, ref) : undefined;
        if (!claim || claim === 'external' || claim.origin !== 'pvc') continue;
        const enforcement = singleNodeEnforcement(claim.storage);
        if (enforcement !== 'rwop' && enforcement !== 'attach' && enforcement !== 'unknown') continue;
        // Attach and the ReadWriteOncePod check ignore readOnly: a read-only mount holds the volume just the same.
        if (enforcement === 'unknown' && !writes) continue;
        // Another workload: a second definition of this same Job (a base and its copy side by side) is not one, and of
        // the others the one written nearest this Job is named.
        const self = template.workload;
        const others = model.usesOfClaim(namespace, volume.claimName).filter((use) => {
          const w = use.template.workload;
          return w !== self && !(w.kind === self.kind && w.name === self.name && model.namespaceOf(w) === model.namespaceOf(self));
        });
        if (others.length === 0) continue;
        const nearest = nearestDefinitions(others.map((use) => use.template.workload), self)[0];
        const other = others.find((use) => use.template.workload === nearest)!;
        done.add(volume.claimName);
        const storage = claim.storage;
        const common = {
          kind: template.kind, job: template.workload.name,
          mode: singleNodeMode(storage),
          claim: claim.name, driver: storage.driver.name !== undefined ? ` (${describeDriver(storage)})` : '',
          otherKind: other.template.kind, other: other.template.workload.name, hold: HOLD[enforcement], max,
        };
        const related = [
          { resource: other.template.workload, path: [...other.volume.path, 'persistentVolumeClaim', 'claimName'] as JsonPath, message: `${other.template.kind} "${other.template.workload.name}" mounts the claim too` },
          { resource: claim.owner, path: ['spec', 'accessModes'] as JsonPath, message: `PersistentVolumeClaim "${claim.name}" (${storage.accessModes.join(', ')})` },
        ];
        if (deadline) {
          report({
            resource: template.workload, path: deadline.path, messageId: 'longDeadline', severity: SEVERITY[enforcement],
            data: { ...common, deadline: seconds(deadline.value) }, related,
          });
        } else {
          report({
            resource: template.workload, path: [...specPath, 'activeDeadlineSeconds'], messageId: 'noDeadline', severity: SEVERITY[enforcement],
            data: common, related,
          });
        }
      }
    }
  },
});
