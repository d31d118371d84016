// Database images and where they keep their data: the research catalogue's §8.1 table (image → data path, how it is
// overridden, sources), the image-reference parser that matches containers against it, and the reading of a
// container's command line and environment that decides whether the container runs the server and where its data goes.
// Read by R25–R28, R30–R32.
import type { RuleReference } from '../types.js';
import { envOf, hasEnvFrom, type PodContainer } from './mounts.js';
import { ownEntry } from '../engine/own-entry.js';

/**
 * `datastore`: losing the data directory loses the database; `cache`: an in-memory store whose files are optional
 * (Redis/Valkey), a datastore only when persistence is switched on.
 */
export type DatabaseRole = 'datastore' | 'cache';

/**
 * Catalogue confidence of the data path: `H` = read in the image's Dockerfile / official docs (the path is certain);
 * `M` / `L` = image docs recalled or secondary sources: rules treat the path as advisory (§8.1: fire only when nothing
 * is mounted at, above or below it, and at `note` level).
 */
export type PathConfidence = 'H' | 'M' | 'L';

export interface DataPathOverride {
  /** Environment variable or command-line flag (`--datadir`, `-D`, `path.data`). */
  name: string;
  /** The default path this override moves; undefined when the row has one default path. */
  replaces?: string;
  /** The value is a comma-separated list of directories (Kafka `log.dirs`). */
  list?: boolean;
}

export interface DatabaseImage {
  id: string;
  product: string;
  /**
   * Image repositories, compared exactly with the image reference without tag or digest. Docker Hub names are written
   * without registry and match with or without `docker.io/` and a `library/` path (`postgres` matches `postgres:16`,
   * `docker.io/library/postgres` and `mirror.gcr.io/library/postgres@sha256:…`); images of other registries are written
   * with the registry (`quay.io/coreos/etcd`). `example.com/team/postgres` or `registry.k8s.io/redis` match nothing.
   */
  images: readonly string[];
  role: DatabaseRole;
  /** Default data directories (empty when the image has none without configuration). */
  paths: readonly string[];
  env: readonly DataPathOverride[];
  flags: readonly DataPathOverride[];
  /**
   * Environment variables that move data in ways pvlint does not model: when set, the data path is unknown.
   */
  opaqueEnv?: readonly string[];
  /** Executables (base names) that start the server; the image's entrypoint scripts count. */
  servers: readonly string[];
  /** A word that must follow the executable for it to be the server (`minio server …`). */
  subcommand?: string;
  confidence: PathConfidence;
  notes: string;
  /** Citation keys of the research catalogue (§9) or of this file. */
  refs: readonly string[];
  sources: readonly RuleReference[];
}

const gh = (repo: string, ref: string, path: string) => `https://github.com/${repo}/blob/${ref}/${path}`;

const SOURCES: Record<string, RuleReference> = {
  'PG-DOCKER-DOCS': { title: 'docker-library/docs postgres/content.md (PGDATA)', url: gh('docker-library/docs', 'master', 'postgres/content.md') },
  'PG-DF18': { title: 'docker-library/postgres 18/trixie/Dockerfile (PGDATA=/var/lib/postgresql/18/docker, VOLUME /var/lib/postgresql, STOPSIGNAL SIGINT)', url: gh('docker-library/postgres', '12eb5762e3cf3c44440ed078b59843b5dfbde570', '18/trixie/Dockerfile') },
  'PG-ENTRY18': { title: 'docker-library/postgres pull request #1259 (18+: major-version PGDATA; "unused mount/volume" refusal)', url: 'https://github.com/docker-library/postgres/pull/1259' },
  'MYSQL-DF': { title: 'docker-library/mysql Dockerfile (VOLUME /var/lib/mysql)', url: 'https://github.com/docker-library/mysql/tree/7f30fdb' },
  'MARIADB-DF': { title: 'MariaDB/mariadb-docker 11.4/Dockerfile (VOLUME /var/lib/mysql, CMD mariadbd)', url: gh('MariaDB/mariadb-docker', '0c710468e3fb2ccec6cdc14350ee0f1eaf668307', '11.4/Dockerfile') },
  'MONGO-DF': { title: 'docker-library/mongo Dockerfile (VOLUME /data/db /data/configdb)', url: 'https://github.com/docker-library/mongo/tree/2c69a57' },
  'REDIS-DF': { title: 'docker-library/redis Dockerfile (VOLUME /data, WORKDIR /data)', url: 'https://github.com/docker-library/redis/tree/e920499' },
  'ES-DOCKER': { title: 'Elastic docs: Install Elasticsearch with Docker (data in /usr/share/elasticsearch/data)', url: 'https://www.elastic.co/guide/en/elasticsearch/reference/current/docker.html' },
  'ZK-DF': { title: '31z4/zookeeper-docker Dockerfile (ZOO_DATA_DIR=/data, ZOO_DATA_LOG_DIR=/datalog)', url: 'https://github.com/31z4/zookeeper-docker/tree/52a8364' },
  'RABBITMQ-DF': { title: 'docker-library/rabbitmq 3.13/ubuntu/Dockerfile (RABBITMQ_DATA_DIR=/var/lib/rabbitmq, VOLUME $RABBITMQ_DATA_DIR)', url: gh('docker-library/rabbitmq', '00309be9729cd54aa525c35ac924fa026ee5e8a2', '3.13/ubuntu/Dockerfile') },
  'CATALOGUE-8.1': { title: 'docker-library/docs: official image documentation (secondary for this row; path advisory)', url: 'https://github.com/docker-library/docs' },
};

