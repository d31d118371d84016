import rule from '../../rules/database-ephemeral-data.js';
import { ruleTester } from '../helpers/rule-tester.js';

/** A Deployment with one container; `container` lines go under the container, `volumes` under the pod spec. */
const deployment = (image: string, container: string, volumes = '', kind = 'Deployment') => `apiVersion: apps/v1
kind: ${kind}
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
        - name: db
          image: ${image}${container}${volumes ? `\n      volumes:${volumes}` : ''}
`;
const mount = (path: string, name = 'data') => `\n          volumeMounts: [{name: ${name}, mountPath: ${path}}]`;
const emptyDir = `\n        - name: data\n          emptyDir: {}`;
const claim = `\n        - name: data\n          persistentVolumeClaim: {claimName: data}`;

ruleTester(rule, {
  valid: [
    { name: 'stays quiet on the Bitnami PostgreSQL image on a claim at /bitnami/postgresql', code: deployment('docker.io/bitnami/postgresql:16.4.0', mount('/bitnami/postgresql'), claim) },
    {
      name: 'stays quiet on ZooKeeper with /data and /datalog both on claims',
      code: deployment('zookeeper:3.9', '\n          volumeMounts: [{name: data, mountPath: /data}, {name: log, mountPath: /datalog}]', claim + '\n        - name: log\n          persistentVolumeClaim: {claimName: log}'),
    },
    { name: 'postgres ≤17 on a claim at PGDATA\'s parent', code: deployment('postgres:16', mount('/var/lib/postgresql/data') + '\n          env: [{name: PGDATA, value: /var/lib/postgresql/data/pgdata}]', claim) },
    { name: 'postgres 18 on a claim at /var/lib/postgresql', code: deployment('postgres:18', mount('/var/lib/postgresql'), claim) },
    { name: 'mysql with --datadir on a claim', code: deployment('mysql:8.4', mount('/data') + '\n          args: [--datadir=/data/mysql]', claim) },
    { name: 'a client command, not the server', code: deployment('postgres:16', '\n          command: [psql, -h, db]') },
    { name: 'args naming another program', code: deployment('mongo:7', '\n          args: [mongosh, --eval, "db.ping()"]') },
    { name: 'an image that is not a database', code: deployment('registry.example.com/api:1', '') },
    { name: 'a non-Docker-Hub image with a database name', code: deployment('registry.k8s.io/redis:e2e', '') },
    { name: 'a Job (a client or a backup)', code: deployment('postgres:16', '', '', 'Job').replace('  selector: {matchLabels: {app: db}}\n', '') },
    { name: 'PGDATA from a secret is unknown', code: deployment('postgres:16', '\n          env: [{name: PGDATA, valueFrom: {secretKeyRef: {name: s, key: k}}}]') },
    { name: 'envFrom may move the path onto the mounted claim', code: deployment('postgres:16', mount('/pg') + '\n          envFrom: [{configMapRef: {name: pg-env}}]', claim) },
    { name: 'hostPath data is another rule\'s', code: deployment('mysql:8', mount('/var/lib/mysql'), '\n        - name: data\n          hostPath: {path: /srv/mysql}') },
    { name: 'postgres 18 with the old mount is postgres-pgdata-layout\'s', code: deployment('postgres:18', mount('/var/lib/postgresql/data'), emptyDir) },
    { name: 'an advisory path with something mounted below it', code: deployment('cassandra:5', mount('/var/lib/cassandra/data'), claim) },
    { name: 'redis with a config file decides persistence itself', code: deployment('redis:7', '\n          args: [/etc/redis/redis.conf]') },
    { name: 'a config file on the command line may move the data onto the mounted claim', code: deployment('mongo:7', '\n          args: [--config, /etc/mongod.conf]' + mount('/var/lib/mongo'), claim) },
    {
      name: 'a mounted ConfigMap may move the data onto the mounted claim',
      code: deployment('docker.elastic.co/elasticsearch/elasticsearch:8.15.0', '\n          volumeMounts: [{name: data, mountPath: /es-data}, {name: config, mountPath: /usr/share/elasticsearch/config/elasticsearch.yml, subPath: elasticsearch.yml}]', claim + '\n        - name: config\n          configMap: {name: es}'),
    },
  ],
  invalid: [
    {
      // Snapshots in /data survive; the transaction log after the last snapshot does not (an ensemble resyncs it).
      name: 'ZooKeeper with /data on a claim and /datalog in the container layer is a warning',
      code: deployment('zookeeper:3.9', mount('/data'), claim),
      errors: [{ messageId: 'lost', severity: 'warning', messageIncludes: ['/datalog'] }],
    },
    {
      name: 'ZooKeeper with neither directory on a volume is an error',
      code: deployment('zookeeper:3.9', ''),
      errors: [{ messageId: 'lost', severity: 'error', messageIncludes: ['/data (', '/datalog'] }],
    },
    {
      name: 'postgres on an emptyDir',
      code: deployment('postgres:16', mount('/var/lib/postgresql/data'), emptyDir),
      errors: [{ messageId: 'lost', severity: 'error', line: 15, path: ['spec', 'template', 'spec', 'volumes', 0, 'emptyDir'], messageIncludes: ['PostgreSQL (postgres:16)', '/var/lib/postgresql/data', 'emptyDir volume "data"'] }],
    },
    {
      name: 'a config file does not help when nothing persistent is mounted',
      code: deployment('mongo:7', '\n          args: [--config, /etc/mongod.conf]'),
      errors: [{ messageId: 'lost', severity: 'error' }],
    },
    {
      name: 'mongo with no volume at all',
      code: deployment('mongo:7', ''),
      errors: [{ messageId: 'lost', severity: 'error', path: ['spec', 'template', 'spec', 'containers', 0, 'volumeMounts'], messageIncludes: ['/data/db', 'no volume is mounted there'] }],
    },
    {
      name: 'PGDATA moved off the mounted claim',
      code: deployment('postgres:16', mount('/var/lib/postgresql/data') + '\n          env: [{name: PGDATA, value: /pgdata}]', claim),
      errors: [{ messageId: 'lost', messageIncludes: ['/pgdata (env PGDATA)'] }],
    },
    {
      name: 'postgres:latest is 18: the data goes to /var/lib/postgresql/18/docker',
      code: deployment('postgres', mount('/srv'), claim),
      errors: [{ messageId: 'lost', messageIncludes: ['/var/lib/postgresql/18/docker'] }],
    },
    {
      name: 'a generic ephemeral volume is deleted with the pod',
      code: deployment('mariadb:11', mount('/var/lib/mysql'), '\n        - name: data\n          ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}'),
      errors: [{ messageId: 'lost', path: ['spec', 'template', 'spec', 'volumes', 0, 'ephemeral'], messageIncludes: ['generic ephemeral volume'] }],
    },
    {
      name: 'redis as a cache is a note',
      code: deployment('redis:7.2', ''),
      errors: [{ messageId: 'lost', severity: 'note', messageIncludes: ['more than a cache'] }],
    },
    {
      name: 'redis with appendonly persistence is an error',
      code: deployment('redis:7.2', '\n          command: [redis-server, --appendonly, "yes"]'),
      errors: [{ messageId: 'lost', severity: 'error' }],
    },
    {
      name: 'an advisory path with nothing mounted is a note',
      code: deployment('rabbitmq:3.13', '').replace('rabbitmq:3.13', 'clickhouse/clickhouse-server:24.8'),
      errors: [{ messageId: 'lost', severity: 'note', messageIncludes: ['ClickHouse'] }],
    },
    {
      name: 'a shell command that starts the server',
      code: deployment('mysql:8.4', '\n          command: [sh, -c, "exec mysqld --datadir=/scratch/db"]' + mount('/scratch'), emptyDir),
      errors: [{ messageId: 'lost', messageIncludes: ['/scratch/db (--datadir)'] }],
    },
  ],
});
