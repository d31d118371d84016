// One pass over the YAML files under a directory for the GitOps objects that start clusters: Flux
// Kustomizations and Argo CD Applications/ApplicationSets. Files are read as text first; only those naming one
// of the API groups are parsed.
import { readFileSync, statSync } from 'node:fs';
import fg from 'fast-glob';
import { makeResource } from '../load/parse-resources.js';
import type { SourceCache } from '../render/source-cache.js';
import type { Resource } from '../types.js';
import { isArgoApplication } from './argocd-clusters.js';
import { FLUX_KUSTOMIZE_GROUP, isFluxKustomization } from './flux-entries.js';

const MAX_SCAN_BYTES = 4 * 1024 * 1024;

export interface GitopsObjects {
  flux: Resource[];
  argo: Resource[];
}

export async function scanGitopsObjects(cache: SourceCache, searchDir: string, ignore: readonly string[] = []): Promise<GitopsObjects> {
  // Hidden directories too: Flux's generator walks them.
  const files = await fg(['**/*.yaml', '**/*.yml'], { cwd: searchDir, absolute: true, dot: true, ignore: ['**/.git/**', '**/node_modules/**', ...ignore], followSymbolicLinks: false, suppressErrors: true });
  const found: GitopsObjects = { flux: [], argo: [] };
  for (const file of files.sort()) {
    let text: string;
    try {
      if (statSync(file).size > MAX_SCAN_BYTES) continue;
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (!text.includes(FLUX_KUSTOMIZE_GROUP) && !text.includes('argoproj.io/')) continue;
    const source = cache.get(file);
    for (const d of source?.documents ?? []) {
      if (isFluxKustomization(d.object)) found.flux.push(makeResource(source!.file, d.docIndex, d.node, d.object));
      else if (isArgoApplication(d.object)) found.argo.push(makeResource(source!.file, d.docIndex, d.node, d.object));
    }
  }
  return found;
}
