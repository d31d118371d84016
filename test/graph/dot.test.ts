// DOT text: escaping, clusters per environment and namespace, and (when Graphviz is installed) `dot` draws it.
import { spawnSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dotString, toDot } from '../../src/graph/dot.js';
import { findOnPath } from '../../src/render/executables.js';
import { nastyGraph, SHOP } from './fixtures.js';
import { requires } from '../helpers/requires.js';
import { graphOf } from './helpers.js';

const dot = suite('graph: dot');

dot('dotString escapes backslashes, quotes and line breaks', () => {
  assert.is(dotString('a "b" \\c\nd'), '"a \\"b\\" \\\\c\\nd"');
  assert.is(dotString('ünïcødé <x> {y} #z'), '"ünïcødé <x> {y} #z"');
});

dot('one cluster per environment, nested clusters per namespace, finding edges coloured and labelled', () => {
  const shop = graphOf(SHOP);
  const text = toDot([shop, nastyGraph()]);
  assert.ok(text.startsWith('digraph pvlint {\n  rankdir=LR;'));
  assert.is(count(text, '{'), count(text, '}'), 'braces balance');
  assert.match(text, /subgraph cluster_e1 \{\n {4}label="environment test";/);
  assert.match(text, /subgraph cluster_e2 \{\n {4}label="environment env \\"quoted\\" #1 <x> \| `y`";/);
  assert.match(text, /subgraph cluster_e1g1 \{\n {6}label="namespace data \(not in the repo\)";\n {6}style="dashed,rounded";/);
  assert.is(count(text, ' -> '), shop.edges.length + nastyGraph().edges.length);
  assert.match(text, /label="pod-missing-pvc", color="#[0-9a-f]{6}", fontcolor="#[0-9a-f]{6}", penwidth=3/);
  assert.ok(text.includes('label="PVC nowhere\\n(not in the repo)"'), 'external nodes say so');
});

const graphviz = findOnPath('dot');
requires(dot, graphviz !== undefined, 'drawing the DOT output with Graphviz', 'Graphviz (dot) is not installed', 'apt-get install graphviz (.ci/run does this)')('Graphviz draws it', () => {
  const graphs = [graphOf(SHOP), nastyGraph()];
  const result = spawnSync(graphviz!, ['-Tsvg'], { input: toDot(graphs), encoding: 'utf8', timeout: 60_000 });
  assert.is(result.status, 0, result.stderr);
  assert.is(result.stderr, '', 'no warning');
  assert.is(count(result.stdout, 'class="node"'), graphs.reduce((n, g) => n + g.nodes.length, 0));
  assert.is(count(result.stdout, 'class="edge"'), graphs.reduce((n, g) => n + g.edges.length, 0));
  assert.is(count(result.stdout, 'class="cluster"'), 2 + 4, 'two environments, two namespaces each');
  assert.ok(result.stdout.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
});

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

dot.run();
