// A root that fails to render must not hide the rest: its render error moves to the entry that failed (the
// `resources:` item, patch or `helmCharts` entry the renderer's message names), and the kustomizations it
// includes are rendered and linted on their own, recursively when they fail too.
import type { Node as YamlNode } from 'yaml';
import { isMap, isSeq } from 'yaml';
import { firstLineRegion } from '../load/source-file.js';
import { locateInNode } from '../load/locate-node.js';
import { includedKustomizations, loadKustomization, type Kustomization } from './kustomization.js';
import type { RenderedScope } from './rendered-scope.js';
import type { SourceCache } from './source-cache.js';
import type { Finding } from '../types.js';

interface Candidate {
  /** What the message would quote: the entry's text, or its repo-relative path. */
  texts: string[];
  node: YamlNode;
  label: string;
}

function listItems(k: Kustomization, key: string): YamlNode[] {
  const list = isMap(k.root) ? (k.root.get(key, true) as YamlNode | undefined) : undefined;
  return list && isSeq(list) ? (list.items as YamlNode[]) : [];
}

function candidates(cache: SourceCache, k: Kustomization): Candidate[] {
  const found: Candidate[] = [];
  for (const entry of [...k.resources, ...k.components]) {
    found.push({ texts: [entry.value, ...(entry.abs ? [cache.displayPath(entry.abs)] : [])], node: entry.node, label: `the entry ${entry.value}` });
  }
  for (const key of ['patches', 'patchesJson6902', 'replacements']) {
    const data: any[] = Array.isArray(k.data?.[key]) ? k.data[key] : [];
    listItems(k, key).forEach((node, i) => {
      const file = data[i]?.path;
      if (typeof file === 'string') found.push({ texts: [file], node, label: `the ${key} entry ${file}` });
    });
  }
  const strategic: unknown[] = Array.isArray(k.data?.patchesStrategicMerge) ? k.data.patchesStrategicMerge : [];
  listItems(k, 'patchesStrategicMerge').forEach((node, i) => {
    if (typeof strategic[i] === 'string' && !(strategic[i] as string).includes('\n')) found.push({ texts: [strategic[i] as string], node, label: `the patch ${strategic[i]}` });
  });
  return found;
}

/** The entry of `k` the renderer's message is about, when the message names one. */
export function failedEntry(cache: SourceCache, k: Kustomization, message: string): { node: YamlNode; label: string } | undefined {
  let best: { node: YamlNode; label: string; length: number } | undefined;
  for (const candidate of candidates(cache, k)) {
    for (const text of candidate.texts) {
      if (text.length < 2) continue;
      if (message.includes(text) && (!best || text.length > best.length)) best = { node: candidate.node, label: candidate.label, length: text.length };
    }
  }
  if (best) return best;
  const charts = listItems(k, 'helmCharts');
  if (charts.length > 0 && /helm/i.test(message)) return { node: charts[0], label: 'the helmCharts entry' };
  return undefined;
}

function failed(scope: RenderedScope): boolean {
  return !scope.stopped && scope.resources.length === 0 && scope.diagnostics.some((d) => d.ruleId === 'pvlint/render');
}

/** The render error at the entry that failed, with the kustomization file as related location. */
function pointAtEntry(cache: SourceCache, dir: string, scope: RenderedScope): void {
  const k = loadKustomization(cache, dir);
  if (!k) return;
  scope.diagnostics = scope.diagnostics.map((d): Finding => {
    if (d.ruleId !== 'pvlint/render') return d;
    const entry = failedEntry(cache, k, d.message);
    if (!entry) return d;
    const at = locateInNode(k.source.file, entry.node, []).location;
    return { ...d, location: at, related: [...d.related, { message: `${entry.label} of ${k.source.file.path} failed; the roots it includes are linted on their own`, location: { file: k.source.file.path, region: firstLineRegion(k.source.file) } }] };
  });
}

/**
 * For every failed root in `dirs` (rendered as `scopes`, same order), renders what it includes that is not rendered
 * already, and again for those that fail. Returns the extra directories and their scopes, in order.
 */
export async function renderIncludedOfFailed(
  cache: SourceCache,
  dirs: readonly string[],
  scopes: readonly RenderedScope[],
  render: (dirs: string[]) => Promise<RenderedScope[]>,
): Promise<{ dirs: string[]; scopes: RenderedScope[] }> {
  const done = new Set(dirs);
  // What a root that rendered includes is linted as part of it already.
  const reach = (dir: string) => {
    const stack = [dir];
    while (stack.length > 0) {
      const k = loadKustomization(cache, stack.pop()!);
      for (const child of k ? includedKustomizations(k) : []) {
        if (!done.has(child)) {
          done.add(child);
          stack.push(child);
        }
      }
    }
  };
  dirs.forEach((dir, i) => failed(scopes[i]) || reach(dir));
  const extra = { dirs: [] as string[], scopes: [] as RenderedScope[] };
  let round = dirs.map((dir, i) => ({ dir, scope: scopes[i] }));
  while (round.length > 0) {
    const next: string[] = [];
    for (const { dir, scope } of round) {
      if (!failed(scope)) continue;
      pointAtEntry(cache, dir, scope);
      const k = loadKustomization(cache, dir);
      if (!k) continue;
      for (const child of includedKustomizations(k)) {
        if (done.has(child) || loadKustomization(cache, child)?.isComponent) continue;
        done.add(child);
        next.push(child);
      }
    }
    if (next.length === 0) break;
    const rendered = await render(next);
    extra.dirs.push(...next);
    extra.scopes.push(...rendered);
    round = next.map((dir, i) => ({ dir, scope: rendered[i] }));
    round.forEach(({ dir, scope }) => failed(scope) || reach(dir));
  }
  return extra;
}
