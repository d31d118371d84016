// The HTML page and the Mermaid text in a real browser (Debian's headless Chromium): the page draws every node and
// edge, its script runs, nothing is logged to the console (no error, no blocked request), and the screenshot shows
// the picture. With Mermaid's own bundle (MERMAID_JS, or the copy .ci/run unpacks) the Mermaid text is rendered by
// Mermaid itself, as GitHub does, and every name must come back as written.
//
// UPDATE_SCREENSHOTS=1 also writes the screenshot of the examples' prod overlay to docs/graph/prod-storage.png (the
// picture in the README).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toHtml } from '../../src/graph/html.js';
import { toMermaid } from '../../src/graph/mermaid.js';
import type { EnvironmentGraph } from '../../src/graph/model.js';
import { PROJECT_ROOT } from '../helpers/paths.js';
import { runPvlint } from '../helpers/spawn.js';
import { HAS_KUSTOMIZE } from '../render/helpers.js';
import { NASTY_NAMES, nastyGraph, SHOP } from './fixtures.js';
import { requires } from '../helpers/requires.js';
import { CHROMIUM, graphOf, MERMAID_JS } from './helpers.js';
import { decodePng } from './png.js';

const browser = suite('graph: browser');

export const README_PNG = path.join(PROJECT_ROOT, 'docs', 'graph', 'prod-storage.png');
const PROD = 'examples/kustomize/overlays/prod';
const SCREENSHOT_SIZE = { width: 1820, height: 700 };

const work = mkdtempSync(path.join(os.tmpdir(), 'pvlint-browser-'));

interface Run {
  dom: string;
  console: string[];
  stderr: string;
}

