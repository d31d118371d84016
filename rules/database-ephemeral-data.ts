// R26: a database container keeps its data directory in the container layer, an emptyDir or a generic ephemeral
// volume, so the data is gone when the pod is deleted or rescheduled.
import { defineRule } from '../src/define-rule.js';
import { databaseContainer, type DatabaseContainer } from '../src/model/databases.js';
import {
  coveringMount, mountsWithin, PERSISTENT_KINDS, podContainers, usesOfContainer, volumeNamed, type PodContainer,
} from '../src/model/mounts.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath, Severity } from '../src/types.js';

const KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod']);

interface Lost {
  path: string;
  via: string;
  where: 'none' | 'emptyDir' | 'memory' | 'ephemeral';
  volume?: string;
  reportPath: JsonPath;
}

/** The fix for one finding: the data paths it names, PostgreSQL's layout only for PostgreSQL, the emptyDir only when there is one. */
function fixFor(kind: string, product: string, lost: readonly Lost[]): string {
  const paths = [...new Set(lost.map((l) => l.path))].join(' and ');
  const claim = kind === 'StatefulSet' ? 'a `volumeClaimTemplates` entry' : 'a PersistentVolumeClaim (a StatefulSet with `volumeClaimTemplates` gives each replica its own)';
  let text = `Mount ${claim} at ${paths} or at a parent of it.`;
  if (product === 'postgres' || product === 'bitnami-postgresql') {
    text += ' For PostgreSQL ≤17 mount at /var/lib/postgresql/data with `PGDATA=/var/lib/postgresql/data/pgdata`, for 18+ at /var/lib/postgresql.';
  }
  const scratch = lost.find((l) => l.where !== 'none');
  if (scratch) text += ` An intentionally disposable database (tests, previews) can keep the ${scratch.where === 'ephemeral' ? 'generic ephemeral volume' : 'emptyDir'} "${scratch.volume}".`;
  else text += ' An intentionally disposable database (tests, previews) can stay as it is; suppress the finding with a reason.';
  return text;
}

const WHERE: Record<Lost['where'], string> = {
  none: 'the container\'s own file system (no volume is mounted there)',
  emptyDir: 'emptyDir volume',
  memory: 'memory-backed emptyDir volume',
  ephemeral: 'generic ephemeral volume',
};

/** postgres 18+ with the old mount at /var/lib/postgresql/data: the image refuses to start (postgres-pgdata-layout's finding). */
function pg18OldMount(template: PodTemplate, db: DatabaseContainer): boolean {
  if (db.db.id !== 'postgres' || db.data.kind !== 'known') return false;
  if (!db.data.paths.some((p) => /^\/var\/lib\/postgresql\/\d+\/docker$/.test(p.path))) return false;
  return usesOfContainer(template, db.container).some((u) => u.type === 'mount' && u.target?.replace(/\/+$/, '') === '/var/lib/postgresql/data');
}

function mountsOfKind(template: PodTemplate, container: PodContainer, kinds: (kind: string) => boolean): boolean {
  return usesOfContainer(template, container).some((use) => {
    const kind = volumeNamed(template, use.volumeName)?.kind;
    return kind !== undefined && kinds(kind);
  });
}
const hasPersistentMount = (template: PodTemplate, container: PodContainer) => mountsOfKind(template, container, (k) => PERSISTENT_KINDS.has(k as any));
/** A ConfigMap/Secret mounted into the container: a configuration file there may move the data directory. */
const hasConfigMount = (template: PodTemplate, container: PodContainer) => mountsOfKind(template, container, (k) => k === 'projection');

/** Where one data directory lives, when that is somewhere it does not survive the pod; undefined when it does or pvlint cannot tell. */
function lostPath(template: PodTemplate, container: PodContainer, path: string, advisory: boolean): Lost['where'] | 'kept' | undefined {
  const mount = coveringMount(template, container, path);
  if (!mount) {
    if (advisory && mountsWithin(template, container, path).length > 0) return undefined;
    return 'none';
  }
  const volume = mount.volume;
  if (!volume) return undefined;
  if (volume.kind === 'emptyDir') return volume.source?.medium === 'Memory' ? 'memory' : 'emptyDir';
  if (volume.kind === 'ephemeral') return 'ephemeral';
  if (PERSISTENT_KINDS.has(volume.kind)) return 'kept';
  return undefined;
}