function sources(...keys: string[]): RuleReference[] {
  return keys.map((key) => {
    const source = ownEntry(SOURCES, key);
    if (!source) throw new Error(`databases.ts: unknown source ${key}`);
    return source;
  });
}

type Row = Omit<DatabaseImage, 'sources' | 'env' | 'flags'> & { env?: DataPathOverride[]; flags?: DataPathOverride[]; sourceKeys: string[] };

/** The postgres-family images whose data layout follows the official image (R27). */
export const POSTGRES_FAMILY = new Set(['postgres', 'postgis/postgis', 'timescale/timescaledb', 'pgvector/pgvector']);

/** §8.1, one row per image family. Postgres paths depend on the major version; see {@link dataPathsOf}. */
const ROWS: Row[] = [
  {
    id: 'postgres', product: 'PostgreSQL', images: [...POSTGRES_FAMILY], role: 'datastore',
    paths: ['/var/lib/postgresql/data'],
    env: [{ name: 'PGDATA' }], flags: [{ name: '-D' }],
    servers: ['postgres', 'docker-entrypoint.sh'],
    confidence: 'H',
    notes: '≤17: PGDATA=/var/lib/postgresql/data (the image VOLUME); 18+: PGDATA=/var/lib/postgresql/<major>/docker and VOLUME /var/lib/postgresql. ' +
      'postgis/postgis, timescale/timescaledb and pgvector/pgvector are built on the official image (same layout, M).',
    refs: ['PG-DOCKER-DOCS', 'PG-DF18', 'PG-ENTRY18'], sourceKeys: ['PG-DOCKER-DOCS', 'PG-DF18', 'PG-ENTRY18'],
  },
  {
    id: 'bitnami-postgresql', product: 'PostgreSQL (Bitnami)', images: ['bitnami/postgresql'], role: 'datastore',
    paths: ['/bitnami/postgresql'], env: [{ name: 'POSTGRESQL_VOLUME_DIR' }],
    servers: ['entrypoint.sh', 'run.sh', 'postgres'],
    confidence: 'L', notes: 'secondary source', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'mysql', product: 'MySQL', images: ['mysql'], role: 'datastore',
    paths: ['/var/lib/mysql'], flags: [{ name: '--datadir' }],
    servers: ['mysqld', 'docker-entrypoint.sh'],
    confidence: 'H', notes: '', refs: ['docker-library/mysql'], sourceKeys: ['MYSQL-DF'],
  },
  {
    id: 'mariadb', product: 'MariaDB', images: ['mariadb'], role: 'datastore',
    paths: ['/var/lib/mysql'], flags: [{ name: '--datadir' }],
    servers: ['mariadbd', 'mysqld', 'docker-entrypoint.sh'],
    confidence: 'H', notes: 'the catalogue marked this row M (unverified); the image Dockerfile declares VOLUME /var/lib/mysql',
    refs: ['MARIADB-DF'], sourceKeys: ['MARIADB-DF'],
  },
  {
    id: 'mongo', product: 'MongoDB', images: ['mongo'], role: 'datastore',
    paths: ['/data/db'], flags: [{ name: '--dbpath' }],
    servers: ['mongod', 'docker-entrypoint.sh'],
    confidence: 'H', notes: 'config servers (--configsvr) use /data/configdb; `mongos` (a router) and `mongosh` keep no data',
    refs: ['docker-library/mongo'], sourceKeys: ['MONGO-DF'],
  },
  {
    id: 'redis', product: 'Redis', images: ['redis', 'valkey/valkey'], role: 'cache',
    paths: ['/data'], flags: [{ name: '--dir' }],
    servers: ['redis-server', 'valkey-server', 'docker-entrypoint.sh'],
    confidence: 'H', notes: 'a datastore only with `--appendonly yes` or a non-empty `--save`; a cache otherwise',
    refs: ['docker-library/redis'], sourceKeys: ['REDIS-DF'],
  },
  {
    id: 'elasticsearch', product: 'Elasticsearch', images: ['elasticsearch', 'docker.elastic.co/elasticsearch/elasticsearch'], role: 'datastore',
    paths: ['/usr/share/elasticsearch/data'], env: [{ name: 'path.data' }], flags: [{ name: '-Epath.data' }],
    servers: ['elasticsearch', 'docker-entrypoint.sh', 'tini', 'eswrapper'],
    confidence: 'H', notes: 'catalogue confidence M/H; the path is the one Elastic documents for the image',
    refs: ['docker-library/elasticsearch', 'Elastic docker docs'], sourceKeys: ['ES-DOCKER'],
  },
  {
    id: 'opensearch', product: 'OpenSearch', images: ['opensearchproject/opensearch'], role: 'datastore',
    paths: ['/usr/share/opensearch/data'], env: [{ name: 'path.data' }], flags: [{ name: '-Epath.data' }],
    servers: ['opensearch', 'opensearch-docker-entrypoint.sh', 'tini'],
    confidence: 'M', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'apache-kafka', product: 'Apache Kafka', images: ['apache/kafka', 'apache/kafka-native'], role: 'datastore',
    paths: ['/tmp/kraft-combined-logs'], env: [{ name: 'KAFKA_LOG_DIRS', list: true }],
    servers: ['run', 'kafka-server-start.sh'],
    confidence: 'M', notes: 'the default log.dirs is under /tmp', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'cp-kafka', product: 'Confluent Kafka', images: ['confluentinc/cp-kafka', 'confluentinc/cp-server'], role: 'datastore',
    paths: ['/var/lib/kafka/data'], env: [{ name: 'KAFKA_LOG_DIRS', list: true }],
    servers: ['run', 'kafka-server-start'],
    confidence: 'M', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'bitnami-kafka', product: 'Kafka (Bitnami)', images: ['bitnami/kafka'], role: 'datastore',
    paths: ['/bitnami/kafka'], env: [{ name: 'KAFKA_CFG_LOG_DIRS', list: true }],
    servers: ['entrypoint.sh', 'run.sh'],
    confidence: 'M', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'zookeeper', product: 'ZooKeeper', images: ['zookeeper'], role: 'datastore',
    paths: ['/data', '/datalog'], env: [{ name: 'ZOO_DATA_DIR', replaces: '/data' }, { name: 'ZOO_DATA_LOG_DIR', replaces: '/datalog' }],
    servers: ['zkServer.sh', 'docker-entrypoint.sh'],
    confidence: 'H', notes: '', refs: ['31z4/zookeeper-docker'], sourceKeys: ['ZK-DF'],
  },
  {
    id: 'etcd', product: 'etcd', images: ['quay.io/coreos/etcd', 'registry.k8s.io/etcd', 'gcr.io/etcd-development/etcd'], role: 'datastore',
    paths: [], env: [{ name: 'ETCD_DATA_DIR' }], flags: [{ name: '--data-dir' }],
    servers: ['etcd'],
    confidence: 'M', notes: 'without --data-dir / ETCD_DATA_DIR the directory is `<name>.etcd` relative to the working directory (not modelled)',
    refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'bitnami-etcd', product: 'etcd (Bitnami)', images: ['bitnami/etcd'], role: 'datastore',
    paths: ['/bitnami/etcd'], env: [{ name: 'ETCD_DATA_DIR' }], flags: [{ name: '--data-dir' }],
    servers: ['entrypoint.sh', 'run.sh', 'etcd'],
    confidence: 'M', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'minio', product: 'MinIO', images: ['minio/minio', 'quay.io/minio/minio'], role: 'datastore',
    paths: [], servers: ['minio', 'docker-entrypoint.sh'], subcommand: 'server',
    confidence: 'M', notes: 'the data directories are the path arguments of `minio server` (for distributed `http(s)://host/path` arguments, the path part)',
    refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'rabbitmq', product: 'RabbitMQ', images: ['rabbitmq'], role: 'datastore',
    paths: ['/var/lib/rabbitmq'], env: [{ name: 'RABBITMQ_MNESIA_BASE' }, { name: 'RABBITMQ_DATA_DIR' }],
    servers: ['rabbitmq-server', 'docker-entrypoint.sh'],
    confidence: 'H', notes: 'the catalogue marked this row M; the image Dockerfile declares VOLUME $RABBITMQ_DATA_DIR (/var/lib/rabbitmq)',
    refs: ['RABBITMQ-DF'], sourceKeys: ['RABBITMQ-DF'],
  },
  {
    id: 'cassandra', product: 'Cassandra', images: ['cassandra'], role: 'datastore',
    paths: ['/var/lib/cassandra'], opaqueEnv: ['CASSANDRA_DATA_DIR'],
    servers: ['cassandra', 'docker-entrypoint.sh'],
    confidence: 'M', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'clickhouse', product: 'ClickHouse', images: ['clickhouse/clickhouse-server', 'yandex/clickhouse-server', 'clickhouse'], role: 'datastore',
    paths: ['/var/lib/clickhouse'],
    servers: ['clickhouse-server', 'clickhouse', 'entrypoint.sh'],
    confidence: 'M', notes: 'configurable only in the server config', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'influxdb', product: 'InfluxDB', images: ['influxdb'], role: 'datastore',
    paths: ['/var/lib/influxdb2'], opaqueEnv: ['INFLUXD_ENGINE_PATH', 'INFLUXD_BOLT_PATH', 'INFLUXDB_DATA_DIR'],
    servers: ['influxd', 'entrypoint.sh'],
    confidence: 'M', notes: '2.x: /var/lib/influxdb2; 1.x tags: /var/lib/influxdb; other tags are not modelled', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'neo4j', product: 'Neo4j', images: ['neo4j'], role: 'datastore',
    paths: ['/data'], env: [{ name: 'NEO4J_server_directories_data' }, { name: 'NEO4J_dbms_directories_data' }],
    servers: ['neo4j', 'docker-entrypoint.sh', 'tini'],
    confidence: 'L', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'couchdb', product: 'CouchDB', images: ['couchdb'], role: 'datastore',
    paths: ['/opt/couchdb/data'],
    servers: ['couchdb', 'docker-entrypoint.sh', 'tini'],
    confidence: 'L', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
  {
    id: 'mssql', product: 'SQL Server', images: ['mcr.microsoft.com/mssql/server'], role: 'datastore',
    paths: ['/var/opt/mssql'], opaqueEnv: ['MSSQL_DATA_DIR', 'MSSQL_LOG_DIR'],
    servers: ['sqlservr', 'sqlservr.sh', 'launch_sqlservr.sh'],
    confidence: 'L', notes: '', refs: ['CATALOGUE-8.1'], sourceKeys: ['CATALOGUE-8.1'],
  },
];

const TABLE: readonly DatabaseImage[] = ROWS.map(({ sourceKeys, env, flags, ...row }) => ({
  ...row, env: env ?? [], flags: flags ?? [], sources: sources(...sourceKeys),
}));

const BY_IMAGE = new Map<string, DatabaseImage>();
for (const row of TABLE) for (const image of row.images) BY_IMAGE.set(image, row);

/** Every row, for documentation and tests. */
export function allDatabaseImages(): readonly DatabaseImage[] {
  return TABLE;
}

export interface ImageReference {
  /** The reference as written. */
  text: string;
  registry: string | undefined;
  /** Repository path without the registry and without a leading `…/library/`. */
  repository: string;
  /**
   * The name the §8.1 table is keyed by: the repository for Docker Hub images (no registry, `docker.io`,
   * `index.docker.io`, `registry-1.docker.io`, or any registry with a `library/` path — a mirror of the official
   * images), else `registry/repository`.
   */
  key: string;
  tag: string | undefined;
  digest: string | undefined;
}

const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

/** Splits `registry/path/name:tag@digest`. The first component is a registry when it has a `.` or `:`, or is `localhost`. */
export function parseImage(image: unknown): ImageReference | undefined {
  if (typeof image !== 'string') return undefined;
  const text = image.trim();
  if (text === '' || /[\s{}$]/.test(text)) return undefined;
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const parts = rest.toLowerCase().split('/');
  let registry: string | undefined;
  if (parts.length > 1 && (parts[0].includes('.') || parts[0].includes(':') || parts[0] === 'localhost')) registry = parts.shift();
  const libraryIndex = parts.lastIndexOf('library');
  const official = libraryIndex >= 0 && libraryIndex < parts.length - 1;
  const repository = (official ? parts.slice(libraryIndex + 1) : parts).join('/');
  const hub = registry === undefined || DOCKER_HUB.has(registry) || official;
  return { text, registry, repository, key: hub ? repository : `${registry}/${repository}`, tag, digest };
}

/** The §8.1 row of an image reference, when the repository is one of the table's. */
export function databaseOfImage(image: unknown): DatabaseImage | undefined {
  const ref = parseImage(image);
  return ref ? BY_IMAGE.get(ref.key) : undefined;
}

/** The PostgreSQL major version of a postgres-family image: a number, `latest` (no tag / a tag without a version), or unknown. */
export function postgresMajor(ref: ImageReference): number | 'latest' | undefined {
  const tag = ref.tag;
  if (ref.key === 'postgres') {
    if (tag === undefined) return ref.digest ? undefined : 'latest';
    const match = /^(\d+)(?:[.\-_]|$)/.exec(tag);
    if (match) return Number(match[1]);
    // `latest`, `alpine`, `bookworm`, `trixie`, … follow the newest major.
    return /^[a-z]/.test(tag) ? 'latest' : undefined;
  }
  if (tag === undefined) return undefined;
  if (ref.key === 'postgis/postgis') {
    const match = /^(\d+)-/.exec(tag);
    return match ? Number(match[1]) : undefined;
  }
  const pg = /(?:^|[-_])pg(\d+)/.exec(tag);
  return pg ? Number(pg[1]) : undefined;
}

/** The newest PostgreSQL major the official `latest` tag points at (docker-library/postgres, since 18.0 in September 2025). */
export const POSTGRES_LATEST_MAJOR = 18;

/** The directory PGDATA defaults to in a postgres-family image of that major version. */
export function defaultPgdata(major: number): string {
  return major >= 18 ? `/var/lib/postgresql/${major}/docker` : '/var/lib/postgresql/data';
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);
/** Command-line flags that name a configuration file, which may move the data directory. */
const CONFIG_FLAGS = new Set(['--config', '-f', '--defaults-file', '--defaults-extra-file', '--config-file', '-C', '--conf', '--configFile']);
const basename = (token: string) => token.slice(token.lastIndexOf('/') + 1);

function words(script: string): string[] {
  return script
    .replace(/\\\n/g, ' ')
    .split(/[\s;|&()]+/)
    // An empty quoted argument (`--save ""`) is a word of its own.
    .map((word) => (word === '""' || word === "''" ? '""' : word.replace(/^['"]|['"]$/g, '')))
    .filter((word) => word !== '');
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map((item) => String(item)) : undefined;
}

/** The command line the container runs, as words; a `sh -c` script is split into words. */
function commandWords(container: any): { words: string[]; shell: boolean; command: boolean } {
  const command = stringList(container?.command);
  const args = stringList(container?.args) ?? [];
  const all = [...(command ?? []), ...args];
  const shellAt = all.findIndex((word, i) => SHELLS.has(basename(word)) && all[i + 1] === '-c');
  if (shellAt >= 0 && shellAt <= 1) {
    return { words: all.slice(shellAt + 2).flatMap(words), shell: true, command: command !== undefined };
  }
  return { words: all, shell: false, command: command !== undefined };
}

export interface DataPath {
  /** The directory the server writes. */
  path: string;
  /** Where the path comes from: `the image default`, `env PGDATA`, `--datadir`. */
  via: string;
  /** Other directories any one of which may be the data directory (the version is unknown). */
  anyOf?: string[];
}

export type DataPaths =
  | { kind: 'known'; paths: DataPath[]; uncertain?: string }
  | { kind: 'unknown'; reason: string };

export interface DatabaseContainer {
  container: PodContainer;
  db: DatabaseImage;
  image: ImageReference;
  /** postgres family: the major version, when the tag tells. */
  major?: number | 'latest';
  data: DataPaths;
  /** `datastore`, or `cache` for Redis/Valkey without persistence (`persistence` tells). */
  role: DatabaseRole;
  /** Redis/Valkey: whether `--appendonly yes` / a non-empty `--save` is on the command line (`unknown` with a config file). */
  persistence?: 'on' | 'off' | 'unknown';
}

function flagValue(tokens: readonly string[], flag: string): { value: string } | 'absent' {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === flag && i + 1 < tokens.length) return { value: tokens[i + 1] };
    if (token.startsWith(`${flag}=`)) return { value: token.slice(flag.length + 1) };
    // -Epath.data=/x is written as one token by Elasticsearch users, `-E path.data=/x` as two.
    if (flag.startsWith('-E') && token === '-E' && tokens[i + 1]?.startsWith(`${flag.slice(2)}=`)) return { value: tokens[i + 1].slice(flag.length - 1) };
  }
  return 'absent';
}

function redisPersistence(tokens: readonly string[]): 'on' | 'off' | 'unknown' {
  const appendonly = flagValue(tokens, '--appendonly');
  if (appendonly !== 'absent' && appendonly.value.toLowerCase() === 'yes') return 'on';
  const save = flagValue(tokens, '--save');
  if (save !== 'absent' && save.value !== '' && save.value !== '""' && save.value !== "''") return 'on';
  // redis-server /etc/redis/redis.conf: the config file decides.
  if (tokens.some((token) => token.endsWith('.conf'))) return 'unknown';
  return 'off';
}

/**
 * Whether the container runs the database server (not a client, exporter or shell that happens to use the image), and
 * the words after the server executable.
 */
function serverWords(db: DatabaseImage, container: any): string[] | undefined {
  const { words: all, shell, command } = commandWords(container);
  const serverAt = all.findIndex((word) => db.servers.includes(basename(word)));
  if (db.subcommand) {
    const sub = all.indexOf(db.subcommand);
    return sub >= 0 ? all.slice(sub + 1) : undefined;
  }
  if (serverAt >= 0) return all.slice(serverAt + 1);
  // No command: the image's entrypoint runs the server unless args name another program.
  if (!command && !shell && (all.length === 0 || all[0].startsWith('-'))) return all;
  return undefined;
}

/** Data directories of a recognised database container, after the env and command-line overrides §8.1 lists. */
function dataPathsOf(db: DatabaseImage, ref: ImageReference, major: number | 'latest' | undefined, container: any, tokens: readonly string[]): DataPaths {
  const env = envOf(container);
  for (const name of db.opaqueEnv ?? []) {
    if (env.has(name)) return { kind: 'unknown', reason: `${name} is set` };
  }
  let defaults: DataPath[];
  if (db.id === 'postgres') {
    if (typeof major === 'number') defaults = [{ path: defaultPgdata(major), via: `the default PGDATA of PostgreSQL ${major} images` }];
    else if (major === 'latest' && ref.key === 'postgres') {
      defaults = [{ path: defaultPgdata(POSTGRES_LATEST_MAJOR), via: `the default PGDATA of the \`${ref.tag ?? 'latest'}\` tag (PostgreSQL ${POSTGRES_LATEST_MAJOR})` }];
    } else {
      defaults = [{ path: '/var/lib/postgresql/data', via: 'the default PGDATA (by image version)', anyOf: ['/var/lib/postgresql/data', '/var/lib/postgresql'] }];
    }
  } else if (db.id === 'influxdb') {
    const tag = ref.tag ?? 'latest';
    if (/^1\./.test(tag)) defaults = [{ path: '/var/lib/influxdb', via: 'the InfluxDB 1.x image default' }];
    else if (/^2(\.|$|-)/.test(tag)) defaults = [{ path: '/var/lib/influxdb2', via: 'the InfluxDB 2.x image default' }];
    else return { kind: 'unknown', reason: `InfluxDB tag "${tag}" is not modelled` };
  } else if (db.id === 'minio') {
    const paths = tokens
      .filter((token) => !token.startsWith('-'))
      .map((token) => token.replace(/^https?:\/\/[^/]+/, ''))
      .filter((token) => token.startsWith('/'));
    if (paths.length === 0) return { kind: 'unknown', reason: 'no directory follows `minio server`' };
    if (paths.some((path) => path.includes('{'))) return { kind: 'unknown', reason: 'the `minio server` directories use {…} expansion' };
    return { kind: 'known', paths: paths.map((path) => ({ path, via: '`minio server` arguments' })) };
  } else {
    defaults = db.paths.map((path) => ({ path, via: 'the image default' }));
  }

  let paths = defaults;
  const apply = (override: DataPathOverride, value: string | undefined, via: string): DataPaths | undefined => {
    if (value === undefined) return { kind: 'unknown', reason: `${via} is not a literal value` };
    const values = (override.list ? value.split(',') : [value]).map((v) => v.trim()).filter(Boolean);
    if (values.length === 0 || values.some((v) => !v.startsWith('/'))) return { kind: 'unknown', reason: `${via} is "${value}", not an absolute path` };
    const replaced = override.replaces ?? (paths.length === 1 ? paths[0].path : undefined);
    const kept = paths.filter((p) => p.path !== replaced);
    paths = [...kept, ...values.map((path) => ({ path, via }))];
    return undefined;
  };
  for (const override of db.env) {
    const value = env.get(override.name);
    if (!value) continue;
    const failed = apply(override, value.value, `env ${override.name}`);
    if (failed) return failed;
  }
  for (const override of db.flags) {
    const found = flagValue(tokens, override.name);
    if (found === 'absent') continue;
    const failed = apply(override, found.value, override.name);
    if (failed) return failed;
  }
  if (paths.length === 0) return { kind: 'unknown', reason: `${db.product} keeps data where its configuration says` };
  const envNames = db.env.map((e) => e.name);
  const configFile = tokens.find((token, i) => CONFIG_FLAGS.has(token.split('=')[0]) || (i > 0 && tokens[i - 1] === '-c' && /^config_file=/.test(token)) || /\.(conf|cnf|ya?ml|cfg|ini)$/.test(token));
  const uncertain = hasEnvFrom(container) && envNames.length > 0 && !envNames.some((name) => env.has(name))
    ? `envFrom may set ${envNames.join(' or ')}`
    : configFile !== undefined ? `the configuration file on the command line (${configFile}) may set the data directory` : undefined;
  return { kind: 'known', paths, ...(uncertain ? { uncertain } : {}) };
}

/** The container runs a §8.1 database server: which one, and where its data goes. */
export function databaseContainer(container: PodContainer): DatabaseContainer | undefined {
  const image = parseImage(container.object?.image);
  if (!image) return undefined;
  const db = BY_IMAGE.get(image.key);
  if (!db) return undefined;
  const tokens = serverWords(db, container.object);
  if (!tokens) return undefined;
  const major = db.id === 'postgres' ? postgresMajor(image) : undefined;
  const data = dataPathsOf(db, image, major, container.object, tokens);
  const persistence = db.role === 'cache' ? redisPersistence(tokens) : undefined;
  const role: DatabaseRole = db.role === 'cache' && persistence === 'on' ? 'datastore' : db.role;
  return { container, db, image, ...(major !== undefined ? { major } : {}), data, role, ...(persistence ? { persistence } : {}) };
}
