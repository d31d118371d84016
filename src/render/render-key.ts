// The cache key of a Kustomize render: a hash of every file the build can read, the command and the places the
// output's origin paths depend on. kustomize's default load restrictor (LoadRestrictionsRootOnly) keeps a
// kustomization's inputs inside its own directory tree, so the inputs are the files each kustomization of the
// build references (src/render/kustomization.ts) plus every file next to each kustomization file. A build that can
// read anything else (remote bases, helmCharts, a custom command that may lift the restrictor) is not cached.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../load/limits.js';
import os from 'node:os';
import path from 'node:path';
import { includedKustomizations, loadKustomization, referencedFiles } from './kustomization.js';
import { findOnPath } from './executables.js';
import type { SourceCache } from './source-cache.js';
import { contentHash } from '../cache/lint-cache.js';

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
    const content = inputHash(cache.root, file);
    // A FIFO, a device, a file over the size limit or outside the repository: kustomize will read (or refuse) it
    // under the render's timeout; the key cannot stand for it, so the build is not cached.
    if (content === undefined) return undefined;
    hash.push(`${path.relative(input.dir, file)}\u0000${content}`);
  }
  return contentHash(hash.join('\n'));
}

/**
 * The hash of a file a build reads, read as manifests are (README "Limits"): a regular file inside `root`, at most
 * `maxFileBytes`, opened without blocking. `unreadable:CODE` for a file that is missing or cannot be read (kustomize
 * fails on it the same way every time); undefined for anything the key cannot stand for.
 */
function inputHash(root: string, file: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException)?.code ?? ''}`;
  }
  const relative = path.relative(realpathOr(root), real);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException)?.code ?? ''}`;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > DEFAULT_LIMITS.maxFileBytes) return undefined;
    const buffer = Buffer.allocUnsafe(info.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      // Grown since stat(): not a file the key can pin down.
      if (length > info.size) return undefined;
    }
    return contentHash(buffer.subarray(0, length));
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException)?.code ?? ''}`;
  } finally {
    closeSync(fd);
  }
}

function realpathOr(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
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
