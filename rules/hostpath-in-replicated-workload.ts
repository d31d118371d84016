// R25: a workload that can run on any node writes its data to a hostPath directory (or a hostPath PV).
import { defineRule } from '../src/define-rule.js';
import { nearestDefinitions } from '../src/model/claims.js';
import { databaseContainer } from '../src/model/databases.js';
import { coveringMount, isWithin, podContainers, usesOfContainer } from '../src/model/mounts.js';
import { nodePinOf } from '../src/model/placement.js';
import { getPath, type PodTemplate, type PodVolume } from '../src/model/pod-templates.js';
import { containerLabel } from '../src/model/wiring.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

const KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Job', 'CronJob', 'Pod']);

/** Node directories that node agents read and write; not application data. */
const SYSTEM_PATHS = [
  '/proc', '/sys', '/dev', '/run', '/var/run', '/var/log', '/etc', '/lib/modules', '/usr', '/boot', '/opt/cni', '/lib',
  '/var/lib/kubelet', '/var/lib/docker', '/var/lib/containerd', '/var/lib/cni', '/var/lib/calico', '/var/lib/rancher',
  '/var/lib/dbus', '/var/lib/etcd', '/var/log/pods', '/tmp/.X11-unix',
];
const NON_DATA_TYPES = new Set(['Socket', 'CharDevice', 'BlockDevice']);

function systemPath(path: string): boolean {
  return path === '/' || SYSTEM_PATHS.some((system) => isWithin(path, system)) || /\.sock$/.test(path);
}

interface DbHit {
  container: string;
  product: string;
  path: string;
}

/** A database container whose data path lies on this volume. */
function databaseOn(template: PodTemplate, volume: PodVolume): DbHit | undefined {
  for (const container of podContainers(template, ['containers'])) {
    const db = databaseContainer(container);
    if (!db || db.data.kind !== 'known' || db.data.uncertain || db.db.confidence !== 'H') continue;
    for (const data of db.data.paths) {
      const mount = coveringMount(template, container, data.path);
      if (mount && mount.use.volumeName === volume.name && !mount.readOnly) {
        return { container: containerLabel(mount.use), product: db.db.product, path: data.path };
      }
    }
  }
  return undefined;
}

/**
 * The PV a claim without volumeName or claimRef will bind when it can only bind pre-created volumes — class "", or a
 * class no StorageClass in the repo defines but PVs carry (the docs' "manual") — and every PV in the repo that fits it
 * is a hostPath directory without node affinity: then whichever one the controller picks, the data is node-local.
 */
function staticHostPathVolume(model: StorageModel, pvc: Resource, volumes: readonly Resource[]): Resource | undefined {
  const own = model.classOfClaim(pvc.object);
  if (!own.set) return undefined;
  if (own.name !== '') {
    if (model.storageClassFor(own.name, pvc).status === 'found') return undefined;
    if (!volumes.some((pv) => model.classOfVolume(pv.object) === own.name)) return undefined;
  }
  const fitting = volumes.filter((pv) => model.matchVolumeToClaim(pvc, pv).mismatches.length === 0);
  if (fitting.length === 0) return undefined;
  const nodeLocal = (pv: Resource) => typeof pv.object?.spec?.hostPath?.path === 'string' && pv.object?.spec?.nodeAffinity?.required == null;
  return fitting.every(nodeLocal) ? nearestDefinitions(fitting, pvc)[0] : undefined;
}

