// `pvlint graph` and `pvlint --format markdown` as a user runs them: the built binary, spawned.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatMarkdown, markdownCell } from '../../src/report/markdown.js';
import type { LintResult } from '../../src/lint.js';
import { runPvlint, tempTree } from '../helpers/spawn.js';
import { nastyGraph, SHOP } from './fixtures.js';
import { checkMermaid } from './mermaid-check.js';

const cli = suite('graph: cli');

function shopTree(): string {
  return tempTree({ 'k8s/shop.yaml': SHOP });
}

cli('pvlint graph: Mermaid on stdout by default, one flowchart per environment; exit 0 even with findings', () => {
  const dir = shopTree();
  const run = runPvlint(['graph', 'k8s'], { cwd: dir });
  assert.is(run.code, 0, run.stderr);
  assert.ok(run.stdout.startsWith('%% pvlint storage graph: k8s\nflowchart LR\n'), run.stdout.slice(0, 200));
  const parsed = checkMermaid(run.stdout);
  assert.is(parsed.nodes.size, 15);
  assert.ok(parsed.edges.some((e) => e.label?.includes('pod-missing-pvc')));
});

cli('pvlint graph --format dot|html --output FILE writes the file', () => {
  const dir = shopTree();
  const dot = runPvlint(['graph', '--format', 'dot', '-o', 'out.dot', 'k8s'], { cwd: dir });
  assert.is(dot.code, 0, dot.stderr);
  assert.is(dot.stdout, '');
  assert.ok(readFileSync(path.join(dir, 'out.dot'), 'utf8').startsWith('digraph pvlint {'));
  const html = runPvlint(['graph', 'k8s', '--format', 'html', '--output', 'out.html'], { cwd: dir });
  assert.is(html.code, 0, html.stderr);
  const page = readFileSync(path.join(dir, 'out.html'), 'utf8');
  assert.ok(page.startsWith('<!DOCTYPE html>'));
  assert.match(page, /Content-Security-Policy" content="default-src 'none'/);
  assert.is(page.split('<g class="node node-').length - 1, 15);
});

cli('--focus cuts the picture down; an unknown object or a malformed focus is exit 2', () => {
  const dir = shopTree();
  const focused = runPvlint(['graph', 'k8s', '--focus', 'pvc/data/archive'], { cwd: dir });
  assert.is(focused.code, 0, focused.stderr);
  assert.ok(focused.stdout.startsWith('%% pvlint storage graph: k8s (focus pvc/data/archive)\n'));
  assert.is(checkMermaid(focused.stdout).nodes.size, 2);
  const missing = runPvlint(['graph', 'k8s', '--focus', 'deploy/shop/nothing'], { cwd: dir });
  assert.is(missing.code, 2);
  assert.match(missing.stderr, /--focus deploy\/shop\/nothing: no such object in the environment/);
  const malformed = runPvlint(['graph', 'k8s', '--focus', 'web'], { cwd: dir });
  assert.is(malformed.code, 2);
  assert.match(malformed.stderr, /--focus takes kind\/namespace\/name or kind\/name/);
});

cli('usage errors: an unknown graph format; --focus without graph', () => {
  const dir = shopTree();
  const format = runPvlint(['graph', '--format', 'sarif', 'k8s'], { cwd: dir });
  assert.is(format.code, 2);
  assert.match(format.stderr, /unknown graph format "sarif" \(expected one of: mermaid, dot, html\)/);
  const focus = runPvlint(['--focus', 'pvc/shop/shared', 'k8s'], { cwd: dir });
  assert.is(focus.code, 2);
  assert.match(focus.stderr, /--focus is for 'pvlint graph'/);
  const help = runPvlint(['--help'], { cwd: dir });
  assert.match(help.stdout, /pvlint graph \[paths\.\.\.\]/);
});

cli('--format markdown: summary, findings table, one Mermaid picture per environment; exit code as usual', () => {
  const dir = shopTree();
  const run = runPvlint(['--format', 'markdown', 'k8s'], { cwd: dir });
  assert.is(run.code, 1, run.stderr);
  assert.ok(run.stdout.startsWith('## pvlint\n\n❌ **'), run.stdout.slice(0, 200));
  assert.match(run.stdout, /\n\| severity \| rule \| where \| message \|\n\|---\|---\|---\|---\|\n/);
  assert.match(run.stdout, /\n\| 🔵 note \| `pod-missing-pvc` \| `k8s\/shop\.yaml:\d+` \| Deployment "web" mounts/);
  assert.match(run.stdout, /\n<details open><summary><code>k8s<\/code>: 15 objects, \d+ errors?, \d+ warnings?, \d+ notes?<\/summary>\n\n```mermaid\nflowchart LR\n/);
  const block = /```mermaid\n([\s\S]*?)```/.exec(run.stdout)![1];
  assert.is(checkMermaid(block).nodes.size, 15);
});

cli('markdown: table cells escape pipes, HTML and emphasis; code spans survive backticks', () => {
  assert.is(markdownCell('a | b <i>x</i> *y* _z_ [l](u) \\ ~s~\nnext'), 'a \\| b &lt;i&gt;x&lt;/i&gt; \\*y\\* \\_z\\_ \\[l\\](u) \\\\ \\~s\\~<br>next');
  const graph = nastyGraph();
  const result: LintResult = {
    findings: graph.findings.map((f) => ({ ...f, messageId: 'x', data: {}, fix: '', related: [], environments: ['a', 'b'] })),
    fatal: false,
    scopes: [{ name: 'a', kind: 'manifests', files: 1, resources: 1 }],
    root: '/',
    stats: { files: 1, documents: 1, resources: 1 },
  };
  const text = formatMarkdown(result, { graphs: [graph] });
  assert.ok(text.includes('| 🔴 error | `rule-<one>\\|"x"` | `dir/a\\|b.yaml:3` | message with \\| pipe and &lt;b&gt;html&lt;/b&gt; &amp; `code` \\*stars\\* \\_under\\_<br><sub>environments: a, b</sub> |'), text);
  assert.ok(text.includes('<summary><code>env &quot;quoted&quot; #1 &lt;x&gt; | `y`</code>: 11 objects, 1 error, 1 warning, 0 notes</summary>'), text);
  checkMermaid(/```mermaid\n([\s\S]*?)```/.exec(text)![1]);
  const clean = formatMarkdown({ ...result, findings: [] }, {});
  assert.is(clean, '## pvlint\n\n✅ **No problems** in 1 file, 1 resource, 1 environment.\n');
});

cli.run();
