// One self-contained HTML page: per environment, the storage picture (inline SVG laid out by svg.ts) and its findings
// side by side. No network: no external script, style, font or image, and a Content-Security-Policy that forbids
// loading any. A small inline script links findings and picture: pointing at a finding lights up its nodes and edges,
// pointing at a node or edge lights up its findings.
import type { EnvironmentGraph } from './model.js';
import { toSvg, xml } from './svg.js';

const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --error: #cf222e; --warning: #9a6700; --note: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: #fff; }
header { padding: 14px 20px 6px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 20px; margin: 0 0 4px; }
header p { margin: 0 0 6px; color: var(--muted); }
nav a { margin-right: 14px; color: var(--note); text-decoration: none; }
section.environment { padding: 10px 20px 24px; border-bottom: 1px solid var(--line); }
section.environment h2 { font-size: 16px; margin: 6px 0 10px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 16px; align-items: start; }
.picture { overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
aside.findings { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; max-height: 80vh; overflow: auto; }
aside.findings h3 { font-size: 14px; margin: 2px 0 8px; }
aside.findings ol { list-style: none; margin: 0; padding: 0; }
li.finding { border-left: 4px solid var(--note); padding: 4px 8px; margin: 0 0 8px; cursor: default; border-radius: 2px; }
li.finding.error { border-color: var(--error); } li.finding.warning { border-color: var(--warning); }
li.finding.active { background: #fff8c5; }
li.finding .rule { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
li.finding .severity { text-transform: uppercase; font-size: 10px; font-weight: 700; margin-right: 6px; }
li.finding.error .severity { color: var(--error); } li.finding.warning .severity { color: var(--warning); } li.finding.note .severity { color: var(--note); }
li.finding .where { color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; word-break: break-all; }
li.finding .message { font-size: 13px; }
li.finding .unplaced { color: var(--muted); font-size: 12px; font-style: italic; }
p.none { color: var(--muted); }
p.legend { color: var(--muted); font-size: 12px; margin: 8px 0 0; }
/* The picture keeps its drawn size when it fits and shrinks to the column when it does not (viewBox keeps the
   proportions), so no environment is cut off at the window's edge. */
.picture svg.pvlint-graph { max-width: 100%; height: auto; }
svg.pvlint-graph { display: block; font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
svg .column-title { font-size: 12px; font-weight: 600; fill: var(--muted); }
svg .namespace rect { fill: #f6f8fa; stroke: #8c959f; stroke-width: 1; }
svg .namespace.external rect { stroke-dasharray: 6 4; }
svg .namespace text { font-size: 12px; fill: var(--muted); font-weight: 600; }
svg .node rect { fill: #fff; stroke: #57606a; stroke-width: 1.2; }
svg .node-workload rect { fill: #ddf4ff; } svg .node-volume rect { fill: #fff; } svg .node-claim rect { fill: #dafbe1; }
svg .node-pv rect { fill: #fff8c5; } svg .node-class rect { fill: #fbefff; }
svg .node.external rect { fill: #f6f8fa; stroke-dasharray: 5 4; stroke: #8c959f; }
svg .node.finding.error rect { stroke: var(--error); stroke-width: 2.5; }
svg .node.finding.warning rect { stroke: var(--warning); stroke-width: 2.5; }
svg .node.finding.note rect { stroke: var(--note); stroke-width: 2; }
svg .node .title { font-size: 12px; font-weight: 600; fill: var(--fg); }
svg .node .title .kind { fill: var(--muted); font-weight: 400; }
svg .node .detail { font-size: 11px; fill: #424a53; }
svg .edge path { fill: none; stroke: #6e7781; stroke-width: 1.4; }
svg .edge.external path { stroke-dasharray: 5 4; stroke: #8c959f; }
svg .edge.finding path { stroke-width: 3; }
svg .edge.error path { stroke: var(--error); } svg .edge.warning path { stroke: var(--warning); } svg .edge.note path { stroke: var(--note); }
svg .edge-label rect { fill: #fff; stroke-width: 1; }
svg .edge-label.error rect { stroke: var(--error); } svg .edge-label.warning rect { stroke: var(--warning); } svg .edge-label.note rect { stroke: var(--note); }
svg .edge-label text { font-size: 11px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
svg .edge-label.error text { fill: var(--error); } svg .edge-label.warning text { fill: var(--warning); } svg .edge-label.note text { fill: var(--note); }
svg .dim { opacity: 0.25; }
svg .lit rect, svg .lit path { filter: drop-shadow(0 0 3px #bf8700); }
@media (max-width: 1000px) { .layout { grid-template-columns: 1fr; } }
`;

// Runs in the page. Kept to plain DOM APIs; sets body[data-ready] when wired up (the browser test checks it).
const SCRIPT = `
(function () {
  function ids(el) { return (el.getAttribute('data-findings') || '').split(' ').filter(Boolean); }
  document.querySelectorAll('section.environment').forEach(function (section) {
    var items = section.querySelectorAll('li.finding');
    var shapes = section.querySelectorAll('svg [data-findings]');
    function light(indices) {
      shapes.forEach(function (shape) {
        var hit = ids(shape).some(function (i) { return indices.indexOf(i) !== -1; });
        shape.classList.toggle('lit', hit);
        shape.classList.toggle('dim', !hit && (shape.classList.contains('node') || shape.classList.contains('edge')));
      });
      items.forEach(function (item) { item.classList.toggle('active', indices.indexOf(item.getAttribute('data-finding')) !== -1); });
    }
    function clear() {
      shapes.forEach(function (shape) { shape.classList.remove('lit', 'dim'); });
      items.forEach(function (item) { item.classList.remove('active'); });
    }
    items.forEach(function (item) {
      item.addEventListener('mouseenter', function () { light([item.getAttribute('data-finding')]); });
      item.addEventListener('mouseleave', clear);
    });
    shapes.forEach(function (shape) {
      if (ids(shape).length === 0) return;
      shape.addEventListener('mouseenter', function () { light(ids(shape)); });
      shape.addEventListener('mouseleave', clear);
    });
  });
  document.body.setAttribute('data-ready', 'true');
})();
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function environmentSection(graph: EnvironmentGraph, index: number): string {
  const picture = toSvg(graph, { idPrefix: `e${index + 1}` });
  const findings = graph.findings.map((f, i) => {
    const where = `${f.location.file}:${f.location.region.startLine}`;
    const unplaced = f.nodes.length === 0 && f.edges.length === 0 ? '<div class="unplaced">not placed in the picture</div>' : '';
    return (
      `<li class="finding ${f.severity}" data-finding="${i}">` +
      `<div><span class="severity">${f.severity}</span><span class="rule">${xml(f.ruleId)}</span></div>` +
      `<div class="where">${xml(where)}</div><div class="message">${xml(f.message)}</div>${unplaced}</li>`
    );
  });
  const counts = `${plural(graph.nodes.length, 'object')}, ${plural(graph.findings.length, 'finding')}`;
  return [
    `<section class="environment" id="env-${index + 1}" data-environment="${xml(graph.environment)}">`,
    `<h2>${xml(graph.environment)}${graph.focus ? ` <small>(focus ${xml(graph.focus)})</small>` : ''}</h2>`,
    '<div class="layout">',
    `<div class="picture">${picture.svg}</div>`,
    `<aside class="findings"><h3>Findings (${graph.findings.length})</h3>`,
    findings.length > 0 ? `<ol>${findings.join('\n')}</ol>` : '<p class="none">No findings in this environment.</p>',
    '</aside>',
    '</div>',
    `<p class="legend">${xml(counts)}. Dashed: referenced but not in the repo. Thick coloured edges: what a finding is about, labelled with its rule. Point at a finding to light up its objects.</p>`,
    '</section>',
  ].join('\n');
}

export interface HtmlOptions {
  toolVersion: string;
}

export function toHtml(graphs: readonly EnvironmentGraph[], options: HtmlOptions): string {
  const total = graphs.reduce((n, g) => n + g.findings.length, 0);
  const nav = graphs.length > 1 ? `<nav>${graphs.map((g, i) => `<a href="#env-${i + 1}">${xml(g.environment)}</a>`).join('')}</nav>` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="pvlint ${xml(options.toolVersion)}">
<title>pvlint storage graph</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>pvlint storage graph</h1>
<p>${xml(`${plural(graphs.length, 'environment')}, ${plural(total, 'finding')}`)}: workloads → volumes → claims → PersistentVolumes → StorageClasses, namespaces as boxes.</p>
${nav}
</header>
<main>
${graphs.length > 0 ? graphs.map(environmentSection).join('\n') : '<section class="environment"><p class="none">No environment to draw.</p></section>'}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
