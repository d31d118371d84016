// --focus: parsing `kind/namespace/name` and cutting the picture down to what is connected to one object.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { focusGraph, parseFocus } from '../../src/graph/focus.js';
import type { EnvironmentGraph } from '../../src/graph/model.js';
import { SHOP } from './fixtures.js';
import { graphOf } from './helpers.js';

const focus = suite('graph: focus');

function cut(graph: EnvironmentGraph, text: string): string[] | undefined {
  const target = parseFocus(text);
  if (!target) throw new Error(`does not parse: ${text}`);
  return focusGraph(graph, target)?.nodes.map((n) => n.id).sort();
}

focus('parses kind/namespace/name and kind/name, with kubectl short names, case-insensitive kinds', () => {
  assert.equal(parseFocus('deploy/shop/web'), { kind: 'deployment', namespace: 'shop', name: 'web', text: 'deploy/shop/web' });
  assert.equal(parseFocus('PVC/shop/data'), { kind: 'persistentvolumeclaim', namespace: 'shop', name: 'data', text: 'PVC/shop/data' });
  assert.equal(parseFocus('sc/gp3'), { kind: 'storageclass', name: 'gp3', text: 'sc/gp3' });
  assert.equal(parseFocus('StorageClass//gp3'), { kind: 'storageclass', namespace: '', name: 'gp3', text: 'StorageClass//gp3' });
  assert.equal(parseFocus('ns/shop'), { kind: 'namespace', name: 'shop', text: 'ns/shop' });
  for (const bad of ['web', '', 'a/b/c/d', '/web', 'deploy/', 'deploy/shop/', 'ns/a/b']) assert.is(parseFocus(bad), undefined, bad);
});

focus('a workload: its chain down to the class, and the other workloads sharing its claims', () => {
  const graph = graphOf(SHOP);
  assert.equal(cut(graph, 'deploy/shop/web'), [
    'claim:PersistentVolumeClaim/shop/nowhere',
    'claim:PersistentVolumeClaim/shop/shared',
    'class:StorageClass//fast',
    'volume:CronJob/shop/backup#data',
    'volume:Deployment/shop/web#data',
    'volume:Deployment/shop/web#missing',
    'volume:Deployment/shop/web#scratch',
    'workload:CronJob/shop/backup',
    'workload:Deployment/shop/web',
  ]);
  assert.equal(cut(graph, 'deployment/web'), cut(graph, 'deploy/shop/web'), 'without a namespace: any namespace');
});

focus('a claim: who mounts it, and what it binds; a class: everything it provisions', () => {
  const graph = graphOf(SHOP);
  assert.equal(cut(graph, 'pvc/data/archive'), ['claim:PersistentVolumeClaim/data/archive', 'pv:PersistentVolume//nfs-archive']);
  assert.equal(cut(graph, 'pv/nfs-archive'), ['claim:PersistentVolumeClaim/data/archive', 'pv:PersistentVolume//nfs-archive']);
  assert.equal(cut(graph, 'sc/fast'), [
    'claim:PersistentVolumeClaim/shop/shared',
    'class:StorageClass//fast',
    'volume:CronJob/shop/backup#data',
    'volume:Deployment/shop/web#data',
    'workload:CronJob/shop/backup',
    'workload:Deployment/shop/web',
  ]);
});

focus('a namespace: everything in it and what it uses', () => {
  const graph = graphOf(SHOP);
  assert.equal(cut(graph, 'ns/data'), [
    'claim:PersistentVolumeClaim/data/archive',
    'claim:StatefulSet/data/db#pgdata',
    'class:gold',
    'pv:PersistentVolume//nfs-archive',
    'volume:StatefulSet/data/db#pgdata',
    'workload:StatefulSet/data/db',
  ]);
});

focus('no such object: undefined; findings outside the cut are dropped and renumbered', () => {
  const graph = graphOf(SHOP);
  assert.is(focusGraph(graph, parseFocus('deploy/shop/nothing')!), undefined);
  assert.is(focusGraph(graph, parseFocus('statefulset/shop/db')!), undefined, 'wrong namespace');
  const cutGraph = focusGraph(graph, parseFocus('sts/data/db')!)!;
  assert.is(cutGraph.focus, 'sts/data/db');
  assert.equal(cutGraph.namespaces.map((n) => n.name), ['data']);
  assert.ok(cutGraph.findings.length > 0 && cutGraph.findings.length < graph.findings.length);
  assert.ok(cutGraph.findings.every((f) => f.nodes.length + f.edges.length > 0));
  for (const item of [...cutGraph.nodes, ...cutGraph.edges]) {
    for (const i of item.findings) assert.ok(cutGraph.findings[i], `finding index ${i} of ${item.id}`);
  }
  assert.not.ok(cutGraph.findings.some((f) => f.ruleId === 'pod-missing-pvc'), 'the web Deployment\'s finding is not in the cut');
});

focus.run();
