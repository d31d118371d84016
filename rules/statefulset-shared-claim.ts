// R20: a StatefulSet with several replicas mounts one claim from its pod template instead of volumeClaimTemplates.
import { defineRule } from '../src/define-rule.js';
import { describeDriver, singleNodeEnforcement, singleNodeMode, type Enforcement } from '../src/model/claims.js';
import { volumeNamed } from '../src/model/mounts.js';
import type { JsonPath, Severity } from '../src/types.js';

const SEVERITY: Record<Enforcement, Severity> = { rwop: 'error', attach: 'error', none: 'warning', unknown: 'warning' };
const CONSEQUENCE: Record<Enforcement, string> = {
  rwop: 'ReadWriteOncePod admits one pod, so every other replica stays Pending',
  attach: 'replicas scheduled to other nodes cannot attach the volume (Multi-Attach error) and hang in ContainerCreating, and the replicas that do start write the same files',
  none: 'nothing enforces ReadWriteOnce for this driver, so all replicas write the same files at once',
  unknown: 'replicas on other nodes either cannot attach the volume (Multi-Attach error) or all replicas write the same files at once',
};

export default defineRule({
  id: 'statefulset-shared-claim',
  meta: {
    catalogueId: 'R20',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['StatefulSet', 'PersistentVolumeClaim'],
    summary: 'A StatefulSet with more than one replica mounts a single claim from its pod template instead of giving each replica its own through volumeClaimTemplates.',
    why:
      'A `persistentVolumeClaim` volume in `spec.template.spec.volumes` is the same claim in every replica: the StatefulSet ' +
      'creates per-replica claims only from `volumeClaimTemplates`. With a ReadWriteOnce claim on an attachable volume the ' +
      'replicas scheduled to other nodes hang in ContainerCreating (Multi-Attach error); a ReadWriteOncePod claim admits one ' +
      'pod; and where nothing enforces single-node access (NFS, EFS) every replica writes the same data directory, which ' +
      'databases and most stateful applications do not survive.',
    trigger:
      'A StatefulSet whose `replicas` (or an HPA\'s `maxReplicas`) is more than 1 and whose pod template mounts without ' +
      '`readOnly` a `persistentVolumeClaim` that is not shadowed by a claim template of the same name, when the claim in the repo ' +
      'has effective access modes ReadWriteOncePod, or ReadWriteOnce without ReadWriteMany: error when the volume attaches to ' +
      'one node (or for ReadWriteOncePod), warning otherwise. A claim that is not in the repo gives a note (its access modes are ' +
      'unknown).',
    exceptions:
      'ReadWriteMany claims (a deliberately shared file system), ReadOnlyMany claims, read-only mounts, StatefulSets with one ' +
      'replica, and volumes named like a claim template (the controller replaces them with the per-replica claim) are not ' +
      'reported. Replicas held on one node (`nodeName`, a `kubernetes.io/hostname` nodeSelector or node affinity, or required ' +
      'podAffinity to each other on the hostname) can all mount a ReadWriteOnce claim: silent, unless a database keeps its data ' +
      'directory on the claim (then a warning: the replicas write one data directory). rwo-claim-multi-node leaves multi-replica StatefulSets to this rule, which points at the claim reference ' +
      'to move into volumeClaimTemplates; it still reports a StatefulSet that shares a claim with another workload.',
    fix:
      'Move the claim into `spec.volumeClaimTemplates` (one claim per replica, named `<template>-<statefulset>-<ordinal>`) and ' +
      'mount the template by name; keep a pod-template claim only for data the replicas really share, on a ReadWriteMany class.',
    reportsAt: 'The `claimName` of the pod-template volume; related: the claim and `spec.replicas`.',
    references: [
      { title: 'Kubernetes docs: StatefulSets, "Stable Storage"', url: 'https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#stable-storage' },
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'kubernetes pkg/volume/util/util.go (IsMultiAttachAllowed)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/util/util.go' },
    ],
    messages: {
      shared: (d: { statefulSet: string; pods: string; mode: string; claim: string; driver: string; consequence: string }) =>
        `StatefulSet "${d.statefulSet}" runs ${d.pods} that all mount the one ${d.mode} PersistentVolumeClaim "${d.claim}"${d.driver} ` +
        `from its pod template: ${d.consequence}. Per-replica storage belongs in volumeClaimTemplates.`,
      sharedOnOneNode: (d: { statefulSet: string; pods: string; claim: string; product: string }) =>
        `StatefulSet "${d.statefulSet}" runs ${d.pods} on one node that all mount PersistentVolumeClaim "${d.claim}" from its pod template ` +
        `and keep their ${d.product} data directory on it: every replica opens the same data files, which ${d.product} does not survive ` +
        '(the later replicas fail on the data directory lock or corrupt it). Per-replica storage belongs in volumeClaimTemplates.',
      sharedExternal: (d: { statefulSet: string; pods: string; claim: string }) =>
        `StatefulSet "${d.statefulSet}" runs ${d.pods} that all mount the one PersistentVolumeClaim "${d.claim}" from its pod template; ` +
        'the claim is not in the repo, so its access modes are unknown: unless it is ReadWriteMany, replicas on other nodes cannot ' +
        'attach it or all replicas write the same files. Per-replica storage belongs in volumeClaimTemplates.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: queue}
spec:
  replicas: 3
  serviceName: queue
  selector: {matchLabels: {app: queue}}
  template:
    metadata: {labels: {app: queue}}
    spec:
      containers: [{name: queue, image: registry.example.com/queue:2, volumeMounts: [{name: data, mountPath: /var/lib/queue}]}]
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: data}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: queue}
spec:
  replicas: 3
  serviceName: queue
  selector: {matchLabels: {app: queue}}
  template:
    metadata: {labels: {app: queue}}
    spec:
      containers: [{name: queue, image: registry.example.com/queue:2, volumeMounts: [{name: data, mountPath: /var/lib/queue}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOncePod], resources: {requests: {storage: 10Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (template.kind !== 'StatefulSet') continue;
      const sts = template.workload;
      const count = model.podCount(template);
      const hpa = count.autoscaler;
      const replicasPath = count.countPath;
      let pods: string | undefined;
      if (count.kind === 'autoscaled') pods = `up to ${count.max} replicas (HorizontalPodAutoscaler "${count.hpa.name}")`;
      else if (count.kind === 'count' && count.count > 1) pods = `${count.count} replicas`;
      if (!pods) continue;
      const done = new Set<string>();
      for (const volume of template.volumes) {
        if (volume.claimName === undefined || done.has(volume.claimName)) continue;
        const ref = volumeNamed(template, volume.name);
        if (!ref || ref.kind !== 'claim') continue; // shadowed by a claim template
        const writes = !volume.readOnly && template.uses.some((use) => use.volumeName === volume.name && !use.readOnly);
        if (!writes) continue;
        done.add(volume.claimName);
        const claimNamePath: JsonPath = [...volume.path, 'persistentVolumeClaim', 'claimName'];
        const claim = model.claimOfVolume(template, ref);
        if (claim === 'external') {
          report({
            resource: sts, path: claimNamePath, messageId: 'sharedExternal', severity: 'note',
            data: { statefulSet: sts.name, pods, claim: volume.claimName },
            related: [{ resource: hpa?.hpa ?? sts, path: hpa ? ['spec', 'maxReplicas'] : replicasPath, message: pods }],
          });
          continue;
        }
        if (!claim) continue;
        const enforcement = singleNodeEnforcement(claim.storage);
        if (!enforcement) continue;
        const storage = claim.storage;
        // Replicas pinned to one node all mount a ReadWriteOnce volume (one node may attach it): sharing is deliberate,
        // and only a database's data directory on it makes the sharing break.
        if (enforcement !== 'rwop' && model.selfCoLocated(template)) {
          const db = model.databaseVolumes(template).get(volume.name);
          if (!db) continue;
          report({
            resource: sts, path: claimNamePath, messageId: 'sharedOnOneNode', severity: 'warning',
            data: { statefulSet: sts.name, pods, claim: claim.name, product: db.product },
            related: [{ resource: hpa?.hpa ?? sts, path: hpa ? ['spec', 'maxReplicas'] : replicasPath, message: pods }],
          });
          continue;
        }
        report({
          resource: sts, path: claimNamePath, messageId: 'shared', severity: SEVERITY[enforcement],
          data: {
            statefulSet: sts.name, pods,
            mode: singleNodeMode(storage),
            claim: claim.name, driver: storage.driver.name !== undefined ? ` (${describeDriver(storage)})` : '',
            consequence: CONSEQUENCE[enforcement],
          },
          related: [
            { resource: claim.owner, path: [...claim.path, 'spec', 'accessModes'], message: `PersistentVolumeClaim "${claim.name}" (${storage.accessModes.join(', ')})` },
            { resource: hpa?.hpa ?? sts, path: hpa ? ['spec', 'maxReplicas'] : replicasPath, message: pods },
          ],
        });
      }
    }
  },
});
