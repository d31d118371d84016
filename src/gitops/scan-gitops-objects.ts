// One pass over the YAML files under a directory for the GitOps objects that start clusters: Flux
// Kustomizations and Argo CD Applications/ApplicationSets. Files are read as text first; only those naming one
// of the API groups and kinds are parsed.
import fg from 'fast-glob';
import { directoryListings } from '../load/directory-listings.js';
import { readAtMost } from '../load/read-at-most.js';
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
  const found: GitopsObjects = { flux: [], argo: [] };
  // Finding the repository root and building its clusters both scan the same directory: one walk and read per run.
  const files = await cache.remember(`gitops-object-files\0${searchDir}\0${ignore.join('\0')}`, () => filesNamingGitopsObjects(cache, searchDir, ignore));
  for (const file of files) {
    const source = cache.get(file);
    for (const d of source?.documents ?? []) {
      if (isFluxKustomization(d.object)) found.flux.push(makeResource(source!.file, d.docIndex, () => d.node, d.object));
      else if (isArgoApplication(d.object)) found.argo.push(makeResource(source!.file, d.docIndex, () => d.node, d.object));
    }
  }
  return found;
}

/** The YAML files under a directory whose text names a Flux Kustomization or Argo CD Application group and kind, sorted. */
function filesNamingGitopsObjects(cache: SourceCache, searchDir: string, ignore: readonly string[]): string[] {
  // Hidden directories too: Flux's generator walks them. The directories discovery listed are not read again.
  const files = fg.sync(['**/*.yaml', '**/*.yml'], { cwd: searchDir, absolute: true, dot: true, ignore: ['**/.git/**', '**/node_modules/**', ...ignore], followSymbolicLinks: false, suppressErrors: true, fs: directoryListings(cache).fs });
  // Finding the repository root scans without the ignore globs, building its clusters with them: each file is read once.
  const verdicts = cache.remember('gitops-object-verdicts', () => new Map<string, boolean>());
  let buffer: Buffer | undefined;
  const naming = (file: string): boolean => {
    buffer ??= Buffer.allocUnsafe(MAX_SCAN_BYTES + 1);
    // Files over the limit are skipped: one read of one byte more than it says which, without a stat.
    const length = readAtMost(file, buffer);
    if (length === undefined || length > MAX_SCAN_BYTES) return false;
    const bytes = buffer.subarray(0, length);
    // Both the group and the kind in the text, else no document of the file can be one (Argo Workflows and
    // Kustomize's own Kustomizations are common and not worth a parse). The bytes are searched: no decoding.
    const flux = bytes.includes(FLUX_KUSTOMIZE_GROUP) && bytes.includes('Kustomization');
    const argo = bytes.includes('argoproj.io/') && bytes.includes('Application');
    return flux || argo;
  };
  return files.sort().filter((file) => {
    let verdict = verdicts.get(file);
    if (verdict === undefined) verdicts.set(file, (verdict = naming(file)));
    return verdict;
  });
}
