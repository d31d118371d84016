// The picture's content: which nodes, with which facts, which edges, what is external, and which findings sit on
// which edges. Built from YAML with the real model and the built-in rules.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lint } from '../../src/lint.js';
import { GraphCollector } from '../../src/graph/collect.js';
import type { EnvironmentGraph, GraphNode } from '../../src/graph/model.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { HAS_KUSTOMIZE } from '../render/helpers.js';
import { SHOP } from './fixtures.js';
import { requires } from '../helpers/requires.js';
import { graphOf } from './helpers.js';

const build = suite('graph: build');


function node(graph: EnvironmentGraph, id: string): GraphNode {
  const found = graph.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id}; nodes: ${graph.nodes.map((n) => n.id).join(', ')}`);
  return found;
}

function edgeIds(graph: EnvironmentGraph): string[] {
  return graph.edges.map((e) => e.id).sort();
}

build('workloads, volumes, claims, PVs and classes with their facts; projections left out', () => {
  const graph = graphOf(SHOP);
  assert.equal(node(graph, 'workload:Deployment/shop/web').details, ['replicas: 2 · HPA max 6', 'Recreate', 'mesh: Istio sidecar']);
  assert.equal(node(graph, 'workload:CronJob/shop/backup').details, ['parallelism: 1', 'schedule 0 3 * * * · concurrency Forbid', 'mesh: Istio sidecar']);
  // Namespace "data" is not in the repo: mesh membership cannot be known.
  assert.equal(node(graph, 'workload:StatefulSet/data/db').details, ['replicas: 3', 'RollingUpdate · Parallel pods', 'mesh: unknown']);
  assert.equal(node(graph, 'volume:Deployment/shop/web#data').details, ['persistentVolumeClaim', 'app: /data']);
  assert.equal(node(graph, 'volume:Deployment/shop/web#scratch').details, ['emptyDir · in memory · limit 1Gi', 'app: /tmp']);
  assert.equal(node(graph, 'volume:CronJob/shop/backup#data').details, ['persistentVolumeClaim', 'backup: /backup (ro)']);
  assert.equal(node(graph, 'volume:StatefulSet/data/db#pgdata').details, ['volumeClaimTemplate', 'pg: /var/lib/postgresql/data/pgdata']);
  assert.not.ok(graph.nodes.some((n) => n.id.endsWith('#cfg')), 'configMap volumes are not storage');
  assert.equal(node(graph, 'claim:PersistentVolumeClaim/shop/shared').details, ['RWO · 5Gi']);
  assert.equal(node(graph, 'claim:StatefulSet/data/db#pgdata').details, ['RWO · 50Gi', 'one PVC per pod: pgdata-db-0, …']);
  assert.equal(node(graph, 'claim:PersistentVolumeClaim/data/archive').details, ['RWX · 1Ti', 'storageClassName: ""']);
  assert.equal(node(graph, 'pv:PersistentVolume//nfs-archive').details, ['RWX · 1Ti', 'nfs 10.0.0.5:/exports/archive', 'reclaim Retain']);
  assert.equal(node(graph, 'class:StorageClass//fast').details, ['ebs.csi.aws.com', 'WaitForFirstConsumer · reclaim Retain', 'default class · expandable']);
});

build('edges follow the storage chain; objects referenced but absent are external', () => {
  const graph = graphOf(SHOP);
  assert.equal(edgeIds(graph), [
    'claim:PersistentVolumeClaim/data/archive -> pv:PersistentVolume//nfs-archive',
    'claim:PersistentVolumeClaim/shop/shared -> class:StorageClass//fast',
    'claim:StatefulSet/data/db#pgdata -> class:gold',
    'volume:CronJob/shop/backup#data -> claim:PersistentVolumeClaim/shop/shared',
    'volume:Deployment/shop/web#data -> claim:PersistentVolumeClaim/shop/shared',
    'volume:Deployment/shop/web#missing -> claim:PersistentVolumeClaim/shop/nowhere',
    'volume:StatefulSet/data/db#pgdata -> claim:StatefulSet/data/db#pgdata',
    'workload:CronJob/shop/backup -> volume:CronJob/shop/backup#data',
    'workload:Deployment/shop/web -> volume:Deployment/shop/web#data',
    'workload:Deployment/shop/web -> volume:Deployment/shop/web#missing',
    'workload:Deployment/shop/web -> volume:Deployment/shop/web#scratch',
    'workload:StatefulSet/data/db -> volume:StatefulSet/data/db#pgdata',
  ]);
  const external = graph.nodes.filter((n) => n.external).map((n) => `${n.id} (${n.external!.note})`).sort();
  assert.equal(external, ['claim:PersistentVolumeClaim/shop/nowhere (not in the repo)', 'class:gold (not in the repo)']);
  assert.equal(graph.namespaces, [{ name: 'data', external: true }, { name: 'shop', external: false }]);
  const complete = graphOf(SHOP, { bundleComplete: true });
  assert.is(node(complete, 'class:gold').external?.note, 'missing: not in the repo');
});

build('a claim without a class and no default in the repo points at an external cluster default', () => {
  const graph = graphOf(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: logs, namespace: app}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`);
  assert.equal(edgeIds(graph), ['claim:PersistentVolumeClaim/app/logs -> class:(cluster default)']);
  assert.ok(node(graph, 'class:(cluster default)').external);
  assert.equal(node(graph, 'claim:PersistentVolumeClaim/app/logs').details, ['RWO · 1Gi', 'no class set: the default']);
});

