// An environment's picture as SVG, laid out here (no layout engine, no browser-side renderer): one column per node
// type (workloads, volumes, claims, PVs, StorageClasses; empty columns left out), namespaces as boxes around their
// workloads, volumes and claims, stacked top to bottom; cluster-scoped PVs and classes to the right, each placed at
// the height of what uses it. Edges are curves from a node's right side to the next node's left side. Every node and
// edge carries `data-id` and `data-findings` (indices into the environment's findings) for the HTML page's script.
import { NODE_TYPES, nodeTitle, ruleIds, worstSeverity, type EnvironmentGraph, type GraphEdge, type GraphNode, type NodeType } from './model.js';
import { appendAll, maxOf } from '../engine/append.js';
import { findingsOnEdges } from './edge-findings.js';

const NODE_WIDTH = 220;
const COLUMN_GAP = 150;
const NODE_GAP = 14;
const MARGIN = 16;
const HEADER = 28;
const GROUP_PAD = 14;
const GROUP_TITLE = 22;
const GROUP_GAP = 22;
const TITLE_LINE = 17;
const DETAIL_LINE = 14;
const NODE_PAD = 8;
const TITLE_CHARS = 30;
const DETAIL_CHARS = 35;
/** Edge labels may reach a little into the nodes on either side (they are drawn on top). */
const LABEL_CHARS = 31;
const LABEL_CHAR_WIDTH = 6.7;

const COLUMN_TITLES: Record<NodeType, string> = {
  workload: 'Workloads',
  volume: 'Volumes',
  claim: 'Claims',
  pv: 'PersistentVolumes',
  class: 'StorageClasses',
};

export const SEVERITY_COLORS = { error: '#cf222e', warning: '#9a6700', note: '#0969da' } as const;

/** Escapes text for SVG/HTML character data and attribute values. */
export function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
}

interface Box {
  node: GraphNode;
  x: number;
  y: number;
  height: number;
  lines: string[];
}

/** Wraps a detail line at spaces into at most two lines of `max` characters; the rest is clipped. */
function wrap(text: string, max: number): string[] {
  if ([...text].length <= max) return [text];
  const cut = text.lastIndexOf(' ', max);
  if (cut <= max / 3) return [clip(text, max)];
  return [text.slice(0, cut), clip(text.slice(cut + 1), max)];
}

function linesOf(node: GraphNode, graph: EnvironmentGraph, onEdges: ReadonlySet<number>): string[] {
  const lines = node.details.flatMap((d) => wrap(d, DETAIL_CHARS));
  if (node.external) lines.push(node.external.note);
  const own = node.findings.filter((i) => !onEdges.has(i));
  if (own.length > 0) lines.push(`⚠ ${ruleIds(graph, own).join(', ')}`);
  return lines;
}

export interface SvgPicture {
  svg: string;
  width: number;
  height: number;
}

/** Places `items` top-down in order, each as close to its wanted top as the ones above allow. */
function stack(items: { box: Box; want: number }[], top: number): number {
  let next = top;
  for (const { box, want } of items) {
    box.y = Math.max(next, want);
    next = box.y + box.height + NODE_GAP;
  }
  return next - NODE_GAP;
}

const center = (box: Box) => box.y + box.height / 2;

