// R27: the PostgreSQL image's data directory and the volume mount do not fit the image's layout: 18+ refuses a mount
// at /var/lib/postgresql/data, and ≤17 initdb refuses a volume root that holds lost+found.
import { defineRule } from '../src/define-rule.js';
import { databaseContainer, POSTGRES_FAMILY, POSTGRES_LATEST_MAJOR } from '../src/model/databases.js';
import { envOf, normalisePath, podContainers, usesOfContainer, volumeNamed } from '../src/model/mounts.js';
import { networkFileSystem } from '../src/model/csi-drivers.js';
import { containerLabel } from '../src/model/wiring.js';
import type { JsonPath } from '../src/types.js';

const OLD_PGDATA = '/var/lib/postgresql/data';
const KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod', 'DaemonSet']);

export default defineRule({
  id: 'postgres-pgdata-layout',
  meta: {
    catalogueId: 'R27',
    severity: 'error',
    severities: ['warning'],
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Rollout', 'Pod', 'DaemonSet'],
    summary: 'A PostgreSQL container\'s volume does not fit the image layout: 18+ images refuse a mount at /var/lib/postgresql/data, and ≤17 initdb refuses a volume root as PGDATA.',
    why:
      'From PostgreSQL 18 the official image keeps data in a major-version directory (`PGDATA=/var/lib/postgresql/18/docker`, ' +
      '`VOLUME /var/lib/postgresql`), so that `pg_upgrade --link` works inside one volume. A volume mounted at the old ' +
      '/var/lib/postgresql/data is not where the data goes, and the entrypoint refuses to start ("there appears to be ' +
      'PostgreSQL data in: /var/lib/postgresql/data (unused mount/volume)"): the pod crash-loops. Up to 17, PGDATA is ' +
      '/var/lib/postgresql/data itself; when a fresh block volume (ext4) is mounted right there, its root holds `lost+found` and ' +
      '`initdb` refuses the non-empty directory — "Postgres initdb requires a subdirectory to be created within the mountpoint".',
    trigger:
      'A container running the server of `postgres` (also `postgis/postgis`, `timescale/timescaledb`, `pgvector/pgvector`) where: ' +
      '(18+, or the official image\'s `latest`/version-less tags, which are 18 now) PGDATA is not set and a volume is mounted at ' +
      'exactly /var/lib/postgresql/data — error; or (≤17, or any version with PGDATA set) the data directory is exactly the ' +
      'mountPath of a claim (PVC, claim template or generic ephemeral volume) mounted without `subPath` — warning.',
    exceptions:
      'Mounts with `subPath` (the directory is created fresh, no lost+found), claims of network file systems known to pvlint ' +
      '(NFS, EFS, Azure Files, CephFS: no lost+found), digest-only image references and derived images without a version in the ' +
      'tag (the major version is unknown) are not reported. PGDATA below the mount point is the documented layout and is fine.',
    fix:
      'PostgreSQL 18+: mount the volume at /var/lib/postgresql. PostgreSQL ≤17: keep the mount at /var/lib/postgresql/data and set ' +
      '`PGDATA=/var/lib/postgresql/data/pgdata` (or mount with `subPath: pgdata`). Pin the image to a major version: `latest` ' +
      'moves to the next major and changes the layout under you.',
    reportsAt: 'The volumeMount at /var/lib/postgresql/data, or the PGDATA variable that names the mount root.',
    references: [
      { title: 'docker-library/docs postgres/content.md (PGDATA: use a subdirectory of the mount)', url: 'https://github.com/docker-library/docs/blob/master/postgres/content.md' },
      { title: 'docker-library/postgres 18/trixie/Dockerfile (PGDATA=/var/lib/postgresql/18/docker, VOLUME /var/lib/postgresql)', url: 'https://github.com/docker-library/postgres/blob/12eb5762e3cf3c44440ed078b59843b5dfbde570/18/trixie/Dockerfile' },
      { title: 'docker-library/postgres pull request #1259 (18+ layout, "unused mount/volume")', url: 'https://github.com/docker-library/postgres/pull/1259' },
    ],
    messages: {
      oldMount18: (d: { kind: string; workload: string; container: string; image: string; version: string; volume: string }) =>
        `${d.kind} "${d.workload}": ${d.container} runs ${d.image} (PostgreSQL ${d.version}), whose data lives in ` +
        `/var/lib/postgresql/<major>/docker, but volume "${d.volume}" is mounted at /var/lib/postgresql/data: the entrypoint ` +
        'refuses to start ("there appears to be PostgreSQL data in: /var/lib/postgresql/data (unused mount/volume)") and the pod crash-loops.',
      mountRoot: (d: { kind: string; workload: string; container: string; image: string; pgdata: string; via: string; volume: string }) =>
        `${d.kind} "${d.workload}": ${d.container} (${d.image}) uses the root of claim volume "${d.volume}" as its data directory ` +
        `${d.pgdata} (${d.via}): a freshly formatted volume holds lost+found there, and initdb refuses the non-empty directory ` +
        '("initdb requires a subdirectory to be created within the mountpoint").',
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
        - name: postgres
          image: postgres:18
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 20Gi}}}
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
        - name: postgres
          image: postgres:18
          volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]
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
        if (!db || db.db.id !== 'postgres' || !POSTGRES_FAMILY.has(db.image.key)) continue;
        const pgdataEnv = envOf(container.object).get('PGDATA');
        const label = containerLabel({ container: container.name, containerKind: container.kind });
        const image = String(container.object.image);
        const mounts = usesOfContainer(template, container).filter((u) => u.type === 'mount' && u.target !== undefined);
        const major = db.major === 'latest' ? (db.image.key === 'postgres' ? POSTGRES_LATEST_MAJOR : undefined) : db.major;

        if (!pgdataEnv && major !== undefined && major >= 18) {
          const old = mounts.find((u) => normalisePath(u.target!) === OLD_PGDATA);
          if (old) {
            report({
              resource: template.workload, path: [...old.path, 'mountPath'], messageId: 'oldMount18', severity: 'error',
              data: {
                kind: template.kind, workload: template.workload.name, container: label, image,
                version: db.major === 'latest' ? `${POSTGRES_LATEST_MAJOR}, which the \`${db.image.tag ?? 'latest'}\` tag points at` : String(major),
                volume: old.volumeName,
              },
            });
            continue;
          }
        }
        if (db.data.kind !== 'known') continue;
        if (!pgdataEnv && (major === undefined || major >= 18)) continue;
        for (const data of db.data.paths) {
          const root = mounts.find((u) => normalisePath(u.target!) === normalisePath(data.path) && u.subPath === undefined && u.subPathExpr === undefined);
          if (!root) continue;
          const ref = volumeNamed(template, root.volumeName);
          if (!ref) continue;
          const claim = model.claimOfVolume(template, ref);
          if (!claim) continue;
          if (claim !== 'external' && networkFileSystem(claim.storage)) continue;
          const path: JsonPath = pgdataEnv ? [...container.path, 'env', pgdataEnv.index, 'value'] : [...root.path, 'mountPath'];
          report({
            resource: template.workload, path, messageId: 'mountRoot', severity: 'warning',
            data: { kind: template.kind, workload: template.workload.name, container: label, image, pgdata: data.path, via: data.via, volume: root.volumeName },
            related: [{ resource: template.workload, path: root.path, message: `volume "${root.volumeName}" mounted at ${root.target}` }],
          });
          break;
        }
      }
    }
  },
});
