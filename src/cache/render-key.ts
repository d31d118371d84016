// The cache key of a Kustomize render: a hash of every file the build can read, the command and the places the
// output's origin paths depend on. kustomize's default load restrictor (LoadRestrictionsRootOnly) keeps a
// kustomization's inputs inside its own directory tree, so the inputs are the files each kustomization of the
// build references (src/render/kustomization.ts) plus every file next to each kustomization file. A build that can
// read anything else (remote bases, helmCharts, a custom command that may lift the restrictor) is not cached.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { includedKustomizations, loadKustomization, referencedFiles } from '../render/kustomization.js';
import { findOnPath } from '../render/executables.js';
import type { SourceCache } from '../render/source-cache.js';
import { contentHash } from './lint-cache.js';

export interface RenderKeyInput {
  dir: string;
  /** The resolved command (`[/usr/bin/kubectl, kustomize]`). */
  command: readonly string[];
  enableHelm: boolean;
  /** True when the command is pvlint's default choice; a configured one may pass other flags. */
  defaultCommand: boolean;
}

/** The key, or undefined when this build's inputs cannot be listed with certainty. */
export function kustomizeRenderKey(cache: SourceCache, input: RenderKeyInput): string | undefined {
  if (!input.defaultCommand || input.enableHelm) return undefined;
  const files = new Set<string>();
  const seen = new Set<string>();
  const pending = [input.dir];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    if (seen.has(dir)) continue;
    seen.add(dir);
    const k = loadKustomization(cache, dir);
    if (!k) return undefined;
    const data = k.data ?? {};
    if (data.helmCharts !== undefined || data.helmChartInflationGenerator !== undefined || data.helmGlobals !== undefined) return undefined;
    const entries = [...k.resources, ...k.components];
    if (entries.some((e) => e.type === 'remote')) return undefined;
    for (const file of referencedFiles(k)) files.add(file);
    for (const file of filesIn(dir)) files.add(file);
    pending.push(...includedKustomizations(k));
  }
  const hash = [
    'kustomize-render/1',
    input.command.join('\u0000'),
    executableStamp(input.command[0] && (path.isAbsolute(input.command[0]) ? input.command[0] : findOnPath(input.command[0]))),
    input.dir,
    // Origin paths in the output are relative to a temporary directory: the same for any run with the same one.
    os.tmpdir(),
  ];
  for (const file of [...files].sort()) {
    let content: string;
    try {
      content = contentHash(readFileSync(file));
    } catch (error) {
      content = `unreadable:${(error as NodeJS.ErrnoException)?.code ?? ''}`;
    }
    hash.push(`${path.relative(input.dir, file)}\u0000${content}`);
  }
  return contentHash(hash.join('\n'));
}

/** Regular files directly in `dir` (a patch or generator input next to the kustomization file). */
function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() || e.isSymbolicLink())
      .map((e) => path.join(dir, e.name))
      .filter((file) => {
        try {
          return statSync(file).isFile();
        } catch {
          return false;
        }
      });
  } catch {
    return [];
  }
}

/** A new kustomize (or kubectl) binary may render differently: its path, size and modification time. */
function executableStamp(executable: string | undefined): string {
  if (!executable) return '';
  try {
    const info = statSync(executable);
    return `${executable}:${info.size}:${info.mtimeMs}`;
  } catch {
    return executable;
  }
}