export function toSvg(graph: EnvironmentGraph, options: { idPrefix?: string } = {}): SvgPicture {
  const prefix = options.idPrefix ?? 'g';
  const onEdges = findingsOnEdges(graph);
  const columns = NODE_TYPES.filter((type) => graph.nodes.some((n) => n.type === type));
  const columnX = new Map(columns.map((type, i) => [type, MARGIN + GROUP_PAD + i * (NODE_WIDTH + COLUMN_GAP)]));
  const boxes = new Map<string, Box>();
  for (const node of graph.nodes) {
    const lines = linesOf(node, graph, onEdges);
    boxes.set(node.id, { node, x: columnX.get(node.type)!, y: 0, height: NODE_PAD * 2 + TITLE_LINE + lines.length * DETAIL_LINE, lines });
  }
  const incoming = new Map<string, GraphEdge[]>();
  const outgoing = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    incoming.set(edge.to, [...(incoming.get(edge.to) ?? []), edge]);
    outgoing.set(edge.from, [...(outgoing.get(edge.from) ?? []), edge]);
  }
  const byName = (a: GraphNode, b: GraphNode) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
  const wantFromLeft = (box: Box, fallback: number) => {
    const sources = (incoming.get(box.node.id) ?? []).map((e) => boxes.get(e.from)!).filter((b) => b.y > 0 || b.node.type === 'workload');
    if (sources.length === 0) return fallback;
    return sources.reduce((sum, b) => sum + center(b), 0) / sources.length - box.height / 2;
  };

  // Namespace blocks: workloads with their volumes in bands, claims next to the volumes that use them.
  const groups: { name: string; external: boolean; top: number; bottom: number }[] = [];
  let top = MARGIN + HEADER;
  const hasNamespaced = graph.namespaces.length > 0;
  for (const ns of graph.namespaces) {
    const members = graph.nodes.filter((n) => n.namespace === ns.name);
    const blockTop = top + GROUP_TITLE;
    let bottom = blockTop;
    const placed = new Set<string>();
    let band = blockTop;
    for (const workload of members.filter((n) => n.type === 'workload').sort(byName)) {
      const box = boxes.get(workload.id)!;
      box.y = band;
      placed.add(workload.id);
      const volumes = (outgoing.get(workload.id) ?? []).map((e) => boxes.get(e.to)!).filter((b) => b.node.type === 'volume' && !placed.has(b.node.id));
      volumes.forEach((b) => placed.add(b.node.id));
      const volumesBottom = stack(volumes.map((b) => ({ box: b, want: band })), band);
      band = Math.max(box.y + box.height, volumesBottom) + NODE_GAP;
    }
    const looseVolumes = members.filter((n) => n.type === 'volume' && !placed.has(n.id)).sort(byName);
    band = stack(looseVolumes.map((n) => ({ box: boxes.get(n.id)!, want: band })), band) + NODE_GAP;
    bottom = Math.max(bottom, band - NODE_GAP);
    const claims = members.filter((n) => n.type === 'claim').map((n) => {
      const box = boxes.get(n.id)!;
      return { box, want: wantFromLeft(box, Number.MAX_SAFE_INTEGER) };
    });
    claims.sort((a, b) => a.want - b.want || byName(a.box.node, b.box.node));
    let next = blockTop;
    for (const claim of claims) next = stack([{ box: claim.box, want: claim.want === Number.MAX_SAFE_INTEGER ? next : claim.want }], next) + NODE_GAP;
    const claimBottom = next - NODE_GAP;
    bottom = Math.max(bottom, claimBottom);
    groups.push({ name: ns.name, external: ns.external, top, bottom: bottom + GROUP_PAD });
    top = bottom + GROUP_PAD + GROUP_GAP;
  }

  // Cluster-scoped columns: each PV, then each class, at the height of what points at it.
  const namespacedBottom = hasNamespaced ? top - GROUP_GAP : MARGIN + HEADER;
  let overallBottom = namespacedBottom;
  for (const type of ['pv', 'class'] as const) {
    const items = graph.nodes.filter((n) => n.type === type).map((n) => {
      const box = boxes.get(n.id)!;
      return { box, want: wantFromLeft(box, Number.MAX_SAFE_INTEGER) };
    });
    items.sort((a, b) => a.want - b.want || byName(a.box.node, b.box.node));
    let next = MARGIN + HEADER + (hasNamespaced ? GROUP_TITLE : 0);
    for (const item of items) {
      const want = item.want === Number.MAX_SAFE_INTEGER ? next : item.want;
      next = stack([{ box: item.box, want }], next) + NODE_GAP;
    }
    overallBottom = Math.max(overallBottom, next - NODE_GAP);
  }

  const width = MARGIN * 2 + GROUP_PAD * 2 + columns.length * NODE_WIDTH + Math.max(0, columns.length - 1) * COLUMN_GAP;
  const height = Math.max(overallBottom + MARGIN, MARGIN + HEADER + 60);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="pvlint-graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${xml(`storage graph of ${graph.environment}`)}">`,
    `<title>${xml(`storage graph of ${graph.environment}`)}</title>`,
    '<defs>',
    ...(['plain', 'error', 'warning', 'note'] as const).map((kind) =>
      `<marker id="${prefix}-arrow-${kind}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="${kind === 'plain' ? 9 : 12}" markerHeight="${kind === 'plain' ? 9 : 12}" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${kind === 'plain' ? '#6e7781' : SEVERITY_COLORS[kind]}"/></marker>`),
    '</defs>',
  );
  for (const type of columns) {
    parts.push(`<text class="column-title" x="${columnX.get(type)! + NODE_WIDTH / 2}" y="${MARGIN + 14}" text-anchor="middle">${COLUMN_TITLES[type]}</text>`);
  }
  const groupRight = columns.filter((t) => t === 'workload' || t === 'volume' || t === 'claim').length;
  for (const group of groups) {
    const x = MARGIN;
    const w = GROUP_PAD * 2 + groupRight * NODE_WIDTH + Math.max(0, groupRight - 1) * COLUMN_GAP;
    parts.push(
      `<g class="namespace${group.external ? ' external' : ''}" data-namespace="${xml(group.name)}">`,
      `<rect x="${x}" y="${group.top}" width="${w}" height="${group.bottom - group.top}" rx="8"/>`,
      `<text x="${x + 10}" y="${group.top + 16}">${xml(clip(`namespace ${group.name}${group.external ? ' (not in the repo)' : ''}`, 70))}</text>`,
      '</g>',
    );
  }
  // Edges under nodes; highlighted ones last so they are drawn on top of plain ones.
  const edges = [...graph.edges].sort((a, b) => (a.findings.length > 0 ? 1 : 0) - (b.findings.length > 0 ? 1 : 0));
  const labels: string[] = [];
  for (const edge of edges) {
    const from = boxes.get(edge.from)!;
    const to = boxes.get(edge.to)!;
    const x1 = from.x + NODE_WIDTH;
    const y1 = center(from);
    const x2 = to.x - 2;
    const y2 = center(to);
    const dx = Math.max(30, (x2 - x1) / 2);
    const severity = worstSeverity(graph, edge.findings);
    const external = from.node.external || to.node.external;
    const classes = ['edge', `edge-${edge.type}`, severity ? `finding ${severity}` : '', external ? 'external' : ''].filter(Boolean).join(' ');
    parts.push(
      `<g class="${classes}" data-id="${xml(edge.id)}" data-findings="${edge.findings.join(' ')}">`,
      `<path d="M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}" marker-end="url(#${prefix}-arrow-${severity ?? 'plain'})"/>`,
      '</g>',
    );
    if (severity) {
      const rules = ruleIds(graph, edge.findings).map((rule) => clip(rule, LABEL_CHARS));
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      const lineHeight = 13;
      const widest = maxOf(rules.map((r) => r.length));
      const w = widest * LABEL_CHAR_WIDTH + 10;
      const h = rules.length * lineHeight + 6;
      labels.push(
        `<g class="edge-label ${severity}" data-findings="${edge.findings.join(' ')}">`,
        `<title>${xml(ruleIds(graph, edge.findings).join(', '))}</title>`,
        `<rect x="${mx - w / 2}" y="${my - h / 2}" width="${w}" height="${h}" rx="4"/>`,
        ...rules.map((rule, i) => `<text x="${mx}" y="${my - h / 2 + 3 + (i + 1) * lineHeight - 3}" text-anchor="middle">${xml(rule)}</text>`),
        '</g>',
      );
    }
  }
  for (const box of boxes.values()) {
    const node = box.node;
    const severity = worstSeverity(graph, node.findings);
    const classes = ['node', `node-${node.type}`, node.external ? 'external' : '', severity ? `finding ${severity}` : ''].filter(Boolean).join(' ');
    const tooltip = [nodeTitle(node), ...node.details, ...(node.external ? [node.external.note] : [])].join('\n');
    const rx = node.type === 'volume' ? 16 : node.type === 'workload' ? 3 : 8;
    parts.push(
      `<g class="${classes}" data-id="${xml(node.id)}" data-findings="${node.findings.join(' ')}" transform="translate(${box.x},${box.y})">`,
      `<title>${xml(tooltip)}</title>`,
      `<rect width="${NODE_WIDTH}" height="${box.height}" rx="${rx}"/>`,
      `<text class="title" x="${NODE_PAD}" y="${NODE_PAD + 12}"><tspan class="kind">${xml(node.kind)}</tspan> ${xml(clip(node.name, Math.max(8, TITLE_CHARS - node.kind.length)))}</text>`,
      ...box.lines.map((line, i) => `<text class="detail" x="${NODE_PAD}" y="${NODE_PAD + TITLE_LINE + 11 + i * DETAIL_LINE}">${xml(clip(line, DETAIL_CHARS))}</text>`),
      '</g>',
    );
  }
  appendAll(parts, labels).push('</svg>');
  return { svg: parts.join('\n'), width, height };
}
