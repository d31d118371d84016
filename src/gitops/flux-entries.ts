// Where Flux clusters start: the Flux Kustomizations written in the repository that no other Kustomization's
// build includes. `flux bootstrap` writes one that syncs its own directory (`clusters/<name>/flux-system/
// gotk-sync.yaml`, path `./clusters/<name>`): that directory is the entry, built with that Kustomization's spec.
// Any other unreached Kustomization (a flux-operator bootstrap has no sync object in Git) makes its directory an
// entry, built as kustomize-controller would build that directory.
import { statSync } from 'node:fs';
import path from 'node:path';
import { includedKustomizations, loadKustomization, referencedFiles } from '../render/kustomization.js';
import type { SourceCache } from '../render/source-cache.js';
import type { Resource } from '../types.js';
import { generatedEntries } from './flux-build.js';

export const FLUX_KUSTOMIZE_GROUP = 'kustomize.toolkit.fluxcd.io';

export function isFluxKustomization(object: any): boolean {
  return object?.kind === 'Kustomization' && typeof object?.apiVersion === 'string' && object.apiVersion.startsWith(`${FLUX_KUSTOMIZE_GROUP}/`);
}

/** `spec.path` from the root of the source artifact; `..` and absolute paths stay inside it (securejoin). */
export function fluxPath(root: string, specPath: unknown): string {
  const clean = path.posix.normalize(`/${typeof specPath === 'string' ? specPath : ''}`);
  return path.join(root, ...clean.split('/').filter(Boolean));
}

export interface FluxEntry {
  dir: string;
  /** The Kustomization that syncs `dir` (gotk-sync.yaml), when the repository has one. */
  sync?: Resource;
}

/** Files and kustomization directories a build of a directory reads (the closure of its resources), memoised. */
export class BuildReach {
  private readonly reached = new Map<string, { files: Set<string>; roots: Set<string> }>();

  constructor(private readonly cache: SourceCache) {}

  filesOf(dir: string): Set<string> {
    return this.of(dir).files;
  }

  rootsOf(dir: string): Set<string> {
    return this.of(dir).roots;
  }

  private of(dir: string): { files: Set<string>; roots: Set<string> } {
    const known = this.reached.get(dir);
    if (known) return known;
    const reach = { files: new Set<string>(), roots: new Set<string>() };
    this.reached.set(dir, reach);
    const visitRoot = (root: string) => {
      if (reach.roots.has(root)) return;
      reach.roots.add(root);
      const k = loadKustomization(this.cache, root);
      if (!k) return;
      for (const file of referencedFiles(k)) reach.files.add(file);
      for (const child of includedKustomizations(k)) visitRoot(child);
    };
    if (loadKustomization(this.cache, dir)) visitRoot(dir);
    else for (const entry of generatedEntries(dir)) isDirectory(entry) ? visitRoot(entry) : reach.files.add(entry);
    return reach;
  }
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

export function findFluxEntries(root: string, kustomizations: readonly Resource[], reach: BuildReach): FluxEntry[] {
  const targets = kustomizations.map((k) => ({ k, dir: fluxPath(root, k.object?.spec?.path) }));
  const entries = new Map<string, FluxEntry>();
  for (const { k, dir } of targets) {
    const file = k.file.absPath;
    const reachedByOther = targets.some((other) => other.k !== k && other.dir !== dir && reach.filesOf(other.dir).has(file));
    if (reachedByOther) continue;
    if (reach.filesOf(dir).has(file)) entries.set(dir, { dir, sync: k });
    else if (!entries.has(path.dirname(file))) entries.set(path.dirname(file), { dir: path.dirname(file) });
  }
  return [...entries.values()];
}
