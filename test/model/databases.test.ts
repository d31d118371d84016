import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allDatabaseImages, databaseContainer, databaseOfImage, parseImage, postgresMajor } from '../../src/model/databases.js';
import type { PodContainer } from '../../src/model/mounts.js';

const test = suite('databases (§8.1)');

const container = (object: any): PodContainer => ({ kind: 'containers', index: 0, name: object.name ?? 'c', path: ['spec', 'containers', 0], object });

test('image references: registry, library path, tag and digest', () => {
  assert.equal(parseImage('postgres:16')?.key, 'postgres');
  assert.equal(parseImage('docker.io/library/postgres:16-alpine')?.key, 'postgres');
  assert.equal(parseImage('mirror.gcr.io/library/redis@sha256:abc')?.key, 'redis');
  assert.equal(parseImage('registry.k8s.io/redis:e2e')?.key, 'registry.k8s.io/redis');
  assert.equal(parseImage('localhost:5000/team/app:1')?.key, 'localhost:5000/team/app');
  assert.equal(parseImage('bitnami/postgresql:16')?.key, 'bitnami/postgresql');
  assert.is(parseImage('{{ .Values.image }}'), undefined);
  assert.equal(databaseOfImage('quay.io/coreos/etcd:v3.5.0')?.id, 'etcd');
  assert.equal(databaseOfImage('docker.elastic.co/elasticsearch/elasticsearch:8.15.0')?.id, 'elasticsearch');
  assert.is(databaseOfImage('example.com/team/postgres:16'), undefined);
  assert.is(databaseOfImage('prometheuscommunity/postgres-exporter'), undefined);
});

test('postgres major versions from tags', () => {
  assert.is(postgresMajor(parseImage('postgres:16.4-bookworm')!), 16);
  assert.is(postgresMajor(parseImage('postgres:9.6')!), 9);
  assert.is(postgresMajor(parseImage('postgres')!), 'latest');
  assert.is(postgresMajor(parseImage('postgres:alpine')!), 'latest');
  assert.is(postgresMajor(parseImage('postgres@sha256:0123')!), undefined);
  assert.is(postgresMajor(parseImage('postgis/postgis:17-3.5')!), 17);
  assert.is(postgresMajor(parseImage('timescale/timescaledb:2.17.2-pg16')!), 16);
  assert.is(postgresMajor(parseImage('pgvector/pgvector:pg18')!), 18);
});

test('server detection and data path overrides', () => {
  const pg = databaseContainer(container({ image: 'postgres:17', env: [{ name: 'PGDATA', value: '/pg/data' }] }));
  assert.equal(pg?.data, { kind: 'known', paths: [{ path: '/pg/data', via: 'env PGDATA' }] });
  assert.is(databaseContainer(container({ image: 'postgres:17', command: ['pg_dump', '-h', 'db'] })), undefined);
  assert.is(databaseContainer(container({ image: 'mongo:7', args: ['mongosh'] })), undefined);
  const mongo = databaseContainer(container({ image: 'mongo:7', args: ['--dbpath', '/srv/mongo'] }));
  assert.equal(mongo?.data.kind === 'known' && mongo.data.paths.map((p) => p.path), ['/srv/mongo']);
  const zk = databaseContainer(container({ image: 'zookeeper:3.9', env: [{ name: 'ZOO_DATA_LOG_DIR', value: '/logs' }] }));
  assert.equal(zk?.data.kind === 'known' && zk.data.paths.map((p) => p.path), ['/data', '/logs']);
  const kafka = databaseContainer(container({ image: 'apache/kafka:3.8.0', env: [{ name: 'KAFKA_LOG_DIRS', value: '/k1,/k2' }] }));
  assert.equal(kafka?.data.kind === 'known' && kafka.data.paths.map((p) => p.path), ['/k1', '/k2']);
  const minio = databaseContainer(container({ image: 'quay.io/minio/minio', args: ['server', '/data', '--console-address', ':9001'] }));
  assert.equal(minio?.data.kind === 'known' && minio.data.paths.map((p) => p.path), ['/data']);
  assert.is(databaseContainer(container({ image: 'minio/minio', command: ['mc', 'ls'] })), undefined);
  const redis = databaseContainer(container({ image: 'redis:7', command: ['sh', '-c', 'redis-server --save "" --appendonly no'] }));
  assert.is(redis?.role, 'cache');
  assert.is(redis?.persistence, 'off');
  const aof = databaseContainer(container({ image: 'valkey/valkey:8', args: ['--appendonly', 'yes'] }));
  assert.is(aof?.role, 'datastore');
  const fromEnv = databaseContainer(container({ image: 'postgres:16', envFrom: [{ configMapRef: { name: 'pg' } }] }));
  assert.ok(fromEnv?.data.kind === 'known' && fromEnv.data.uncertain);
  assert.equal(databaseContainer(container({ image: 'cassandra:5', env: [{ name: 'CASSANDRA_DATA_DIR', value: '/x' }] }))?.data.kind, 'unknown');
});

test('every row has sources, servers and absolute default paths', () => {
  for (const row of allDatabaseImages()) {
    assert.ok(row.sources.length > 0 && row.sources.every((s) => s.url.startsWith('https://')), row.id);
    assert.ok(row.servers.length > 0, row.id);
    assert.ok(row.paths.every((p) => p.startsWith('/')), row.id);
  }
});

test.run();
