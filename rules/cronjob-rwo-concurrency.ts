// R19: a CronJob whose runs may overlap (concurrencyPolicy Allow) writes a ReadWriteOnce(Pod) claim.
import { defineRule } from '../src/define-rule.js';
import { describeDriver, singleNodeEnforcement, singleNodeMode, type Enforcement } from '../src/model/claims.js';
import { volumeNamed } from '../src/model/mounts.js';
import type { JsonPath } from '../src/types.js';


const CONSEQUENCE: Record<Enforcement, string> = {
  rwop: 'ReadWriteOncePod admits one pod, so an overlapping run stays Pending until the earlier one ends',
  attach: 'an overlapping run scheduled to another node cannot attach the volume (Multi-Attach error) and hangs in ContainerCreating; on the same node both runs write the same files',
  none: 'nothing enforces ReadWriteOnce for this driver, so overlapping runs write the same files at the same time',
  unknown: 'an overlapping run either cannot attach the volume on another node (Multi-Attach error) or writes the same files at the same time',
};

export default defineRule({
  id: 'cronjob-rwo-concurrency',
  meta: {
    catalogueId: 'R19',
    severity: 'warning',
    kinds: ['CronJob', 'PersistentVolumeClaim'],
    summary: 'A CronJob with concurrencyPolicy Allow (the default) writes a ReadWriteOnce or ReadWriteOncePod claim, so its runs may overlap on it.',
    why:
      'A CronJob starts a new Job on schedule even while the previous one is still running unless `concurrencyPolicy` is ' +
      '`Forbid` or `Replace`; the default is `Allow`. Two runs of a job that writes a ReadWriteOnce volume then compete for it: a ' +
      'run on another node cannot attach an attachable volume (Multi-Attach error, the pod hangs in ContainerCreating), a ' +
      'ReadWriteOncePod claim keeps the second run Pending, and runs on the same node — or on any node for drivers without an ' +
      'attach step (NFS, EFS) — write the same files at once.',
    trigger:
      'A CronJob whose `spec.concurrencyPolicy` is absent or `Allow` and whose job template mounts, without `readOnly`, a ' +
      'PersistentVolumeClaim in the repo whose effective access modes (the bound PV\'s when it is in the repo) are ReadWriteOncePod, ' +
      'or ReadWriteOnce without ReadWriteMany.',
    exceptions:
      'Claims that are not in the repo (access modes unknown), read-only mounts, ReadWriteMany claims and generic ephemeral ' +
      'volumes (one claim per pod) are not reported. A Job with `parallelism` > 1 on such a claim is the rwo-claim-multi-node ' +
      'rule\'s finding, and so is a CronJob sharing the claim with another workload.',
    fix:
      'Set `concurrencyPolicy: Forbid` (skip a run while the previous one is active) or `Replace`, and bound each run with ' +
      '`activeDeadlineSeconds` in the job template so a stuck run does not block the schedule.',
    reportsAt: 'The CronJob\'s `spec.concurrencyPolicy` (or `spec`, where it should be set); related: the claim.',
    references: [
      { title: 'Kubernetes docs: CronJob, "Concurrency policy"', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#concurrency-policy' },
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
    ],
    messages: {
      overlap: (d: { cronJob: string; policy: string; mode: string; claim: string; driver: string; consequence: string }) =>
        `CronJob "${d.cronJob}" has ${d.policy}, so a new run can start while the previous one still writes ${d.mode} ` +
        `PersistentVolumeClaim "${d.claim}"${d.driver}: ${d.consequence}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: reports}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report}
spec:
  schedule: "*/10 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: report
              image: registry.example.com/report:1.4
              volumeMounts: [{name: out, mountPath: /out}]
          volumes:
            - name: out
              persistentVolumeClaim: {claimName: reports}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: reports}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report}
spec:
  schedule: "*/10 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      activeDeadlineSeconds: 540
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: report
              image: registry.example.com/report:1.4
              volumeMounts: [{name: out, mountPath: /out}]
          volumes:
            - name: out
              persistentVolumeClaim: {claimName: reports}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (template.kind !== 'CronJob') continue;
      const cronJob = template.workload;
      const raw = cronJob.object?.spec?.concurrencyPolicy;
      if (raw != null && raw !== 'Allow') continue;
      const path: JsonPath = ['spec', 'concurrencyPolicy'];
      const seen = new Set<string>();
      for (const volume of template.volumes) {
        if (volume.claimName === undefined || seen.has(volume.claimName)) continue;
        const writes = !volume.readOnly && template.uses.some((use) => use.volumeName === volume.name && !use.readOnly);
        if (!writes) continue;
        const ref = volumeNamed(template, volume.name);
        if (!ref) continue;
        const claim = model.claimOfVolume(template, ref);
        if (!claim || claim === 'external' || claim.origin !== 'pvc') continue;
        const enforcement = singleNodeEnforcement(claim.storage);
        if (!enforcement) continue;
        seen.add(volume.claimName);
        const storage = claim.storage;
        report({
          resource: cronJob,
          path,
          messageId: 'overlap',
          data: {
            cronJob: cronJob.name,
            policy: raw == null ? 'no concurrencyPolicy (Allow by default)' : 'concurrencyPolicy: Allow',
            mode: singleNodeMode(storage),
            claim: claim.name,
            driver: storage.driver.name !== undefined ? ` (${describeDriver(storage)})` : '',
            consequence: CONSEQUENCE[enforcement],
          },
          related: [{ resource: claim.owner, path: ['spec', 'accessModes'], message: `PersistentVolumeClaim "${claim.name}" (${storage.accessModes.join(', ')})` }],
        });
      }
    }
  },
});
