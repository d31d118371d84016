// Mermaid text: valid flowchart structure (checked line by line against the subset of the grammar pvlint writes),
// generated ids only, and names escaped so that any name comes back as written. browser.test.ts renders the same
// text with Mermaid itself.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mermaidText, toMermaid } from '../../src/graph/mermaid.js';
import type { EnvironmentGraph } from '../../src/graph/model.js';
import { NASTY_NAMES, nastyGraph, SHOP } from './fixtures.js';
import { graphOf } from './helpers.js';
import { checkMermaid } from './mermaid-check.js';

const mermaid = suite('graph: mermaid');

function expectedLabel(graph: EnvironmentGraph, id: string): string {
  const node = graph.nodes.find((n) => n.id === id)!;
  return [`${node.kind} ${node.name}`, ...node.details, ...(node.external ? [node.external.note] : [])].join('\n');
}

mermaid('mermaidText: entity codes for every character that could end a label or be read as markup', () => {
  assert.is(mermaidText('a "b" #c & <d> `e` |f| \\g'), 'a #34;b#34; #35;c #38; #60;d#62; #96;e#96; #124;f#124; #92;g');
  assert.is(mermaidText('replicas: 3'), 'replicas: 3', 'a colon before a space stays readable');
  assert.is(mermaidText('host:/path'), 'host#58;/path');
  assert.is(mermaidText('line\nbreak\ttab'), 'line break tab');
  assert.is(mermaidText('ünïcødé 名前 🚀'), 'ünïcødé 名前 🚀', 'unicode passes through');
});

mermaid('the SHOP picture: structure, shapes, namespaces as subgraphs, findings on edges', () => {
  const graph = graphOf(SHOP);
  const text = toMermaid(graph, { title: true });
  assert.ok(text.startsWith('%% pvlint storage graph: test\nflowchart LR\n'));
  const parsed = checkMermaid(text);
  assert.is(parsed.nodes.size, graph.nodes.length);
  assert.is(parsed.edges.length, graph.edges.length);
  assert.equal(parsed.subgraphs, ['namespace data (not in the repo)', 'namespace shop']);
  const labels = [...parsed.nodes.values()];
  assert.ok(labels.includes('Deployment web\nreplicas: 2 · HPA max 6\nRecreate\nmesh: Istio sidecar'), labels.join('\n---\n'));
  assert.ok(labels.includes('PVC nowhere\nnot in the repo'));
  // Edge labels are the rules of the findings about them.
  const labelled = parsed.edges.filter((e) => e.label);
  assert.ok(labelled.some((e) => e.label!.split(', ').includes('pod-missing-pvc')));
  assert.ok(labelled.some((e) => e.label!.split(', ').includes('rwo-claim-multi-node')));
  assert.match(text, /\n {2}class n\d+(,n\d+)* external\n/);
  assert.match(text, /\n {2}style g1 stroke-dasharray: 5 5\n/, 'the namespace that is not in the repo is dashed');
  assert.match(text, /\n {2}linkStyle [\d,]+ stroke:#cf222e,stroke-width:3px\n/);
  // Nodes sit in their namespace's subgraph.
  const shop = text.slice(text.indexOf('subgraph g2'), text.indexOf('  end', text.indexOf('subgraph g2')));
  assert.match(shop, /Deployment web/);
  assert.not.match(shop, /StatefulSet db/);
});

mermaid('any name comes back as written: quotes, brackets, #, entities, HTML, pipes, backticks, keywords, unicode', () => {
  const graph = nastyGraph();
  const text = toMermaid(graph, { title: true });
  const parsed = checkMermaid(text);
  assert.is(text.split('\n')[0], '%% pvlint storage graph: env "quoted" #1 <x> | `y`');
  const byLabel = new Set(parsed.nodes.values());
  for (const node of graph.nodes) {
    const expected = expectedLabel(graph, node.id) + (node.findings.length > 0 ? '\n⚠ node-rule' : '');
    assert.ok(byLabel.has(expected), `label of ${JSON.stringify(node.name)}:\n${[...byLabel].join('\n---\n')}`);
  }
  assert.equal(parsed.subgraphs, ['namespace ns "0" #0', 'namespace ns "1" #1 (not in the repo)']);
  assert.equal(parsed.edges.filter((e) => e.label).map((e) => e.label), ['rule-<one>|"x"']);
  for (const id of parsed.nodes.keys()) assert.match(id, /^n\d+$/, 'ids are generated, never names');
});

mermaid('an environment without storage objects is still a valid flowchart', () => {
  const text = toMermaid({ environment: 'empty "env"', kind: 'manifests', nodes: [], edges: [], namespaces: [], findings: [] });
  checkMermaid(text);
  assert.match(text, /empty\["empty #34;env#34;: no workloads/);
});

mermaid.run();
