// `--focus <kind/namespace/name>`: cut a picture down to what is connected to one object.
//
// "Connected" follows the storage chain both ways from the object: down to the volumes, claims, PVs and classes it
// uses, up to the workloads that use it, and, for every claim or PV on the way down, up again to the other
// workloads sharing that claim or PV (who else writes to my disk?). It does not go up from a StorageClass reached on
// the way down: every claim of a shared class would pull in half the cluster.
import type { EnvironmentGraph, GraphNode } from './model.js';
import { ownEntry } from '../engine/own-entry.js';

const KIND_ALIASES: Record<string, string> = {
  po: 'pod', pods: 'pod',
  deploy: 'deployment', deployments: 'deployment',
  sts: 'statefulset', statefulsets: 'statefulset',
  ds: 'daemonset', daemonsets: 'daemonset',
  rs: 'replicaset', replicasets: 'replicaset',
  rc: 'replicationcontroller', replicationcontrollers: 'replicationcontroller',
  jobs: 'job',
  cj: 'cronjob', cronjobs: 'cronjob',
  rollouts: 'rollout',
  pvc: 'persistentvolumeclaim', pvcs: 'persistentvolumeclaim', persistentvolumeclaims: 'persistentvolumeclaim',
  pv: 'persistentvolume', pvs: 'persistentvolume', persistentvolumes: 'persistentvolume',
  sc: 'storageclass', storageclasses: 'storageclass',
  ns: 'namespace', namespaces: 'namespace',
};

export interface FocusTarget {
  /** Lower-case kind, aliases resolved (`pvc` → `persistentvolumeclaim`). */
  kind: string;
  /** Undefined when not given (`kind/name`): any namespace, or a cluster-scoped object. */
  namespace?: string;
  name: string;
  /** As the user wrote it. */
  text: string;
}

/** Parses `kind/namespace/name` or `kind/name`; undefined when malformed. */
export function parseFocus(text: string): FocusTarget | undefined {
  const parts = text.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p, i) => p === '' && !(parts.length === 3 && i === 1))) return undefined;
  const rawKind = parts[0].toLowerCase();
  const kind = ownEntry(KIND_ALIASES, rawKind) ?? rawKind;
  if (kind === 'namespace' && parts.length !== 2) return undefined;
  return parts.length === 3 ? { kind, namespace: parts[1], name: parts[2], text } : { kind, name: parts[1], text };
}

function matches(node: GraphNode, target: FocusTarget): boolean {
  if (target.kind === 'namespace') return node.namespace === target.name;
  if (!node.ref) return false;
  const [kind, namespace, ...rest] = node.ref.split('/');
  const name = rest.join('/');
  if (kind.toLowerCase() !== target.kind || name !== target.name) return false;
  return target.namespace === undefined || target.namespace === namespace;
}

/** The picture cut down to `target`, or undefined when the environment holds no such object. */
export function focusGraph(graph: EnvironmentGraph, target: FocusTarget): EnvironmentGraph | undefined {
  const start = graph.nodes.filter((n) => matches(n, target)).map((n) => n.id);
  if (start.length === 0) return undefined;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const next = { forward: new Map<string, string[]>(), backward: new Map<string, string[]>() };
  for (const edge of graph.edges) {
    next.forward.set(edge.from, [...(next.forward.get(edge.from) ?? []), edge.to]);
    next.backward.set(edge.to, [...(next.backward.get(edge.to) ?? []), edge.from]);
  }
  const closure = (from: readonly string[], forward: boolean): Set<string> => {
    const seen = new Set(from);
    const queue = [...from];
    const step = forward ? next.forward : next.backward;
    for (let i = 0; i < queue.length; i++) {
      for (const there of step.get(queue[i]) ?? []) {
        if (seen.has(there)) continue;
        seen.add(there);
        queue.push(there);
      }
    }
    return seen;
  };
  const down = closure(start, true);
  const up = closure(start, false);
  const shared = [...down].filter((id) => !start.includes(id) && ['claim', 'pv'].includes(byId.get(id)!.type));
  const sharers = closure(shared, false);
  // Other consumers of a shared claim: their own volumes, claims, PVs and classes too.
  const sharerStorage = closure([...sharers].filter((id) => byId.get(id)!.type === 'workload'), true);
  const keep = new Set([...down, ...up, ...sharers, ...sharerStorage]);

  const edges = graph.edges.filter((e) => keep.has(e.from) && keep.has(e.to));
  const nodes = graph.nodes.filter((n) => keep.has(n.id));
  const keptEdges = new Set(edges.map((e) => e.id));
  // Findings that touch what is left, renumbered.
  const renumber = new Map<number, number>();
  const findings = graph.findings.flatMap((f, i) => {
    const touches = f.nodes.some((id) => keep.has(id)) || f.edges.some((id) => keptEdges.has(id));
    if (!touches) return [];
    renumber.set(i, renumber.size);
    return [{ ...f, nodes: f.nodes.filter((id) => keep.has(id)), edges: f.edges.filter((id) => keptEdges.has(id)) }];
  });
  const remap = (list: readonly number[]) => list.flatMap((i) => (renumber.has(i) ? [renumber.get(i)!] : []));
  const namespaces = new Set(nodes.map((n) => n.namespace).filter((ns): ns is string => ns !== undefined));
  return {
    ...graph,
    nodes: nodes.map((n) => ({ ...n, findings: remap(n.findings) })),
    edges: edges.map((e) => ({ ...e, findings: remap(e.findings) })),
    namespaces: graph.namespaces.filter((ns) => namespaces.has(ns.name)),
    findings,
    focus: target.text,
  };
}