/** Opens a file in headless Chromium; `--dump-dom` unless `screenshot` is given. */
function open(file: string, options: { screenshot?: string; budgetMs?: number; window?: { width: number; height: number } } = {}): Run {
  const profile = mkdtempSync(path.join(work, 'profile-'));
  const args = [
    '--headless=new', '--disable-gpu', '--no-sandbox', '--no-first-run', '--hide-scrollbars', '--disable-extensions',
    `--user-data-dir=${profile}`, '--enable-logging=stderr', '--v=0', `--virtual-time-budget=${options.budgetMs ?? 5000}`,
    ...(options.screenshot
      ? [`--screenshot=${options.screenshot}`, `--window-size=${(options.window ?? SCREENSHOT_SIZE).width},${(options.window ?? SCREENSHOT_SIZE).height}`]
      : ['--dump-dom']),
    pathToFileURL(file).href,
  ];
  const result = spawnSync(CHROMIUM!, args, { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  // Chromium prints every console message (log, error, uncaught exception, CSP violation) as `…:CONSOLE(…)] "…"`.
  const console = result.stderr.split('\n').filter((line) => /:CONSOLE[:(]/.test(line));
  if (!options.screenshot && !result.stdout.includes('</html>')) throw new Error(`chromium printed no DOM (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
  return { dom: result.stdout, console, stderr: result.stderr };
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

const NO_CHROMIUM = ['chromium is not installed', 'apt-get install chromium (.ci/run does this)'] as const;
const withChromium = (what: string) => requires(browser, CHROMIUM !== undefined, `${what} (browser test of pvlint graph)`, ...NO_CHROMIUM);

function assertDrawn(run: Run, graphs: readonly EnvironmentGraph[]): void {
  assert.equal(run.console, [], 'no console message');
  assert.match(run.dom, /<body[^>]* data-ready="true"/, 'the page script ran to its end');
  const nodes = graphs.reduce((n, g) => n + g.nodes.length, 0);
  const edges = graphs.reduce((n, g) => n + g.edges.length, 0);
  const labelled = graphs.reduce((n, g) => n + g.edges.filter((e) => e.findings.length > 0).length, 0);
  const findings = graphs.reduce((n, g) => n + g.findings.length, 0);
  assert.is(count(run.dom, '<svg '), graphs.length, 'one picture per environment');
  assert.is(count(run.dom, '<g class="node node-'), nodes, 'every node drawn');
  assert.is(count(run.dom, '<g class="edge edge-'), edges, 'every edge drawn');
  assert.is(count(run.dom, '<g class="edge-label '), labelled, 'every edge a finding is about is labelled');
  assert.is(count(run.dom, '<li class="finding '), findings, 'every finding listed');
}

withChromium('console capture')('the console capture works: a probe page\'s error and uncaught exception are seen', () => {
  const probe = path.join(work, 'probe.html');
  writeFileSync(probe, '<!DOCTYPE html><html><body><script>console.error("probe-error-1"); throw new Error("probe-throw-2");</script></body></html>');
  const run = open(probe);
  assert.ok(run.console.some((line) => line.includes('probe-error-1')), run.stderr.slice(-2000));
  assert.ok(run.console.some((line) => line.includes('Uncaught Error: probe-throw-2')), run.stderr.slice(-2000));
});

withChromium('HTML sizing')('HTML in a narrow window: the whole picture is on screen, down to the StorageClass column (not cut off)', () => {
  const graphs = [graphOf(SHOP)];
  const html = toHtml(graphs, { toolVersion: 'test' });
  const drawnWidth = Number(/<svg [^>]*class="pvlint-graph" width="(\d+)"/.exec(html)![1]);
  const window = { width: 1200, height: 1400 }; // wider than the 1000 px at which the findings move below
  assert.ok(drawnWidth > window.width - 360, `the picture (${drawnWidth} px) is wider than its column`);
  const file = path.join(work, 'narrow.html');
  writeFileSync(file, html);
  const png = path.join(work, 'narrow.png');
  open(file, { screenshot: png, window });
  const image = decodePng(readFileSync(png));
  let classFill = 0;
  let rightmost = 0;
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const [r, g, b] = image.pixel(x, y);
      if (r === 0xfb && g === 0xef && b === 0xff) {
        classFill++;
        rightmost = Math.max(rightmost, x);
      }
    }
  }
  assert.ok(classFill > 500, `the StorageClass boxes (the rightmost column) are on screen (${classFill} pixels)`);
  // The class column ends inside the picture's column, left of the findings list (360 px wide).
  assert.ok(rightmost < window.width - 360, `the class column ends at x=${rightmost}`);
});

withChromium('HTML drawing')('HTML: every node, edge, rule label and finding of an environment is drawn; no console message', () => {
  const graphs = [graphOf(SHOP), nastyGraph()];
  const file = path.join(work, 'shop.html');
  writeFileSync(file, toHtml(graphs, { toolVersion: 'test' }));
  const run = open(file);
  assertDrawn(run, graphs);
  // Names are text, never markup: the nasty names come back escaped, and no script of theirs is in the DOM.
  assert.not.match(run.dom, /<script>alert/);
  assert.ok(run.dom.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  // The page asks for nothing over the network.
  assert.not.match(readFileSync(file, 'utf8'), /\b(src|href)="(https?:)?\/\//);
});

(HAS_KUSTOMIZE ? withChromium('prod overlay screenshot') : requires(browser, false, 'browser test of the prod overlay picture', 'neither kustomize nor kubectl is on PATH', 'install kubectl'))(
  'HTML of the examples\' prod overlay: drawn, and the screenshot shows the picture with its red finding edges', () => {
  const file = path.join(work, 'prod.html');
  const cli = runPvlint(['graph', PROD, '--format', 'html', '--output', file], { cwd: PROJECT_ROOT });
  assert.is(cli.code, 0, cli.stderr);
  const html = readFileSync(file, 'utf8');
  const run = open(file);
  assert.equal(run.console, []);
  assert.is(count(run.dom, '<g class="node node-'), 6);
  assert.is(count(run.dom, '<g class="edge edge-'), 5);
  assert.is(count(run.dom, '<g class="edge-label '), 4);
  assert.is(count(run.dom, '<li class="finding '), 3);
  assert.ok(html.includes('prod-uploads') && html.includes('reports-archive'));

  const png = path.join(work, 'prod.png');
  const shot = open(file, { screenshot: png });
  assert.equal(shot.console, []);
  const image = decodePng(readFileSync(png));
  assert.equal([image.width, image.height], [SCREENSHOT_SIZE.width, SCREENSHOT_SIZE.height]);
  let red = 0;
  let workloadFill = 0;
  let claimFill = 0;
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const [r, g, b] = image.pixel(x, y);
      if (Math.abs(r - 0xcf) < 24 && Math.abs(g - 0x22) < 40 && Math.abs(b - 0x2e) < 40) red++;
      if (r === 0xdd && g === 0xf4 && b === 0xff) workloadFill++;
      if (r === 0xda && g === 0xfb && b === 0xe1) claimFill++;
    }
  }
  assert.ok(red > 300, `red finding edges and outlines are visible (${red} pixels)`);
  assert.ok(workloadFill > 5000, `the workload box is drawn (${workloadFill} pixels)`);
  assert.ok(claimFill > 2000, `the claim box is drawn (${claimFill} pixels)`);
  if (process.env.UPDATE_SCREENSHOTS === '1') {
    mkdirSync(path.dirname(README_PNG), { recursive: true });
    copyFileSync(png, README_PNG);
    console.warn(`  wrote ${path.relative(PROJECT_ROOT, README_PNG)}`);
  }
});

browser('the README\'s picture is a screenshot of this page (docs/graph/prod-storage.png)', () => {
  assert.ok(existsSync(README_PNG), 'run the tests with UPDATE_SCREENSHOTS=1 to make it');
  const image = decodePng(readFileSync(README_PNG));
  assert.equal([image.width, image.height], [SCREENSHOT_SIZE.width, SCREENSHOT_SIZE.height]);
  const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes('](docs/graph/prod-storage.png)'), 'the README shows it');
});

(MERMAID_JS
  ? withChromium('Mermaid rendering')
  : requires(
      browser,
      false,
      'rendering the Mermaid text with Mermaid',
      'no mermaid.min.js (MERMAID_JS, or ~/.cache/pvlint-ci/mermaid from .ci/run)',
      'run .ci/run once, or: npm pack mermaid@11 and set MERMAID_JS to package/dist/mermaid.min.js',
    ))('Mermaid itself renders pvlint\'s Mermaid text, and every name comes back as written', () => {
  const graphs = [graphOf(SHOP), nastyGraph(), { environment: 'empty', kind: 'manifests' as const, nodes: [], edges: [], namespaces: [], findings: [] }];
  const diagrams = graphs.map((g) => toMermaid(g, { title: true }));
  if (HAS_KUSTOMIZE) {
    const prod = runPvlint(['graph', PROD], { cwd: PROJECT_ROOT });
    assert.is(prod.code, 0, prod.stderr);
    diagrams.push(prod.stdout);
  }
  const page = `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="result">pending</pre>
<script>${readFileSync(MERMAID_JS!, 'utf8').replace(/<\/script/gi, '<\\/script')}</script>
<script>
const diagrams = ${JSON.stringify(diagrams).replace(/</g, '\\u003c')};
(async () => {
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
  const results = [];
  for (const [i, text] of diagrams.entries()) {
    try {
      await mermaid.parse(text);
      const { svg } = await mermaid.render('diagram' + i, text);
      const holder = document.createElement('div');
      holder.innerHTML = svg;
      document.body.appendChild(holder);
      results.push({
        ok: true,
        nodes: [...holder.querySelectorAll('g.node')].map((n) => n.textContent),
        edges: holder.querySelectorAll('path.flowchart-link').length,
        clusters: [...holder.querySelectorAll('g.cluster')].map((c) => c.textContent),
      });
    } catch (error) {
      results.push({ ok: false, error: String((error && error.message) || error) });
    }
  }
  document.getElementById('result').textContent = JSON.stringify(results);
})();
</script></body></html>`;
  const file = path.join(work, 'mermaid.html');
  writeFileSync(file, page);
  const run = open(file, { budgetMs: 30_000 });
  const match = /<pre id="result">([\s\S]*?)<\/pre>/.exec(run.dom);
  assert.ok(match && match[1] !== 'pending', `Mermaid finished: ${run.stderr.slice(-1500)}`);
  const decoded = match![1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const results = JSON.parse(decoded) as { ok: boolean; error?: string; nodes: string[]; edges: number; clusters: string[] }[];
  results.forEach((result, i) => assert.ok(result.ok, `diagram ${i} renders: ${result.error}\n${diagrams[i]}`));
  for (const [i, graph] of graphs.entries()) {
    if (graph.nodes.length === 0) continue;
    assert.is(results[i].nodes.length, graph.nodes.length, `nodes of diagram ${i}`);
    assert.is(results[i].edges, graph.edges.length, `edges of diagram ${i}`);
    assert.is(results[i].clusters.length, graph.namespaces.length, `namespace boxes of diagram ${i}`);
  }
  // The nasty names: the text Mermaid draws for each node starts with its kind and name exactly as written.
  const drawn = results[1].nodes;
  for (const name of NASTY_NAMES) assert.ok(drawn.some((text) => text.includes(` ${name}detail of ${name}`)), `${JSON.stringify(name)} in ${JSON.stringify(drawn)}`);
  assert.ok(results[1].clusters.some((text) => text.includes('namespace ns "1" #1 (not in the repo)')), JSON.stringify(results[1].clusters));
  if (HAS_KUSTOMIZE) {
    assert.is(results[3].nodes.length, 6);
    assert.ok(results[3].nodes.some((text) => text.startsWith('Deployment prod-uploadsreplicas: 3')), JSON.stringify(results[3].nodes));
  }
});

browser.run();
