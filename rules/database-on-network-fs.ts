// R28: a database keeps its data on a network file system (NFS family, SMB, CephFS); `soft` mounts make it worse.
import { defineRule } from '../src/define-rule.js';
import { networkFileSystem, networkFileSystemOfClass, networkFileSystemOfVolume, softMountOption, type NetworkFs } from '../src/model/csi-drivers.js';
import { databaseContainer } from '../src/model/databases.js';
import { coveringMount, podContainers } from '../src/model/mounts.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';
import { ownEntry } from '../src/engine/own-entry.js';

const KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod']);
const INLINE_FS: Record<string, string> = { nfs: 'NFS', cephfs: 'CephFS', glusterfs: 'GlusterFS', azureFile: 'Azure Files (SMB)' };

export default defineRule({
  id: 'database-on-network-fs',
  meta: {
    catalogueId: 'R28',
    severity: 'warning',
    severities: ['error', 'note'],
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod', 'PersistentVolume', 'StorageClass'],
    summary: 'A database keeps its data directory on a network file system (NFS, EFS, Filestore, Azure Files, CephFS, SMB); with a `soft` mount, I/O errors corrupt it.',
    why:
      'Databases rely on fsync, byte-range locks and rename semantics that network file systems provide only partly and with ' +
      'much higher latency. PostgreSQL "does nothing special for NFS" and its only firm requirement is a `hard` mount: "a `soft` ' +
      'mount … will result in an I/O error being reported" when the server is slow, which the database sees as a failed write. ' +
      'MongoDB\'s production notes say to avoid NFS for dbPath. Block storage (a ReadWriteOnce disk) is what database images ' +
      'are tested on.',
    trigger:
      'A database server container (§8.1 image table, as in database-ephemeral-data) whose data directory is below a mount of an ' +
      'inline `nfs` / `cephfs` / `glusterfs` / `azureFile` volume, or of a claim whose bound PV or StorageClass driver is a network ' +
      'file system (efs.csi.aws.com, nfs.csi.k8s.io, in-tree nfs, filestore.csi.storage.gke.io, file.csi.azure.com, ' +
      'cephfs.csi.ceph.com, smb.csi.k8s.io; Longhorn ReadWriteMany; Portworx `sharedv4`): warning (note for advisory paths and ' +
      'caches). Error when that PV\'s or StorageClass\'s `mountOptions` contain `soft`. Separately, `soft` in the mountOptions of ' +
      'any network-file-system PV or StorageClass: note.',
    exceptions:
      'Claims that are not in the repo, or whose driver pvlint does not know, are not guessed at; Redis/Valkey without ' +
      'persistence and containers that do not run the server are skipped.',
    fix:
      'Put database data on block storage (a ReadWriteOnce claim of a disk class, one per replica through volumeClaimTemplates). ' +
      'If a network file system is unavoidable, mount it `hard` with NFSv4.1 or later, and never `soft`.',
    reportsAt: 'The volume (or claim reference) that holds the data directory; `soft` in `mountOptions` for the mount-option findings.',
    references: [
      { title: 'PostgreSQL docs: Creating a Database Cluster, "File Systems" / NFS', url: 'https://www.postgresql.org/docs/current/creating-cluster.html#CREATING-CLUSTER-NFS' },
      { title: 'MongoDB production notes (avoid NFS for dbPath)', url: 'https://www.mongodb.com/docs/manual/administration/production-notes/' },
      { title: 'Kubernetes docs: Persistent Volumes, "Mount Options"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#mount-options' },
    ],
    messages: {
      onNetworkFs: (d: { kind: string; workload: string; container: string; product: string; path: string; fs: string; volume: string }) =>
        `${d.kind} "${d.workload}": ${d.container} keeps its ${d.product} data directory ${d.path} on ${d.fs} (volume "${d.volume}"): ` +
        'network file systems give weaker fsync and locking guarantees and far higher latency than block storage; databases risk corruption and stalls there.',
      softMount: (d: { kind: string; workload: string; container: string; product: string; path: string; fs: string; owner: string; option: string }) =>
        `${d.kind} "${d.workload}": ${d.container} keeps its ${d.product} data directory ${d.path} on ${d.fs}, and ${d.owner} mounts it ` +
        `with "${d.option}": a soft mount turns a slow server into I/O errors on database writes, which corrupts data.`,
      softOption: (d: { owner: string; fs: string; option: string }) =>
        `${d.owner} mounts ${d.fs} with "${d.option}": a soft mount returns I/O errors to applications when the server is slow or ` +
        'unreachable, so writes can be lost silently; use hard.',
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: mysql
          image: mysql:8.4
          volumeMounts: [{name: data, mountPath: /var/lib/mysql}]
      volumes:
        - name: data
          nfs: {server: nas.example.com, path: /exports/mysql}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: mysql
          image: mysql:8.4
          volumeMounts: [{name: data, mountPath: /var/lib/mysql}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 50Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    const reportedOptions = new Set<Resource>();
    for (const template of model.templates) {
      if (!KINDS.has(template.kind)) continue;
      for (const container of podContainers(template, ['containers'])) {
        const db = databaseContainer(container);
        if (!db || db.data.kind !== 'known') continue;
        if (db.role === 'cache' && db.persistence !== 'on') continue;
        const advisory = db.db.confidence !== 'H';
        for (const data of db.data.paths) {
          const mount = coveringMount(template, container, data.path);
          const ref = mount?.volume;
          if (!mount || !ref) continue;
          let fs: NetworkFs | undefined;
          let path: JsonPath;
          if (ref.kind === 'network' && ref.volume) {
            fs = { name: ownEntry(INLINE_FS, ref.volume.source) ?? ref.volume.source, mountOptions: undefined };
            path = [...ref.volume.path, ref.volume.source];
          } else {
            const claim = model.claimOfVolume(template, ref);
            if (!claim || claim === 'external') continue;
            fs = networkFileSystem(claim.storage);
            path = ref.volume ? [...ref.volume.path, 'persistentVolumeClaim', 'claimName'] : [...claim.path, 'spec', 'storageClassName'];
          }
          if (!fs) continue;
          const label = containerLabel(mount.use);
          const base = { kind: template.kind, workload: template.workload.name, container: label, product: db.db.product, path: data.path, fs: fs.name };
          const soft = fs.mountOptions ? softMountOption(fs.mountOptions.options) : undefined;
          if (soft && fs.mountOptions) {
            const owner = fs.mountOptions.owner;
            reportedOptions.add(owner);
            report({
              resource: template.workload, path, messageId: 'softMount', severity: advisory ? 'warning' : 'error',
              data: { ...base, owner: `${owner.kind} "${owner.name}"`, option: soft.text },
              related: [{ resource: owner, path: owner.kind === 'StorageClass' ? ['mountOptions', soft.index] : ['spec', 'mountOptions', soft.index], message: `${owner.kind} "${owner.name}" mountOptions` }],
            });
          } else {
            const severity: Severity = advisory ? 'note' : 'warning';
            report({ resource: template.workload, path, messageId: 'onNetworkFs', severity, data: { ...base, volume: ref.name } });
          }
          break;
        }
      }
    }
    // `soft` on any network-file-system PV or StorageClass.
    for (const pv of model.ofKind('PersistentVolume')) {
      if (reportedOptions.has(pv)) continue;
      const options = pv.object?.spec?.mountOptions;
      if (!Array.isArray(options)) continue;
      const soft = softMountOption(options.map(String));
      if (!soft) continue;
      const fs = networkFileSystemOfVolume(pv);
      if (!fs) continue;
      report({ resource: pv, path: ['spec', 'mountOptions', soft.index], messageId: 'softOption', severity: 'note', data: { owner: `PersistentVolume "${pv.name}"`, fs: fs.name, option: soft.text } });
    }
    for (const sc of model.ofKind('StorageClass')) {
      if (reportedOptions.has(sc)) continue;
      const options = sc.object?.mountOptions;
      if (!Array.isArray(options)) continue;
      const soft = softMountOption(options.map(String));
      if (!soft) continue;
      const fs = networkFileSystemOfClass(sc);
      if (!fs) continue;
      report({ resource: sc, path: ['mountOptions', soft.index], messageId: 'softOption', severity: 'note', data: { owner: `StorageClass "${sc.name}"`, fs: fs.name, option: soft.text } });
    }
  },
});
