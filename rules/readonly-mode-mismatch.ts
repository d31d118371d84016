// R31: a ReadOnlyMany claim mounted writable, or a database data directory mounted read-only.
import { defineRule } from '../src/define-rule.js';
import { accessModesOf, ROX } from '../src/model/claims.js';
import { databaseContainer } from '../src/model/databases.js';
import { coveringMount, podContainers, volumeNamed } from '../src/model/mounts.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { type ResolvedClaim } from '../src/model/volume-claims.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath } from '../src/types.js';

const ORIGIN: Record<ResolvedClaim['origin'], string> = {
  pvc: 'PersistentVolumeClaim',
  'claim-template': 'claim template',
  ephemeral: 'generic ephemeral volume',
};

export default defineRule({
  id: 'readonly-mode-mismatch',
  meta: {
    catalogueId: 'R31',
    severity: 'warning',
    severities: ['error'],
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim'],
    summary: 'A ReadOnlyMany-only claim is mounted without readOnly, or a database\'s data directory is mounted read-only.',
    why:
      'Access modes are matching metadata, not write protection: "even if a PersistentVolume is created as ReadOnlyMany, it is no ' +
      'guarantee that it will be read-only" — a mount without `readOnly: true` is writable wherever the backend allows it, and ' +
      'several nodes then write a volume everyone assumed immutable. Some drivers require the read-only flag: GKE attaches a ' +
      'ReadOnlyMany persistent disk to several nodes only for read-only consumers. The reverse mistake — a database whose data ' +
      'directory is mounted `readOnly` — fails at start with "read-only file system".',
    trigger:
      'A pod template that uses a claim (PVC, claim template or generic ephemeral volume) whose `spec.accessModes` are exactly ' +
      '[ReadOnlyMany] through a mount without `readOnly: true` and a volume without `persistentVolumeClaim.readOnly: true` ' +
      '(warning); a database server container (§8.1) whose data directory lies below a read-only mount (error for verified paths, ' +
      'warning for advisory ones and when envFrom or a configuration file may move the directory).',
    exceptions:
      'Claims that also allow writing (ReadWriteOnce, ReadWriteMany next to ReadOnlyMany) and claims not in the repo are not ' +
      'reported; a ReadOnlyMany claim used as a raw device is reported at the volume, where `readOnly` can be set.',
    fix:
      'Set `readOnly: true` on every mount of a ReadOnlyMany claim (or `persistentVolumeClaim.readOnly: true` on the volume); mount ' +
      'database data read-write.',
    reportsAt: 'The volumeMount that lacks `readOnly` (or the volume\'s `persistentVolumeClaim`), or the `readOnly` flag of the database mount.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Access Modes" (access modes do not enforce write protection)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#access-modes' },
      { title: 'GKE: Using persistent disks with multiple readers (ReadOnlyMany)', url: 'https://cloud.google.com/kubernetes-engine/docs/how-to/persistent-volumes/readonlymany-disks' },
    ],
    messages: {
      writableRox: (d: { kind: string; workload: string; container: string; volume: string; origin: string; claim: string }) =>
        `${d.kind} "${d.workload}": ${d.container} uses volume "${d.volume}" without readOnly, but ${d.origin} "${d.claim}" is ` +
        'ReadOnlyMany only: the access mode does not make the mount read-only, so the container can write a volume other nodes share ' +
        'as read-only (and drivers such as GKE persistent disk refuse writable multi-node attachment).',
      readOnlyData: (d: { kind: string; workload: string; container: string; product: string; path: string; volume: string }) =>
        `${d.kind} "${d.workload}": ${d.container} runs ${d.product}, whose data directory ${d.path} is on read-only volume "${d.volume}": ` +
        'the database cannot write its files and fails at start ("read-only file system").',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: models}
spec:
  accessModes: [ReadOnlyMany]
  resources: {requests: {storage: 100Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: inference}
spec:
  replicas: 4
  selector: {matchLabels: {app: inference}}
  template:
    metadata: {labels: {app: inference}}
    spec:
      containers:
        - name: server
          image: registry.example.com/inference:2
          volumeMounts: [{name: models, mountPath: /models}]
      volumes: [{name: models, persistentVolumeClaim: {claimName: models}}]
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: models}
spec:
  accessModes: [ReadOnlyMany]
  resources: {requests: {storage: 100Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: inference}
spec:
  replicas: 4
  selector: {matchLabels: {app: inference}}
  template:
    metadata: {labels: {app: inference}}
    spec:
      containers:
        - name: server
          image: registry.example.com/inference:2
          volumeMounts: [{name: models, mountPath: /models, readOnly: true}]
      volumes: [{name: models, persistentVolumeClaim: {claimName: models}}]
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      const reported = new Set<string>();
      for (const use of template.uses) {
        const ref = volumeNamed(template, use.volumeName);
        if (!ref) continue;
        if (use.type === 'mount' && use.readOnly) continue;
        if (ref.volume?.readOnly) continue;
        const claim = model.claimOfVolume(template, ref);
        if (!claim || claim === 'external') continue;
        const modes = accessModesOf(claim.object) ?? [];
        if (modes.length !== 1 || modes[0] !== ROX) continue;
        const key = use.type === 'device' ? `device:${use.volumeName}` : use.path.join('/');
        if (reported.has(key)) continue;
        reported.add(key);
        const path: JsonPath = use.type === 'device' && ref.volume ? [...ref.volume.path, 'persistentVolumeClaim', 'readOnly'] : [...use.path, 'readOnly'];
        report({
          resource: template.workload, path, messageId: 'writableRox',
          data: { kind: template.kind, workload: template.workload.name, container: containerLabel(use), volume: use.volumeName, origin: ORIGIN[claim.origin], claim: claim.name },
          related: [{ resource: claim.owner, path: [...claim.path, 'spec', 'accessModes'], message: `${ORIGIN[claim.origin]} "${claim.name}" (ReadOnlyMany)` }],
        });
      }
      for (const container of podContainers(template, ['containers'])) {
        const db = databaseContainer(container);
        if (!db || db.data.kind !== 'known') continue;
        if (db.role === 'cache' && db.persistence !== 'on') continue;
        for (const data of db.data.paths) {
          const mount = coveringMount(template, container, data.path);
          if (!mount || !mount.readOnly) continue;
          const path: JsonPath = mount.use.readOnly || !mount.volume?.volume
            ? [...mount.use.path, 'readOnly']
            : [...mount.volume.volume.path, 'persistentVolumeClaim', 'readOnly'];
          report({
            resource: template.workload, path, messageId: 'readOnlyData', severity: db.db.confidence === 'H' && !db.data.uncertain ? 'error' : 'warning',
            data: { kind: template.kind, workload: template.workload.name, container: containerLabel(mount.use), product: db.db.product, path: data.path, volume: mount.use.volumeName },
          });
          break;
        }
      }
    }
  },
});