export default defineRule({
  id: 'database-ephemeral-data',
  meta: {
    catalogueId: 'R26',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod'],
    summary: 'A database container keeps its data directory in the container layer, an emptyDir or a generic ephemeral volume, so the data is lost with the pod.',
    why:
      'Only Kubernetes volumes outlive a container, and only claims (and node or network volumes) outlive the pod: the image\'s ' +
      '`VOLUME` declaration does not make anything persistent in Kubernetes. A database whose data directory is not under a ' +
      'mount of a PersistentVolumeClaim (or StatefulSet claim template) loses every table when its pod is deleted, evicted, ' +
      'rescheduled or rolled — an `emptyDir` lives exactly as long as the pod, a generic ephemeral volume\'s claim is deleted with ' +
      'the pod, and files in the container layer go with the container.',
    trigger:
      'A container (not an init container) of a Deployment, StatefulSet, ReplicaSet, ReplicationController, Argo Rollout or Pod ' +
      'that runs a database server from the §8.1 image table — the image repository matches, and the command is the server (no ' +
      'command, or the server executable / entrypoint) — whose effective data directory (the image default, or the env / flag ' +
      'override the table lists: `PGDATA`, `--datadir`, `--dbpath`, `--dir`, `ZOO_DATA_DIR`, …) is not below a mount of a ' +
      'claim, claim template, hostPath or network volume, but on an emptyDir, a generic ephemeral volume or no volume. Error for ' +
      'datastores whose path the table marks verified (PostgreSQL, MySQL, MariaDB, MongoDB, Elasticsearch, ZooKeeper, RabbitMQ, ' +
      'and Redis/Valkey started with `--appendonly yes` or a `--save` schedule); warning when another of the image\'s data ' +
      'directories is persistent and only a secondary one is lost (ZooKeeper\'s transaction log in /datalog next to a ' +
      'persistent /data); note for Redis/Valkey used as a cache and for ' +
      'images whose path is advisory (fired only when nothing is mounted at, above or below the path).',
    exceptions:
      'Jobs, CronJobs and DaemonSets (clients, backups and node agents); init containers; containers whose command runs ' +
      'something other than the server (`psql`, `mongosh`, exporters, `sleep`); data paths set from `valueFrom` or a ' +
      '`$(VAR)` reference; a container that mounts some persistent volume and also takes `envFrom`, names a configuration file on ' +
      'its command line (`--config`, `--defaults-file`, `*.conf`) or mounts a ConfigMap/Secret (the configuration may move the ' +
      'data directory there); ' +
      'hostPath data (the hostpath-in-replicated-workload rule); PostgreSQL 18+ with the old mount at /var/lib/postgresql/data ' +
      '(the postgres-pgdata-layout rule: the image refuses to start). Operators that run databases from custom resources ' +
      '(CloudNativePG, Strimzi, ECK) are not pod templates and are not read.',
    fix:
      'Mount a PersistentVolumeClaim at the data directory — in a StatefulSet, a `volumeClaimTemplates` entry — or at a parent ' +
      'of it; for PostgreSQL ≤17 mount at /var/lib/postgresql/data with `PGDATA=/var/lib/postgresql/data/pgdata`, for 18+ at ' +
      '/var/lib/postgresql. An intentionally disposable database (tests, previews) can keep the emptyDir.',
    reportsAt: 'The volume that holds the data directory (`emptyDir` / `ephemeral`), or the container\'s `volumeMounts` where the mount is missing.',
    references: [
      { title: 'Kubernetes docs: Volumes (emptyDir lifetime)', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#emptydir' },
      { title: 'Kubernetes docs: Ephemeral Volumes (generic ephemeral volumes are deleted with the pod)', url: 'https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/#generic-ephemeral-volumes' },
      { title: 'docker-library/docs postgres/content.md (PGDATA)', url: 'https://github.com/docker-library/docs/blob/master/postgres/content.md' },
      { title: 'docker-library/postgres pull request #1259 (18+ data layout)', url: 'https://github.com/docker-library/postgres/pull/1259' },
    ],
    messages: {
      lost: (d: { kind: string; workload: string; container: string; image: string; product: string; paths: string; where: string; cache: boolean }) =>
        `${d.kind} "${d.workload}": ${d.container} runs ${d.product} (${d.image}) and keeps its data in ${d.paths} on ${d.where}: ` +
        (d.cache
          ? 'if this Redis is more than a cache, its snapshot and append-only files are lost with the pod.'
          : 'deleting, evicting or rescheduling the pod loses the database.'),
    },
    examples: {
      invalid: [
        `apiVersion: apps/v1
kind: Deployment
metadata: {name: orders-db}
spec:
  strategy: {type: Recreate}
  selector: {matchLabels: {app: orders-db}}
  template:
    metadata: {labels: {app: orders-db}}
    spec:
      containers:
        - name: postgres
          image: postgres:16
          env: [{name: POSTGRES_PASSWORD, valueFrom: {secretKeyRef: {name: orders-db, key: password}}}]
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
      volumes:
        - name: data
          emptyDir: {}
`,
      ],
      valid: [
        `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: orders-db}
spec:
  serviceName: orders-db
  selector: {matchLabels: {app: orders-db}}
  template:
    metadata: {labels: {app: orders-db}}
    spec:
      containers:
        - name: postgres
          image: postgres:16
          env:
            - {name: PGDATA, value: /var/lib/postgresql/data/pgdata}
            - {name: POSTGRES_PASSWORD, valueFrom: {secretKeyRef: {name: orders-db, key: password}}}
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      if (!KINDS.has(template.kind)) continue;
      for (const container of podContainers(template, ['containers'])) {
        const db = databaseContainer(container);
        if (!db || db.data.kind !== 'known') continue;
        if (db.persistence === 'unknown') continue;
        if (pg18OldMount(template, db)) continue;
        const advisory = db.db.confidence !== 'H';
        // The data directory may have been moved onto a persistent volume the container mounts elsewhere.
        const persistentElsewhere = hasPersistentMount(template, container);
        if (persistentElsewhere && (db.data.uncertain || hasConfigMount(template, container))) continue;
        const lost: Lost[] = [];
        for (const data of db.data.paths) {
          const candidates = data.anyOf ?? [data.path];
          const verdicts = candidates.map((path) => lostPath(template, container, path, advisory));
          if (verdicts.some((v) => v === 'kept' || v === undefined)) continue;
          const where = verdicts[0] as Lost['where'];
          const mount = coveringMount(template, container, candidates[0]);
          const volume = mount?.volume?.volume;
          const reportPath: JsonPath = where === 'none' || !volume
            ? [...container.path, 'volumeMounts']
            : [...volume.path, where === 'ephemeral' ? 'ephemeral' : 'emptyDir'];
          lost.push({ path: data.path, via: data.via, where, volume: mount?.volume?.name, reportPath });
        }
        if (lost.length === 0) continue;
        const cache = db.role === 'cache';
        // The main data directory is kept and only a secondary one (ZooKeeper's /datalog) is lost: recent writes go, not
        // the database, and a replicated ensemble recovers them from its peers.
        const partial = lost.length < db.data.paths.length;
        const severity: Severity = cache || advisory ? 'note' : partial ? 'warning' : 'error';
        const first = lost[0];
        const where = first.where === 'none' ? WHERE.none : `${WHERE[first.where]} "${first.volume}"`;
        report({
          resource: template.workload,
          path: first.reportPath,
          messageId: 'lost',
          severity,
          fix: fixFor(template.kind, db.db.id, lost),
          data: {
            kind: template.kind, workload: template.workload.name,
            container: containerLabel({ container: container.name, containerKind: container.kind }),
            image: String(container.object.image), product: db.db.product,
            paths: lost.map((l) => `${l.path} (${l.via})`).join(' and '), where, cache,
          },
          related: [{ resource: template.workload, path: [...container.path, 'image'], message: `${container.name}: ${String(container.object.image)}` }],
        });
      }
    }
  },
});
