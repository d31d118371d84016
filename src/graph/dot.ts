// Graphviz DOT of every environment's picture: one digraph, one cluster per environment, namespaces as nested
// clusters. `dot -Tsvg pvlint.dot > pvlint.svg` draws it.
import { NODE_TYPES, nodeTitle, ruleIds, worstSeverity, type EnvironmentGraph, type GraphNode, type NodeType } from './model.js';
import { findingsOnEdges } from './edge-findings.js';

/** A DOT double-quoted string: `\` and `"` escaped, line breaks as `\n` (centred lines). */
export function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

const SHAPE: Record<NodeType, string> = {
  workload: 'box',
  volume: 'box',
  claim: 'cylinder',
  pv: 'cylinder',
  class: 'hexagon',
};

const COLOR = { error: '#cf222e', warning: '#bf8700', note: '#0969da' } as const;

function nodeAttributes(node: GraphNode, graph: EnvironmentGraph): string {
  const onEdges = findingsOnEdges(graph);
  const own = node.findings.filter((i) => !onEdges.has(i));
  const lines = [nodeTitle(node), ...node.details];
  if (node.external) lines.push(`(${node.external.note})`);
  if (own.length > 0) lines.push(`⚠ ${ruleIds(graph, own).join(', ')}`);
  const attributes = [`label=${dotString(lines.join('\n'))}`, `shape=${SHAPE[node.type]}`];
  const style = [node.type === 'volume' ? 'rounded' : undefined, node.external ? 'dashed' : undefined, 'filled'].filter(Boolean);
  attributes.push(`style=${dotString(style.join(','))}`, `fillcolor=${dotString(node.external ? '#f6f8fa' : '#ffffff')}`);
  const severity = worstSeverity(graph, node.findings);
  if (severity) attributes.push(`color=${dotString(COLOR[severity])}`, 'penwidth=2');
  return attributes.join(', ');
}

export function toDot(graphs: readonly EnvironmentGraph[]): string {
  const out = [
    'digraph pvlint {',
    '  rankdir=LR;',
    '  compound=true;',
    '  node [fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  graphs.forEach((graph, g) => {
    const prefix = `e${g + 1}`;
    const ids = new Map<string, string>();
    const order = [...graph.nodes].sort((a, b) => NODE_TYPES.indexOf(a.type) - NODE_TYPES.indexOf(b.type));
    order.forEach((node, i) => ids.set(node.id, `${prefix}n${i + 1}`));
    out.push(`  subgraph cluster_${prefix} {`);
    out.push(`    label=${dotString(`environment ${graph.environment}${graph.focus ? ` (focus ${graph.focus})` : ''}`)};`);
    out.push('    style="rounded"; color="#8c959f";');
    if (graph.nodes.length === 0) out.push(`    ${prefix}_empty [label=${dotString('no workloads, claims, volumes or classes')}, shape=plaintext];`);
    graph.namespaces.forEach((ns, i) => {
      out.push(`    subgraph cluster_${prefix}g${i + 1} {`);
      out.push(`      label=${dotString(`namespace ${ns.name}${ns.external ? ' (not in the repo)' : ''}`)};`);
      out.push(`      style=${dotString(ns.external ? 'dashed,rounded' : 'rounded')}; color="#57606a";`);
      for (const node of order) if (node.namespace === ns.name) out.push(`      ${ids.get(node.id)} [${nodeAttributes(node, graph)}];`);
      out.push('    }');
    });
    for (const node of order) if (node.namespace === undefined) out.push(`    ${ids.get(node.id)} [${nodeAttributes(node, graph)}];`);
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    for (const edge of graph.edges) {
      const attributes: string[] = [];
      const rules = ruleIds(graph, edge.findings);
      if (rules.length > 0) {
        const severity = worstSeverity(graph, edge.findings)!;
        attributes.push(`label=${dotString(rules.join('\n'))}`, `color=${dotString(COLOR[severity])}`, `fontcolor=${dotString(COLOR[severity])}`, 'penwidth=3');
      } else if (byId.get(edge.from)?.external || byId.get(edge.to)?.external) {
        attributes.push('style=dashed', 'color="#8c959f"');
      }
      out.push(`    ${ids.get(edge.from)} -> ${ids.get(edge.to)}${attributes.length > 0 ? ` [${attributes.join(', ')}]` : ''};`);
    }
    out.push('  }');
  });
  out.push('}');
  return `${out.join('\n')}\n`;
}
