// Puts each finding of an environment on the nodes and edges it is about.
//
// A finding names its resource and a JSON path inside it, and carries related locations (the claim behind a
// workload's finding, the other workload sharing it, …). The path picks the element: a pod volume or a mount picks
// that volume's node, a claim template its claim node, `storageClassName` / `volumeName` / `claimRef` the edge to the
// class or volume; anything else the resource's node. Related locations are mapped back to the environment's
// resources by file and line. The edges the finding is about are the shortest connection in the picture between
// its element and each related node; a finding on a volume also marks the volume's own edges.
import { locate } from '../locate/locate.js';
import type { StorageModel } from '../model/storage-model.js';
import { podTemplateOf } from '../model/pod-templates.js';
import type { Finding, JsonPath, Resource, SourceLocation } from '../types.js';
import type { EnvironmentGraph, GraphEdge } from './model.js';

/** Longest connection (in edges) drawn between a finding's element and a related node. */
const MAX_PATH = 5;

interface Anchor {
  nodes: string[];
  edges: string[];
}

interface Span {
  resource: Resource;
  file: string;
  start: number;
  /** Last line of the document, when known (plain manifests). */
  end?: number;
}

function line(location: SourceLocation): number {
  return location.region.startLine;
}

/** Where each resource's document starts (and ends, when known) in the files findings point into. */
function spansOf(resources: readonly Resource[]): Span[] {
  const spans: Span[] = [];
  for (const resource of resources) {
    if (!resource.locate && resource.node?.range) {
      const lc = resource.file.lineCounter;
      spans.push({ resource, file: resource.file.path, start: lc.linePos(resource.node.range[0]).line, end: lc.linePos(resource.node.range[2] ?? resource.node.range[1]).line });
      continue;
    }
    for (const path of [[], ['metadata'], ['apiVersion']] as JsonPath[]) {
      try {
        const at = locate(resource, path).location;
        spans.push({ resource, file: at.file, start: line(at) });
      } catch {
        // A locator that cannot place the document: the resource is only found through `Finding.resource`.
      }
    }
  }
  return spans;
}

/** The resource whose document holds a location: the containing document, else the nearest one starting above it. */
function resourceAt(spans: readonly Span[], location: SourceLocation): Resource | undefined {
  const at = line(location);
  const inFile = spans.filter((s) => s.file === location.file && s.start <= at);
  const containing = inFile.find((s) => s.end !== undefined && at <= s.end);
  if (containing) return containing.resource;
  let best: Span | undefined;
  for (const span of inFile) if (span.end === undefined && (!best || span.start > best.start)) best = span;
  return best?.resource;
}

/** The field a path names inside an object: `spec.<field>`, or an annotation key. */
function fieldOf(path: JsonPath): string | number | undefined {
  return path[0] === 'spec' ? path[1] : path[0] === 'metadata' && path[1] === 'annotations' ? path[2] : undefined;
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

export function placeFindings(graph: EnvironmentGraph, model: StorageModel, findings: readonly Finding[], byResource: ReadonlyMap<Resource, string>): void {
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
  const resourcesByIdentity = new Map<string, Resource[]>();
  for (const r of model.resources) {
    const identity = `${r.kind}\u0000${r.namespace ?? ''}\u0000${r.namespace === undefined ? 'u' : 'd'}\u0000${r.name}`;
    (resourcesByIdentity.get(identity) ?? resourcesByIdentity.set(identity, []).get(identity)!).push(r);
  }
  const spans = spansOf(model.resources);

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

  const findResource = (finding: Finding): Resource | undefined => {
    const ref = finding.resource;
    if (!ref) return undefined;
    const matches = resourcesByIdentity.get(`${ref.kind}\u0000${ref.namespace ?? ''}\u0000${ref.namespace === undefined ? 'u' : 'd'}\u0000${ref.name}`) ?? [];
    return matches.find((r) => finding.location.file === locate(r, finding.path ?? []).location.file) ?? matches[0];
  };

  for (const finding of findings) {
    const index = graph.findings.length;
    const nodes = new Set<string>();
    const edges = new Set<string>();
    const resource = findResource(finding);
    const anchor = resource ? anchorOf(resource, finding.path ?? []) : { nodes: [], edges: [] };
    anchor.nodes.forEach((id) => nodes.add(id));
    anchor.edges.forEach((id) => edges.add(id));
    const anchorEnds = [...anchor.nodes];
    for (const related of finding.related) {
      const other = resourceAt(spans, related.location);
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
