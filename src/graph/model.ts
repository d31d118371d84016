// The storage picture of one environment, independent of how it is drawn (Mermaid, DOT, SVG/HTML):
// workloads → volumes → claims → PersistentVolumes → StorageClasses, namespaces as groups, the findings on top.
import type { Severity, SourceLocation } from '../types.js';

/** Columns of the picture, left to right. */
export type NodeType = 'workload' | 'volume' | 'claim' | 'pv' | 'class';
export const NODE_TYPES: readonly NodeType[] = ['workload', 'volume', 'claim', 'pv', 'class'];

export interface GraphNode {
  /** Unique and stable within the environment (`workload:Deployment/shop/web`, `volume:Deployment/shop/web#data`, …). */
  id: string;
  type: NodeType;
  /** What the node is, as a reader says it: `Deployment`, `volume`, `PVC`, `claim template`, `PV`, `StorageClass`. */
  kind: string;
  name: string;
  /** Namespace group of namespaced nodes (workloads, volumes, claims); undefined for PVs and classes. */
  namespace?: string;
  /** Facts under the title: replicas, update strategy, mesh; access modes and size; provisioner, binding mode, … */
  details: string[];
  /** Referenced, but not in the bundle (drawn dashed); `note` says what is known. */
  external?: { note: string };
  /** `Kind/namespace/name` of the object the node stands for (namespace empty for cluster-scoped kinds). */
  ref?: string;
  /** Indices into `EnvironmentGraph.findings` of the findings about this node. */
  findings: number[];
}

export type EdgeType = 'mounts' | 'claim' | 'binds' | 'class';

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  type: EdgeType;
  /** Indices into `EnvironmentGraph.findings` of the findings about this edge. */
  findings: number[];
}

export interface GraphNamespace {
  name: string;
  /** The Namespace object is not in the bundle. */
  external: boolean;
}

export interface GraphFinding {
  ruleId: string;
  severity: Severity;
  message: string;
  location: SourceLocation;
  /** Node and edge ids the finding is about (empty when it could not be placed in the picture). */
  nodes: string[];
  edges: string[];
}

export interface EnvironmentGraph {
  environment: string;
  /** Loose manifests of one argument, or an environment a renderer produced. */
  kind: 'manifests' | 'kustomize' | 'helm' | 'flux' | 'argocd';
  nodes: GraphNode[];
  edges: GraphEdge[];
  namespaces: GraphNamespace[];
  findings: GraphFinding[];
  /** Set when `--focus` cut the picture down: the object it was cut around. */
  focus?: string;
}

/** The highest severity among the given findings, if any. */
export function worstSeverity(graph: EnvironmentGraph, indices: readonly number[]): Severity | undefined {
  let worst: Severity | undefined;
  const rank = { note: 1, warning: 2, error: 3 } as const;
  for (const index of indices) {
    const severity = graph.findings[index]?.severity;
    if (severity && (!worst || rank[severity] > rank[worst])) worst = severity;
  }
  return worst;
}

/** Distinct rule ids of the given findings, in order of first appearance. */
export function ruleIds(graph: EnvironmentGraph, indices: readonly number[]): string[] {
  return [...new Set(indices.map((i) => graph.findings[i]?.ruleId).filter((id): id is string => id !== undefined))];
}

/** The node's title line: `Deployment web`, `PVC data`. */
export function nodeTitle(node: GraphNode): string {
  return `${node.kind} ${node.name}`;
}
