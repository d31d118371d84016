// Maps the documents of a `helm template` stream to their templates through Helm's `# Source:` comments,
// whether helm ran just now or its output was committed (or piped in) and the chart sits nearby.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Document } from 'yaml';
import { recordHelmTemplate } from './helm-source.js';
import { firstMapDocument, type SourceCache } from './source-cache.js';
import type { Resource, SourceFile } from '../types.js';

const SOURCE = /^#\s*Source:\s*(\S.*?)\s*$/gm;

export function hasSourceComments(text: string): boolean {
  // The substring test first: a multi-line regular expression over every byte of every file is not free.
  return text.includes('Source:') && /^#\s*Source:\s*\S/m.test(text);
}

/**
 * The `# Source:` in force for each document. Helm writes `---\n# Source: x` before every template's
 * output; a template that starts with its own `---` leaves the comment in an empty document, and one that
 * emits several documents names only the first, so a document without a comment inherits the last one.
 */
export function sourcesByDocument(file: SourceFile, documents: readonly Document.Parsed[]): (string | undefined)[] {
  let current: string | undefined;
  let scanned = 0;
  return documents.map((doc) => {
    // An empty document (a lone `# Source:`) has a zero-width null at its start: scan all of it instead.
    const range = doc.contents?.range;
    const contentStart = range && range[1] > range[0] ? range[0] : doc.range[1];
    // Comments between the previous document's content and this one's content belong to this document.
    const head = file.text.slice(scanned, Math.max(scanned, contentStart));
    for (const match of head.matchAll(SOURCE)) current = match[1];
    scanned = Math.max(scanned, doc.range[1]);
    return current;
  });
}

/** `Chart.yaml`'s `name`, read once. */
function chartName(cache: SourceCache, dir: string): string | undefined {
  const name = firstMapDocument(cache.get(path.join(dir, 'Chart.yaml')))?.object?.name;
  return typeof name === 'string' ? name : undefined;
}

/**
 * The chart a committed or piped stream came from: `start` or an ancestor (up to `stop`) that is the chart,
 * or holds it as a direct subdirectory (`chart/`, `<name>/`), with Chart.yaml's name equal to `name`.
 */
export function findChart(cache: SourceCache, start: string, name: string, stop: string): string | undefined {
  return cache.remember(`chart:${start}:${name}`, () => {
    let dir = start;
    for (;;) {
      if (chartName(cache, dir) === name) return dir;
      let children: string[] = [];
      try {
        children = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules').map((e) => e.name);
      } catch {
        children = [];
      }
      for (const child of children.sort()) if (chartName(cache, path.join(dir, child)) === name) return path.join(dir, child);
      const parent = path.dirname(dir);
      if (dir === stop || parent === dir || path.relative(stop, dir).startsWith('..')) return undefined;
      dir = parent;
    }
  });
}

/**
 * Records for each resource of a Helm stream the template it comes from. `chartFor(name)` finds the chart dir of
 * a `# Source:` chart name; resources before any `# Source:` (hand-added documents) keep their own lines.
 */
export function attachHelmLocators(
  cache: SourceCache,
  file: SourceFile,
  documents: readonly Document.Parsed[],
  resources: readonly Resource[],
  chartFor: (name: string) => string | undefined,
): { mapped: number; templates: Set<string> } {
  const sources = sourcesByDocument(file, documents);
  const templates = new Set<string>();
  let mapped = 0;
  for (const resource of resources) {
    const source = sources[resource.docIndex];
    if (!source) continue;
    const slash = source.indexOf('/');
    if (slash === -1) continue;
    const chartDir = chartFor(source.slice(0, slash));
    if (!chartDir) continue;
    const recorded = recordHelmTemplate(cache, chartDir, source.slice(slash + 1), resource);
    resource.origin = recorded.origin;
    resource.sourceOrigin = recorded.source;
    templates.add(source);
    mapped++;
  }
  return { mapped, templates };
}
