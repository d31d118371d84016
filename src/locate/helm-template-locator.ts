// Helm keeps no line mapping (helm/helm#11552), so a finding on a rendered object points at its template
// by a deterministic heuristic: the line of the offending key whose enclosing keys best match the path,
// else the nearest key of the path found, else the `kind:` line; the note always says it is approximate.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { firstLineRegion, regionOf } from '../load/source-file.js';
import type { HelmTemplateSource } from '../render/helm-source.js';
import type { SourceCache } from '../render/source-cache.js';
import type { JsonPath, Located, SourceFile } from '../types.js';

const APPROXIMATE = 'line approximate: rendered by Helm';

interface KeyLine {
  key: string;
  indent: number;
  start: number;
  end: number;
}

/** Lines of the template that look like `key:` or `- key:` (template actions are skipped, not parsed). */
function keyLines(text: string): KeyLine[] {
  const lines: KeyLine[] = [];
  const pattern = /^([ \t]*)(?:-[ \t]+)?([A-Za-z_][\w.\-/]*|"[^"\n]+"|'[^'\n]+')[ \t]*:(?=[ \t]|$)[^\n]*$/gm;
  for (const m of text.matchAll(pattern)) {
    const dash = /^[ \t]*-[ \t]+/.exec(m[0]);
    lines.push({ key: m[2].replace(/^["']|["']$/g, ''), indent: dash ? dash[0].length : m[1].length, start: m.index!, end: m.index! + m[0].length });
  }
  return lines;
}

/** The keys enclosing line `i`: walking up, each line indented less than the last one seen. */
function ancestors(lines: readonly KeyLine[], i: number): string[] {
  const keys: string[] = [];
  let indent = lines[i].indent;
  for (let j = i - 1; j >= 0 && indent > 0; j--) {
    if (lines[j].indent < indent) {
      keys.push(lines[j].key);
      indent = lines[j].indent;
    }
  }
  return keys;
}

/** How many of the path's enclosing keys appear, in order, among the line's enclosing keys. */
function score(expected: readonly string[], found: readonly string[]): number {
  let n = 0;
  let j = 0;
  for (const key of expected) {
    while (j < found.length && found[j] !== key) j++;
    if (j === found.length) break;
    n++;
    j++;
  }
  return n;
}

/** The best line for `key` among `lines`, scored by how well its enclosing keys match the path. */
function bestLine(lines: readonly KeyLine[], key: string, enclosing: readonly string[]): KeyLine | undefined {
  let best: KeyLine | undefined;
  let bestScore = -1;
  lines.forEach((line, i) => {
    if (line.key !== key) return;
    const s = score(enclosing, ancestors(lines, i));
    if (s > bestScore) {
      best = line;
      bestScore = s;
    }
  });
  return best;
}

/**
 * @param helpers the chart's `_*.tpl` files: a field the template pulls in with `include` is spelled out
 * there, so the exact key is looked up in them before settling for an enclosing key of the template.
 */
export function locateInTemplate(file: SourceFile, p: JsonPath, helpers: readonly SourceFile[] = []): Located {
  const lines = keyLines(file.text);
  const keys = p.filter((s): s is string => typeof s === 'string');
  const region = (f: SourceFile, line: KeyLine) => regionOf(f, line.start + line.indent, line.end);
  for (let depth = keys.length; depth > 0; depth--) {
    const key = keys[depth - 1];
    const enclosing = keys.slice(0, depth - 1).reverse();
    const line = bestLine(lines, key, enclosing);
    if (line) {
      const shown = depth === keys.length ? key : `${key} (the template does not spell out ${keys.slice(depth).join('.')})`;
      return { location: { file: file.path, region: region(file, line) }, note: `${APPROXIMATE}; matched ${shown}` };
    }
    if (depth !== keys.length) continue;
    for (const helper of helpers) {
      const inHelper = bestLine(keyLines(helper.text), key, enclosing);
      if (inHelper) return { location: { file: helper.path, region: region(helper, inHelper) }, note: `${APPROXIMATE}; matched ${key} in a helper the template includes` };
    }
  }
  const kind = /^kind:.*$/m.exec(file.text);
  if (kind) return { location: { file: file.path, region: regionOf(file, kind.index, kind.index + kind[0].length) }, note: `${APPROXIMATE}; the template does not spell out ${keys.join('.') || 'the field'}` };
  return { location: { file: file.path, region: firstLineRegion(file) }, note: `${APPROXIMATE}; the template builds this object through helpers` };
}

/** The chart's `templates/_*.tpl` helper files, read once per chart. */
function helpersOf(cache: SourceCache, chartDir: string): SourceFile[] {
  return cache.remember(`helpers:${chartDir}`, () => {
    const dir = path.join(chartDir, 'templates');
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((name) => /^_.*\.tpl$/.test(name)).sort();
    } catch {
      names = [];
    }
    return names.flatMap((name) => cache.get(path.join(dir, name))?.file ?? []);
  });
}

/** A field of an object rendered from a chart template: the template's key line, or the chart when there is no template. */
export function locateHelmTemplate(origin: HelmTemplateSource, p: JsonPath): Located {
  if (origin.template) return locateInTemplate(origin.template, p, helpersOf(origin.cache, origin.chartDir));
  const { why, at } = origin.missing!;
  return { location: { file: at.path, region: firstLineRegion(at) }, note: why };
}