build('findings sit on the edges they are about: from the finding\'s object to each related one', () => {
  const graph = graphOf(SHOP);
  const multi = graph.findings.find((f) => f.ruleId === 'rwo-claim-multi-node' && f.message.includes('maxReplicas'));
  assert.ok(multi, `rwo-claim-multi-node fires on the HPA's maxReplicas: ${graph.findings.map((f) => f.message).join('\n')}`);
  // Deployment (spec.replicas) → its volume → the RWO claim named as related.
  assert.ok(multi!.edges.includes('workload:Deployment/shop/web -> volume:Deployment/shop/web#data'), multi!.edges.join('\n'));
  assert.ok(multi!.edges.includes('volume:Deployment/shop/web#data -> claim:PersistentVolumeClaim/shop/shared'), multi!.edges.join('\n'));
  assert.not.ok(multi!.edges.some((e) => e.includes('backup')), 'the CronJob is not part of the replicas finding');
  // Two workloads on one RWO claim: both chains, from each workload to the claim.
  const shared = graph.findings.find((f) => f.ruleId === 'rwo-claim-multi-node' && f !== multi);
  assert.ok(shared);
  assert.equal(shared!.edges.sort(), [
    'volume:CronJob/shop/backup#data -> claim:PersistentVolumeClaim/shop/shared',
    'volume:Deployment/shop/web#data -> claim:PersistentVolumeClaim/shop/shared',
    'workload:CronJob/shop/backup -> volume:CronJob/shop/backup#data',
    'workload:Deployment/shop/web -> volume:Deployment/shop/web#data',
  ]);
  const missing = graph.findings.find((f) => f.ruleId === 'pod-missing-pvc');
  assert.ok(missing);
  assert.equal(missing!.edges.sort(), [
    'volume:Deployment/shop/web#missing -> claim:PersistentVolumeClaim/shop/nowhere',
    'workload:Deployment/shop/web -> volume:Deployment/shop/web#missing',
  ]);
  const index = graph.findings.indexOf(missing!);
  assert.ok(graph.edges.find((e) => e.id === missing!.edges[0])!.findings.includes(index));
  assert.ok(graph.findings.every((f) => f.edges.every((id) => graph.edges.some((e) => e.id === id))));
});

build('a finding at a claim\'s storageClassName marks the claim → class edge (PVCs and claim templates)', () => {
  const template = graphOf(SHOP).findings.find((f) => f.ruleId === 'pvc-unknown-storageclass');
  assert.ok(template, 'the shop has a claim template of a class it does not define');
  assert.equal(template!.edges, ['claim:StatefulSet/data/db#pgdata -> class:gold']);
  const graph = graphOf(`apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: standard}
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: logs, namespace: app}
spec: {accessModes: [ReadWriteOnce], storageClassName: standrad, resources: {requests: {storage: 1Gi}}}
`, { bundleComplete: true });
  const typo = graph.findings.find((f) => f.ruleId === 'pvc-unknown-storageclass');
  assert.ok(typo, 'a claim of a misspelt class is reported');
  assert.equal(typo!.edges, ['claim:PersistentVolumeClaim/app/logs -> class:standrad']);
});

build('two definitions of one object in a scope are two nodes', () => {
  const pvc = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: logs, namespace: app}
spec: {accessModes: [ReadWriteOnce], storageClassName: x, resources: {requests: {storage: 1Gi}}}
`;
  const graph = graphOf(`${pvc}---\n${pvc}`);
  assert.equal(graph.nodes.filter((n) => n.type === 'claim').map((n) => n.id), [
    'claim:PersistentVolumeClaim/app/logs',
    'claim:PersistentVolumeClaim/app/logs#2',
  ]);
});

requires(build, HAS_KUSTOMIZE, 'graph of examples/kustomize/overlays/prod', 'neither kustomize nor kubectl is on PATH', 'install kubectl')('the examples\' prod overlay: the picture of the README', async () => {
  const collector = new GraphCollector();
  await lint({ paths: ['examples/kustomize/overlays/prod'], cwd: PROJECT_ROOT, onScope: collector.onScope });
  assert.is(collector.graphs.length, 1);
  const graph = collector.graphs[0];
  assert.is(graph.environment, 'examples/kustomize/overlays/prod');
  assert.equal(graph.nodes.map((n) => n.id).sort(), [
    'claim:PersistentVolumeClaim/uploads-prod/prod-uploads-data',
    'claim:PersistentVolumeClaim/uploads-prod/reports-archive',
    'class:StorageClass//prod-ebs-gp3',
    'volume:Deployment/uploads-prod/prod-uploads#data',
    'volume:Deployment/uploads-prod/prod-uploads#reports',
    'workload:Deployment/uploads-prod/prod-uploads',
  ]);
  assert.equal(node(graph, 'workload:Deployment/uploads-prod/prod-uploads').details, ['replicas: 3', 'RollingUpdate (maxSurge 1, maxUnavailable 0)', 'mesh: unknown']);
  const rules = (id: string) => graph.edges.find((e) => e.id === id)!.findings.map((i) => graph.findings[i].ruleId).sort();
  assert.equal(rules('workload:Deployment/uploads-prod/prod-uploads -> volume:Deployment/uploads-prod/prod-uploads#data'), ['rwo-claim-multi-node', 'rwo-update-overlap']);
  assert.equal(rules('volume:Deployment/uploads-prod/prod-uploads#data -> claim:PersistentVolumeClaim/uploads-prod/prod-uploads-data'), ['rwo-claim-multi-node', 'rwo-update-overlap']);
  assert.equal(rules('volume:Deployment/uploads-prod/prod-uploads#reports -> claim:PersistentVolumeClaim/uploads-prod/reports-archive'), ['pod-missing-pvc']);
  assert.ok(node(graph, 'claim:PersistentVolumeClaim/uploads-prod/reports-archive').external);
  assert.equal(graph.namespaces, [{ name: 'uploads-prod', external: true }]);
});

build.run();
