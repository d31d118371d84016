// Which kustomization roots and charts under a directory are environments of their own. A root that
// another root includes is rendered as part of it, never alone; a component is never built alone.
import path from 'node:path';
import { helmChartHome, includedKustomizations, loadKustomization, referencedFiles } from './kustomization.js';
import type { SourceCache } from './source-cache.js';

export interface EntryPoints {
  kustomizations: string[];
  charts: string[];
  /** Files some kustomization reads (resources, patches, generator inputs): not loose manifests. */
  referenced: Set<string>;
}

/** True when `dir` or one of its ancestors is in `dirs` (a walk up the tree, not a scan of `dirs`). */
function underAny(dir: string, dirs: ReadonlySet<string>, includeSelf: boolean): boolean {
  let current = includeSelf ? dir : path.dirname(dir);
  for (;;) {
    if (dirs.has(current)) return true;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

/**
 * @param explicit the directory the user named; it is an entry point whenever it is a root itself.
 */
export function findEntryPoints(cache: SourceCache, kustomizationDirs: readonly string[], chartDirs: readonly string[], explicit?: string): EntryPoints {
  const included = new Set<string>();
  const referenced = new Set<string>();
  const chartHomes: string[] = [];
  for (const dir of kustomizationDirs) {
    const k = loadKustomization(cache, dir);
    // A kustomization that does not parse is still a root: rendering it reports the error at its file.
    if (!k) continue;
    for (const child of includedKustomizations(k)) if (child !== dir) included.add(child);
    for (const file of referencedFiles(k)) referenced.add(file);
    const home = helmChartHome(k);
    if (home) chartHomes.push(home);
  }
  const kustomizations = kustomizationDirs.filter((dir) => {
    if (dir === explicit) return true;
    if (included.has(dir)) return false;
    return !loadKustomization(cache, dir)?.isComponent;
  });
  // Roots that include each other (a ↔ b) are all "included", so none would be rendered and the cycle would go
  // unnoticed. Every root must be reachable from an entry point: the first unreachable one (in path order) becomes
  // an entry point itself, and kustomize reports the cycle.
  const reachable = new Set<string>();
  const visit = (start: string) => {
    const stack = [start];
    while (stack.length > 0) {
      const dir = stack.pop()!;
      if (reachable.has(dir)) continue;
      reachable.add(dir);
      const k = loadKustomization(cache, dir);
      if (k) for (const child of includedKustomizations(k)) if (!reachable.has(child)) stack.push(child);
    }
  };
  kustomizations.forEach(visit);
  for (const dir of [...kustomizationDirs].sort()) {
    if (reachable.has(dir) || loadKustomization(cache, dir)?.isComponent) continue;
    kustomizations.push(dir);
    visit(dir);
  }
  // Subcharts (a chart inside another chart's dir) and kustomize's chartHome are inputs of something else.
  const chartSet = new Set(chartDirs);
  const homes = new Set(chartHomes);
  const charts = chartDirs.filter((dir) => dir === explicit || (!underAny(dir, chartSet, false) && !underAny(dir, homes, true)));
  return { kustomizations: [...kustomizations].sort(), charts: [...charts].sort(), referenced };
}
