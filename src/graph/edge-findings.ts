// Which findings some edge of a graph shows, computed once per graph: every node's label asks, and asking by scanning
// all edges for each node made the Mermaid, DOT and SVG pictures quadratic (8k claims took seconds, 60k never ended).
// Only for a graph whose findings are placed (placeFindings runs before any picture is drawn).
import type { EnvironmentGraph } from './model.js';

const memo = new WeakMap<EnvironmentGraph, ReadonlySet<number>>();

export function findingsOnEdges(graph: EnvironmentGraph): ReadonlySet<number> {
  let found = memo.get(graph);
  if (!found) {
    const set = new Set<number>();
    for (const edge of graph.edges) for (const index of edge.findings) set.add(index);
    memo.set(graph, (found = set));
  }
  return found;
}
