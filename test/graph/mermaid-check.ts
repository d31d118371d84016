// Checks Mermaid text line by line against the subset of the flowchart grammar pvlint writes (shared by the tests).
import * as assert from 'uvu/assert';

const SHAPES: Record<string, string> = { '[': ']', '([': '])', '[(': ')]', '{{': '}}' };
const NODE = /^ {2,4}(n\d+)(\(\[|\[\(|\{\{|\[)"([^"]*)"(\]\)|\)\]|\}\}|\])$/;
const EDGE = /^ {2}(n\d+) (-->|-\.->|==>\|"([^"]*)"\|) (n\d+)$/;

/** What a browser shows for a label: entities decoded, our few tags dropped, `<br/>` as a line break. */
export function decodeLabel(label: string): string {
  return label
    .replace(/<br\/>/g, '\n')
    .replace(/<\/?(b|i)>/g, '')
    .replace(/#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)));
}

/** Checks the text against the statements pvlint writes; returns labels by node id and edge labels in order. */
export function checkMermaid(text: string): { nodes: Map<string, string>; edges: { from: string; to: string; label?: string }[]; subgraphs: string[] } {
  const lines = text.trimEnd().split('\n');
  let i = 0;
  if (lines[i].startsWith('%%')) i++;
  assert.is(lines[i++], 'flowchart LR');
  const nodes = new Map<string, string>();
  const edges: { from: string; to: string; label?: string }[] = [];
  const subgraphs: string[] = [];
  let depth = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const checkLabel = (label: string) => {
      assert.not.match(label, /"/, `raw quote in ${line}`);
      assert.not.match(label, /#(?!\d+;)/, `raw # in ${line}`);
      assert.not.match(label, /[`|\\]/, `raw backtick, pipe or backslash in ${line}`);
      assert.not.match(label.replace(/<br\/>|<\/?(b|i)>/g, ''), /[<>&]/, `raw markup in ${line}`);
      assert.not.match(label, /:[^ ]/, `colon before a non-space in ${line}`);
    };
    let m: RegExpExecArray | null;
    if ((m = /^ {2}subgraph (g\d+)\["([^"]*)"\]$/.exec(line))) {
      assert.is(depth, 0, 'subgraphs are not nested');
      checkLabel(m[2]);
      subgraphs.push(decodeLabel(m[2]));
      depth++;
    } else if (line === '  end') {
      assert.is(depth, 1, 'end closes a subgraph');
      depth--;
    } else if ((m = NODE.exec(line))) {
      assert.is(SHAPES[m[2]], m[4], `shape brackets match in ${line}`);
      assert.not.ok(nodes.has(m[1]), `node ${m[1]} declared once`);
      checkLabel(m[3]);
      nodes.set(m[1], decodeLabel(m[3]));
    } else if ((m = EDGE.exec(line))) {
      if (m[3] !== undefined) checkLabel(m[3]);
      edges.push({ from: m[1], to: m[4], ...(m[3] !== undefined ? { label: decodeLabel(m[3]) } : {}) });
    } else if (/^ {2}classDef \w+ [\w:#,. -]+$/.test(line) || /^ {2}class [n\d,]+ [\w,]+$/.test(line) || /^ {2}style g\d+ [\w:#,. -]+$/.test(line)) {
      // styling
    } else if ((m = /^ {2}linkStyle ([\d,]+) [\w:#,. -]+$/.exec(line))) {
      for (const index of m[1].split(',').map(Number)) assert.ok(index < edges.length, `linkStyle ${index} names an edge`);
    } else if (/^ {2}empty\["[^"]*"\]$/.test(line)) {
      // an environment without storage objects
    } else {
      assert.unreachable(`unexpected Mermaid line: ${JSON.stringify(line)}`);
    }
  }
  assert.is(depth, 0, 'every subgraph is closed');
  for (const edge of edges) assert.ok(nodes.has(edge.from) && nodes.has(edge.to), `edge ${edge.from} -> ${edge.to} joins declared nodes`);
  return { nodes, edges, subgraphs };
}

