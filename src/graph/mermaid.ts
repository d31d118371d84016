// Mermaid flowchart text of an environment's picture, as GitHub renders it in Markdown (```mermaid blocks in PR
// comments, issues and job summaries).
//
// Safety of names: node and subgraph ids are generated (`n1`, `g1`), never derived from object names, so no name can
// collide with Mermaid keywords (`end`, `graph`, …) or break the syntax. Every label is a quoted string in which
// Mermaid's entity codes replace the characters that could end the string or be read as markup or an entity:
// `"` `#` `&` `<` `>` `` ` `` `|` and `:` before a non-space (Mermaid's pre-parser treats `style…:…#…;` specially).
// Line breaks inside labels are `<br/>`, which GitHub's Mermaid renders.
import { NODE_TYPES, nodeTitle, ruleIds, worstSeverity, type EnvironmentGraph, type GraphNode, type NodeType } from './model.js';
import { findingsOnEdges } from './edge-findings.js';

/** Mermaid's default `maxTextSize` (GitHub shows an error above it) and `maxEdges`, with some room to spare. */
export const MERMAID_MAX_TEXT = 45_000;
export const MERMAID_MAX_EDGES = 450;

const MAX_LABEL_CHARS = 60;

/** Escapes text for a quoted Mermaid label. */
export function mermaidText(text: string): string {
  let out = '';
  const chars = [...text.replace(/[\r\n\t]+/g, ' ')];
  chars.forEach((ch, i) => {
    const code = ch.codePointAt(0)!;
    if (ch === '"' || ch === '#' || ch === '&' || ch === '<' || ch === '>' || ch === '`' || ch === '|' || ch === '\\') out += `#${code};`;
    else if (ch === ':' && chars[i + 1] !== undefined && chars[i + 1] !== ' ') out += '#58;';
    else if (code < 0x20 || code === 0x7f) out += ' ';
    else out += ch;
  });
  return out;
}

function clip(text: string): string {
  const chars = [...text];
  return chars.length > MAX_LABEL_CHARS ? `${chars.slice(0, MAX_LABEL_CHARS - 1).join('')}…` : text;
}

/** Shapes by column: workloads rectangles, volumes stadiums, claims and PVs cylinders, classes hexagons. */
const SHAPE: Record<NodeType, [string, string]> = {
  workload: ['[', ']'],
  volume: ['([', '])'],
  claim: ['[(', ')]'],
  pv: ['[(', ')]'],
  class: ['{{', '}}'],
};

function label(node: GraphNode, graph: EnvironmentGraph): string {
  const lines = [`<b>${mermaidText(clip(nodeTitle(node)))}</b>`, ...node.details.map((d) => mermaidText(clip(d)))];
  if (node.external) lines.push(`<i>${mermaidText(node.external.note)}</i>`);
  // Findings that no edge shows are listed on the node itself.
  const onEdges = findingsOnEdges(graph);
  const own = node.findings.filter((i) => !onEdges.has(i));
  if (own.length > 0) lines.push(`⚠ ${mermaidText(ruleIds(graph, own).join(', '))}`);
  return lines.join('<br/>');
}

export interface MermaidOptions {
  /** Prepend a `%%` comment line naming the environment. */
  title?: boolean;
}

/** One `flowchart LR` for the environment. */
export function toMermaid(graph: EnvironmentGraph, options: MermaidOptions = {}): string {
  const lines: string[] = [];
  if (options.title) lines.push(`%% pvlint storage graph: ${graph.environment.replace(/[\r\n]+/g, ' ')}${graph.focus ? ` (focus ${graph.focus})` : ''}`);
  lines.push('flowchart LR');
  if (graph.nodes.length === 0) {
    lines.push(`  empty["${mermaidText(`${graph.environment}: no workloads, claims, volumes or classes`)}"]`);
    return `${lines.join('\n')}\n`;
  }
  const ids = new Map<string, string>();
  const order = [...graph.nodes].sort((a, b) => NODE_TYPES.indexOf(a.type) - NODE_TYPES.indexOf(b.type));
  order.forEach((node, i) => ids.set(node.id, `n${i + 1}`));
  const nodeLine = (node: GraphNode, indent: string) => {
    const [open, close] = SHAPE[node.type];
    return `${indent}${ids.get(node.id)}${open}"${label(node, graph)}"${close}`;
  };
  graph.namespaces.forEach((ns, i) => {
    lines.push(`  subgraph g${i + 1}["${mermaidText(`namespace ${ns.name}${ns.external ? ' (not in the repo)' : ''}`)}"]`);
    for (const node of order) if (node.namespace === ns.name) lines.push(nodeLine(node, '    '));
    lines.push('  end');
  });
  for (const node of order) if (node.namespace === undefined) lines.push(nodeLine(node, '  '));

  const highlighted: number[] = [];
  const dashed: number[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  graph.edges.forEach((edge, i) => {
    const from = ids.get(edge.from)!;
    const to = ids.get(edge.to)!;
    const rules = ruleIds(graph, edge.findings);
    if (rules.length > 0) {
      lines.push(`  ${from} ==>|"${mermaidText(rules.join(', '))}"| ${to}`);
      highlighted.push(i);
    } else if (byId.get(edge.to)?.external || byId.get(edge.from)?.external) {
      lines.push(`  ${from} -.-> ${to}`);
      dashed.push(i);
    } else {
      lines.push(`  ${from} --> ${to}`);
    }
  });

  lines.push('  classDef external stroke-dasharray: 5 5,fill:#f6f8fa,color:#57606a');
  lines.push('  classDef error stroke:#cf222e,stroke-width:3px');
  lines.push('  classDef warning stroke:#bf8700,stroke-width:3px');
  lines.push('  classDef note stroke:#0969da,stroke-width:2px');
  const classes = new Map<string, string[]>();
  for (const node of order) {
    const names: string[] = [];
    if (node.external) names.push('external');
    const severity = worstSeverity(graph, node.findings);
    if (severity) names.push(severity);
    if (names.length > 0) {
      const key = names.join(',');
      classes.set(key, [...(classes.get(key) ?? []), ids.get(node.id)!]);
    }
  }
  for (const [names, members] of classes) lines.push(`  class ${members.join(',')} ${names}`);
  graph.namespaces.forEach((ns, i) => {
    if (ns.external) lines.push(`  style g${i + 1} stroke-dasharray: 5 5`);
  });
  const bySeverity = new Map<string, number[]>();
  for (const i of highlighted) {
    const severity = worstSeverity(graph, graph.edges[i].findings) ?? 'note';
    bySeverity.set(severity, [...(bySeverity.get(severity) ?? []), i]);
  }
  const color = { error: '#cf222e', warning: '#bf8700', note: '#0969da' } as Record<string, string>;
  for (const [severity, list] of bySeverity) lines.push(`  linkStyle ${list.join(',')} stroke:${color[severity]},stroke-width:3px`);
  if (dashed.length > 0) lines.push(`  linkStyle ${dashed.join(',')} stroke:#8c959f`);
  return `${lines.join('\n')}\n`;
}

/** Whether GitHub would refuse to draw the text (too long, too many edges). */
export function tooLargeForGithub(mermaid: string, graph: EnvironmentGraph): boolean {
  return mermaid.length > MERMAID_MAX_TEXT || graph.edges.length > MERMAID_MAX_EDGES;
}