export default defineRule({
  id: 'hostpath-in-replicated-workload',
  meta: {
    catalogueId: 'R25',
    severity: 'warning',
    severities: ['error'],
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Job', 'CronJob', 'Pod', 'PersistentVolume'],
    summary: 'A workload that may run on any node writes to a hostPath volume (or a hostPath PersistentVolume): its data stays behind on whichever node it last ran.',
    why:
      'A `hostPath` volume is a directory of the node the pod happens to run on. Replicas on different nodes see different data, ' +
      'and a pod rescheduled after a drain, an eviction or a node replacement starts on another node with an empty directory: ' +
      'the data is not lost, just unreachable, and writes diverge. A PersistentVolume of type hostPath behaves the same and is ' +
      'documented "for single node testing only … will not work in a multi-node cluster". hostPath also exposes the node\'s ' +
      'file system to the pod.',
    trigger:
      'A Deployment, StatefulSet, ReplicaSet, ReplicationController, Argo Rollout, Job, CronJob or Pod whose pod template mounts ' +
      'a `hostPath` volume without `readOnly`; or that writes a claim bound (in the repo) to a PersistentVolume with ' +
      '`spec.hostPath` and no node affinity — by `volumeName` or `claimRef`, or because the claim can only bind pre-created ' +
      'PVs (class `""`, or a class such as `manual` that only PersistentVolumes in the repo carry) and every PV in the repo ' +
      'that fits it is such a directory. Error when the mount holds the data directory of a database container (§8.1 ' +
      'images with a verified path) and the template runs more than one pod (they share the files on one node, diverge on ' +
      'several); warning otherwise — one pod breaks only when it is rescheduled to another node, which a one-node cluster ' +
      '(not visible in the repo) never does.',
    exceptions:
      'DaemonSets (node agents by design); read-only mounts; node system paths (`/proc`, `/sys`, `/dev`, `/run`, `/var/run`, ' +
      '`/var/log`, `/etc`, `/lib/modules`, `/var/lib/kubelet`, `/var/lib/docker`, `/var/lib/containerd`, …), `*.sock` paths and ' +
      '`type: Socket | CharDevice | BlockDevice`; Spark scratch volumes (named `spark-local-dir-*`, the Spark-on-Kubernetes ' +
      'convention for local shuffle space); and templates pinned to one node (`nodeName`, a `kubernetes.io/hostname` ' +
      'nodeSelector or required node affinity), whose data stays with that node on purpose.',
    fix:
      'Use a PersistentVolumeClaim. When node-local storage is the point, use a `local` PersistentVolume with node affinity and a ' +
      'WaitForFirstConsumer StorageClass (or a local-path provisioner), or pin the workload to its node.',
    reportsAt: 'The `hostPath.path` of the pod volume, or of the PersistentVolume; related: the writing workload.',
    references: [
      { title: 'Kubernetes docs: Volumes, "hostPath"', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#hostpath' },
      { title: 'Kubernetes docs: Persistent Volumes, "Types of Persistent Volumes" (hostPath: single node testing only)', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#types-of-persistent-volumes' },
      { title: 'Kubernetes docs: Storage Classes, "Local"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#local' },
      { title: 'Spark docs: Running on Kubernetes, "Local Storage" (spark-local-dir-* volumes)', url: 'https://spark.apache.org/docs/latest/running-on-kubernetes.html#local-storage' },
    ],
    messages: {
      inline: (d: { kind: string; workload: string; container: string; volume: string; hostPath: string; mountPath: string }) =>
        `${d.kind} "${d.workload}": ${d.container} writes hostPath volume "${d.volume}" (${d.hostPath}) at ${d.mountPath}, and nothing ` +
        'pins the pods to one node: replicas on different nodes see different data, and a rescheduled pod starts on another node ' +
        'without it.',
      inlineDatabase: (d: { kind: string; workload: string; container: string; volume: string; hostPath: string; product: string; path: string }) =>
        `${d.kind} "${d.workload}": ${d.container} keeps its ${d.product} data directory ${d.path} on hostPath volume "${d.volume}" ` +
        `(${d.hostPath}), and nothing pins the pod to one node: after a reschedule the database starts empty on another node, ` +
        'and replicas on different nodes diverge.',
      persistentVolume: (d: { pv: string; hostPath: string; claim: string; kind: string; workload: string }) =>
        `PersistentVolume "${d.pv}" is a hostPath directory (${d.hostPath}) without node affinity, and ${d.kind} "${d.workload}" ` +
        `writes it through PersistentVolumeClaim "${d.claim}": each node has its own directory, so a pod on another node sees ` +
        'different data ("for single node testing only").',
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: uploads}
spec:
  replicas: 2
  selector: {matchLabels: {app: uploads}}
  template:
    metadata: {labels: {app: uploads}}
    spec:
      containers:
        - name: app
          image: registry.example.com/uploads:1
          volumeMounts: [{name: files, mountPath: /srv/files}]
      volumes:
        - name: files
          hostPath: {path: /srv/uploads, type: DirectoryOrCreate}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: log-shipper}
spec:
  selector: {matchLabels: {app: log-shipper}}
  template:
    metadata: {labels: {app: log-shipper}}
    spec:
      containers:
        - name: shipper
          image: registry.example.com/shipper:1
          volumeMounts: [{name: logs, mountPath: /var/log/host, readOnly: true}]
      volumes:
        - name: logs
          hostPath: {path: /var/log}
`,
      ],
    },
  },
  check({ model, report }) {
    const pvFindings = new Set<Resource>();
    const volumes = model.ofKind('PersistentVolume');
    for (const template of model.templates) {
      if (!KINDS.has(template.kind)) continue;
      if (nodePinOf(template) !== undefined) continue;
      const containers = podContainers(template);
      for (const volume of template.volumes) {
        if (volume.source === 'hostPath') {
          const source = getPath(template.workload.object, [...volume.path, 'hostPath']);
          const hostPath = typeof source?.path === 'string' ? source.path : undefined;
          if (!hostPath || systemPath(hostPath) || NON_DATA_TYPES.has(String(source?.type ?? ''))) continue;
          // Spark on Kubernetes uses volumes named spark-local-dir-* as scratch space (shuffle, spill), not as data.
          if (volume.name.startsWith('spark-local-dir-')) continue;
          const writer = containers
            .flatMap((c) => usesOfContainer(template, c))
            .find((u) => u.volumeName === volume.name && u.type === 'mount' && !u.readOnly);
          if (!writer) continue;
          const db = databaseOn(template, volume);
          const path: JsonPath = [...volume.path, 'hostPath', 'path'];
          if (db) {
            // Several pods on one hostPath data directory break on any cluster (one node: they share the files; several:
            // they diverge). One pod breaks only when it moves to another node, which a one-node cluster never does.
            const count = model.podCount(template);
            const severalPods = count.kind === 'autoscaled' || count.kind === 'unknown' || (count.kind === 'count' && count.count > 1);
            report({
              resource: template.workload, path, messageId: 'inlineDatabase', severity: severalPods ? 'error' : 'warning',
              data: { kind: template.kind, workload: template.workload.name, container: db.container, volume: volume.name, hostPath, product: db.product, path: db.path },
            });
          } else {
            report({
              resource: template.workload, path, messageId: 'inline',
              data: { kind: template.kind, workload: template.workload.name, container: containerLabel(writer), volume: volume.name, hostPath, mountPath: writer.target ?? '?' },
              related: [{ resource: template.workload, path: writer.path, message: `${containerLabel(writer)} mounts it read-write` }],
            });
          }
          continue;
        }
        if (volume.claimName === undefined) continue;
        const writes = !volume.readOnly && template.uses.some((u) => u.volumeName === volume.name && !u.readOnly);
        if (!writes) continue;
        const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
        const pvc = model.closestClaimDefinition(namespace, volume.claimName, template.workload);
        if (!pvc) continue;
        const volumeName = pvc.object?.spec?.volumeName;
        const pv = model.boundVolumeOf(pvc)?.pv ?? (typeof volumeName === 'string' && volumeName !== '' ? undefined : staticHostPathVolume(model, pvc, volumes));
        const hostPath = pv?.object?.spec?.hostPath?.path;
        if (!pv || typeof hostPath !== 'string' || pv.object?.spec?.nodeAffinity?.required != null || pvFindings.has(pv)) continue;
        if (systemPath(hostPath)) continue;
        pvFindings.add(pv);
        report({
          resource: pv, path: ['spec', 'hostPath', 'path'], messageId: 'persistentVolume',
          data: { pv: pv.name, hostPath, claim: pvc.name, kind: template.kind, workload: template.workload.name },
          related: [{ resource: template.workload, path: [...volume.path, 'persistentVolumeClaim', 'claimName'], message: `${template.kind} "${template.workload.name}" writes it` }],
        });
      }
    }
  },
});
