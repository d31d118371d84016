// The cache key of a Kustomize render: a hash of every file the build can read, the command and the places the
// output's origin paths depend on. kustomize's default load restrictor (LoadRestrictionsRootOnly) keeps a
// kustomization's inputs inside its own directory tree, so the inputs are the files each kustomization of the
// build references (src/render/kustomization.ts), every file next to each kustomization file, and every file a
// generator, transformer or validator configuration names (a PatchTransformer's `path`, a ReplacementTransformer's
// `replacements[].path`, a ConfigMapGenerator's `files`...). Those names are found by meaning-blind search: every
// string in the kustomization and in those configurations that names a regular file inside the repository is an
// input, so a builtin field this list does not know still invalidates the render. A build that can read anything
// else (remote bases, helmCharts, a custom command that may lift the restrictor) is not cached.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../load/limits.js';
import os from 'node:os';
import path from 'node:path';
import { includedKustomizations, loadKustomization, referencedFiles } from './kustomization.js';
import { findOnPath } from './executables.js';
import { parseDocuments, type SourceCache } from './source-cache.js';
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
  const inside = (file: string) => !path.relative(cache.root, file).startsWith('..') && !path.isAbsolute(path.relative(cache.root, file));
  const addNamed = (value: unknown, bases: readonly string[]) => {
    for (const file of namedFiles(value, bases, inside)) files.add(file);
  };
  // `anchors`: the directories of the kustomizations that use this one's output as plugin configuration (a
  // `transformers:` entry that is a directory): paths in that configuration are read relative to them.
  const pending: { dir: string; anchors: readonly string[] }[] = [{ dir: input.dir, anchors: [] }];
  while (pending.length > 0) {
    const { dir, anchors } = pending.pop()!;
    const seenKey = `${dir}\u0000${anchors.join('\u0000')}`;
    if (seen.has(seenKey)) continue;
    seen.add(seenKey);
    const k = loadKustomization(cache, dir);
    if (!k) return undefined;
    const data = k.data ?? {};
    if (data.helmCharts !== undefined || data.helmChartInflationGenerator !== undefined || data.helmGlobals !== undefined) return undefined;
    const entries = [...k.resources, ...k.components];
    if (entries.some((e) => e.type === 'remote')) return undefined;
    const bases = [dir, ...anchors];
    for (const file of referencedFiles(k)) files.add(file);
    for (const file of filesIn(dir)) files.add(file);
    addNamed(data, bases);
    for (const key of PLUGIN_KEYS) {
      for (const item of Array.isArray(data[key]) ? data[key] : []) {
        if (typeof item !== 'string') continue;
        // An inline configuration, or a configuration file: both may name more files.
        const configs = item.includes('\n') ? [parseDocuments(item).map((d) => d.object)] : [];
        const file = path.resolve(dir, item);
        if (!item.includes('\n') && isRegularFile(file)) configs.push((cache.get(file)?.documents ?? []).map((d) => d.object));
        for (const objects of configs) {
          if (objects.some((o) => o?.kind === 'HelmChartInflationGenerator')) return undefined;
          addNamed(objects, [...bases, path.dirname(file)]);
        }
      }
    }
    if (anchors.length > 0) {
      // This kustomization's resources are another's plugin configuration.
      for (const file of referencedFiles(k)) addNamed((cache.get(file)?.documents ?? []).map((d) => d.object), [...bases, path.dirname(file)]);
    }
    const pluginDirs = new Set(
      PLUGIN_KEYS.flatMap((key) => (Array.isArray(data[key]) ? data[key] : []))
        .filter((item): item is string => typeof item === 'string' && !item.includes('\n'))
        .map((item) => path.resolve(dir, item)),
    );
    for (const included of includedKustomizations(k)) {
      pending.push({ dir: included, anchors: pluginDirs.has(included) ? bases : anchors });
    }
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

const PLUGIN_KEYS = ['generators', 'transformers', 'validators'] as const;

/**
 * Every regular file inside the repository a string in `value` names, resolved against each of `bases` (inline patches and other
 * multi-line strings are content, not names). Walked with an explicit stack: the value came from a repository.
 */
function namedFiles(value: unknown, bases: readonly string[], inside: (file: string) => boolean): string[] {
  const found: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.length === 0 || item.length > 4096 || item.includes('\n') || item.includes('\u0000')) continue;
      // `key=path` in a generator's `files`.
      const names = item.includes('=') ? [item, item.slice(item.indexOf('=') + 1)] : [item];
      for (const name of names) for (const base of bases) {
        const file = path.resolve(base, name);
        if (inside(file) && isRegularFile(file)) found.push(file);
      }
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item && typeof item === 'object') {
      for (const element of Object.values(item)) stack.push(element);
    }
  }
  return found;
}

function isRegularFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
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
