// The import graph of pvlint's own sources (src/ and rules/), read with TypeScript's own pre-processor so that
// comments, strings and template literals are never taken for imports. Every kind of import counts: `import`,
// `import type`, `export ... from` and `import('...')` with a literal name.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import between two source files, as repository-relative paths with forward slashes. */
export interface ImportArrow {
  from: string;
  to: string;
}

/** Every `.ts` file under `dirs` (relative to `root`), declaration files left out. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(relative);
    }
  };
  for (const dir of dirs) walk(dir);
  return files.sort();
}

/** The relative imports of `files` that lead to another file of the set (packages and node: modules are not arrows). */
export function importArrows(root: string, files: readonly string[]): { arrows: ImportArrow[]; unresolved: string[] } {
  const known = new Set(files);
  const arrows: ImportArrow[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    const info = ts.preProcessFile(readFileSync(path.join(root, from), 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), imported.fileName)).replace(/\.js$/, '.ts');
      if (known.has(target)) arrows.push({ from, to: target });
      else unresolved.push(`${from} -> ${imported.fileName}`);
    }
  }
  return { arrows, unresolved };
}

/** A layer of the pipeline: the folders (ending in `/`) and files that belong to it. */
export interface Layer {
  name: string;
  members: readonly string[];
}

/** The index of the layer a file belongs to: its most specific member (a file, else the longest folder) wins. */
export function layerOf(layers: readonly Layer[], file: string): number | undefined {
  let best: { index: number; length: number } | undefined;
  layers.forEach((layer, index) => {
    for (const member of layer.members) {
      const matches = member.endsWith('/') ? file.startsWith(member) : file === member;
      const length = member.endsWith('/') ? member.length : Number.MAX_SAFE_INTEGER;
      if (matches && (!best || length > best.length)) best = { index, length };
    }
  });
  return best?.index;
}

/** Arrows from a lower layer to a higher one, as `a.ts -> b.ts`. */
export function backArrows(layers: readonly Layer[], arrows: readonly ImportArrow[]): string[] {
  const out: string[] = [];
  for (const { from, to } of arrows) {
    const a = layerOf(layers, from);
    const b = layerOf(layers, to);
    if (a !== undefined && b !== undefined && b > a) out.push(`${from} -> ${to}`);
  }
  return [...new Set(out)].sort();
}

/** The arrows inside every import cycle (strongly connected components of more than one file, or a self-import). */
export function cycleArrows(arrows: readonly ImportArrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of arrows) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  // Tarjan's algorithm, iterative so that a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const children = next.get(frame.node)!;
      if (frame.child < children.length) {
        const child = children[frame.child++];
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  const cycles: string[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const inside = arrows.filter((a) => members.has(a.from) && members.has(a.to)).map((a) => `${a.from} -> ${a.to}`);
    if (component.length > 1 || inside.length > 0) cycles.push([...new Set(inside)].sort());
  }
  return cycles;
}
