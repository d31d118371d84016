// Puts each finding of an environment on the nodes and edges it is about.
//
// A finding names its resource and a JSON path inside it, and carries related locations (the claim behind a
// workload's finding, the other workload sharing it, …). The path picks the element: a pod volume or a mount picks
// that volume's node, a claim template its claim node, `storageClassName` / `volumeName` / `claimRef` the edge to the
// class or volume; anything else the resource's node. Each related location is about an object too (the locate stage
// says which): its node. The edges the finding is about are the shortest connection in the picture between
// its element and each related node; a finding on a volume also marks the volume's own edges.
import type { StorageModel } from '../model/storage-model.js';
import { podTemplateOf } from '../model/pod-templates.js';
import type { Finding, FindingSubject, JsonPath, Resource } from '../types.js';
import type { EnvironmentGraph, GraphEdge } from './model.js';

/** Longest connection (in edges) drawn between a finding's element and a related node. */
const MAX_PATH = 5;

interface Anchor {
  nodes: string[];
  edges: string[];
}

/** The field a path names inside an object: `spec.<field>`, or an annotation key. */
function fieldOf(path: JsonPath): string | number | undefined {
  return path[0] === 'spec' ? path[1] : path[0] === 'metadata' && path[1] === 'annotations' ? path[2] : undefined;
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

export function placeFindings(graph: EnvironmentGraph, model: StorageModel, findings: readonly Finding[], byResource: ReadonlyMap<Resource, string>, subjectOf: (finding: Finding) => FindingSubject | undefined): void {
  const nodeIds = new Set(graph.nodes.map((n) => n.id));
  const edgesById = new Map(graph.edges.map((e) => [e.id, e]));
  const adjacency = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    for (const end of [edge.from, edge.to]) {
      const list = adjacency.get(end);
      if (list) list.push(edge);
      else adjacency.set(end, [edge]);
    }
  }
  // Indexed once: scanning every edge, node or resource per finding made placing findings quadratic.
  const outgoing = new Map<string, GraphEdge[]>();
  const incoming = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    (outgoing.get(edge.from) ?? outgoing.set(edge.from, []).get(edge.from)!).push(edge);
    (incoming.get(edge.to) ?? incoming.set(edge.to, []).get(edge.to)!).push(edge);
  }
  const edgesFrom = (id: string) => outgoing.get(id) ?? [];
  const edgesTo = (id: string) => incoming.get(id) ?? [];
  const nodesById = new Map(graph.nodes.map((n) => [n.id, n]));
  const nodesByRef = new Map<string, (typeof graph.nodes)[number]>();
  for (const node of graph.nodes) if (node.ref !== undefined && !nodesByRef.has(node.ref)) nodesByRef.set(node.ref, node);
  /** The node of a resource; an HPA stands for the workload it scales. */
  const nodeOfResource = (resource: Resource): string | undefined => {
    const id = byResource.get(resource);
    if (id) return id;
    if (resource.kind === 'HorizontalPodAutoscaler') {
      const target = resource.object?.spec?.scaleTargetRef;
      const ns = model.namespaceOf(resource) ?? '';
      const workload = nodesByRef.get(`${target?.kind}/${ns}/${target?.name}`);
      return workload?.id;
    }
    return undefined;
  };

  /** A claim (a PVC, or a claim template at its own path): its class or volume edge when the path is that field. */
  const claimAnchor = (nodeId: string, path: JsonPath): Anchor => {
    const field = fieldOf(path);
    const type = field === 'storageClassName' || field === 'volume.beta.kubernetes.io/storage-class' ? 'class' : field === 'volumeName' ? 'binds' : undefined;
    const edges = type ? edgesFrom(nodeId).filter((e) => e.type === type) : [];
    return { nodes: [nodeId, ...edges.map((e) => e.to)], edges: edges.map((e) => e.id) };
  };

  const anchorOf = (resource: Resource, path: JsonPath): Anchor => {
    const nodeId = nodeOfResource(resource);
    if (!nodeId) return { nodes: [], edges: [] };
    const template = podTemplateOf(resource);
    if (template) {
      const workloadKey = nodeId.slice('workload:'.length);
      const volumeNode = (name: string) => {
        const id = `volume:${workloadKey}#${name}`;
        return nodeIds.has(id) ? id : undefined;
      };
      if (startsWith(path, [...template.specPath, 'volumes']) && typeof path[template.specPath.length + 1] === 'number') {
        const volume = template.volumes.find((v) => v.index === path[template.specPath.length + 1]);
        const id = volume && volumeNode(volume.name);
        if (id) return { nodes: [id], edges: [] };
      }
      const use = template.uses.find((u) => startsWith(path, u.path));
      if (use) {
        const id = volumeNode(use.volumeName);
        if (id) return { nodes: [id], edges: [`${nodeId} -> ${id}`] };
      }
      if (startsWith(path, ['spec', 'volumeClaimTemplates']) && typeof path[2] === 'number') {
        const name = template.claimTemplates.find((t) => t.index === path[2])?.name;
        const id = `claim:${workloadKey}#${name}`;
        if (name !== undefined && nodeIds.has(id)) return claimAnchor(id, path.slice(3));
      }
      return { nodes: [nodeId], edges: [] };
    }
    if (resource.kind === 'PersistentVolumeClaim') return claimAnchor(nodeId, path);
    const field = fieldOf(path);
    if (resource.kind === 'PersistentVolume') {
      if (field === 'claimRef') {
        const edges = edgesTo(nodeId).filter((e) => e.type === 'binds');
        return { nodes: [nodeId, ...edges.map((e) => e.from)], edges: edges.map((e) => e.id) };
      }
      if (field === 'storageClassName' || field === 'volume.beta.kubernetes.io/storage-class') {
        const edges = edgesFrom(nodeId).filter((e) => e.type === 'class');
        return { nodes: [nodeId, ...edges.map((e) => e.to)], edges: edges.map((e) => e.id) };
      }
    }
    return { nodes: [nodeId], edges: [] };
  };

  /** Shortest connection between two sets of nodes, ignoring edge direction. */
  const connect = (from: readonly string[], to: string): string[] | undefined => {
    if (from.includes(to)) return [];
    const previous = new Map<string, { node: string; edge: string } | null>(from.map((id) => [id, null]));
    let frontier = [...from];
    for (let depth = 0; depth < MAX_PATH && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const id of frontier) {
        for (const edge of adjacency.get(id) ?? []) {
          const other = edge.from === id ? edge.to : edge.from;
          if (previous.has(other)) continue;
          previous.set(other, { node: id, edge: edge.id });
          if (other === to) {
            const path: string[] = [];
            for (let step = previous.get(to); step; step = previous.get(step.node)) path.push(step.edge);
            return path.reverse();
          }
          next.push(other);
        }
      }
      frontier = next;
    }
    return undefined;
  };

  for (const finding of findings) {
    const index = graph.findings.length;
    const nodes = new Set<string>();
    const edges = new Set<string>();
    const subject = subjectOf(finding);
    const resource = subject?.resource;
    const anchor = resource ? anchorOf(resource, finding.path ?? []) : { nodes: [], edges: [] };
    anchor.nodes.forEach((id) => nodes.add(id));
    anchor.edges.forEach((id) => edges.add(id));
    const anchorEnds = [...anchor.nodes];
    for (const other of subject?.related ?? []) {
      const otherId = other && nodeOfResource(other);
      if (!otherId || anchorEnds.length === 0) {
        if (otherId) nodes.add(otherId);
        continue;
      }
      if (nodes.has(otherId) && !anchorEnds.includes(otherId)) continue;
      const path = connect(anchorEnds, otherId);
      nodes.add(otherId);
      for (const edgeId of path ?? []) edges.add(edgeId);
    }
    // A finding about a volume (a pod volume entry or a mount) is about the volume's own connections.
    const volumeAnchor = anchor.nodes.find((id) => id.startsWith('volume:'));
    if (volumeAnchor) {
      for (const edge of adjacency.get(volumeAnchor) ?? []) edges.add(edge.id);
    }
    graph.findings.push({
      ruleId: finding.ruleId,
      severity: finding.severity,
      message: finding.message,
      location: finding.location,
      nodes: [...nodes],
      edges: [...edges],
    });
    for (const id of nodes) nodesById.get(id)?.findings.push(index);
    for (const id of edges) edgesById.get(id)?.findings.push(index);
  }
}
