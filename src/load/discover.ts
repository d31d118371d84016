// Expands the command-line paths into what to lint: Kustomize roots and Helm charts to render (each one
// environment), and loose manifests that nothing renders. Files a kustomization reads are never loose.
//
// Symbolic links are followed at most once each: a link to a file or directory inside the repository (or the
// argument) is followed, unless its target is already part of the walk (links back up the tree, loops); a link
// that leads out of the repository is not followed unless `followSymlinks` is set, and says so in a note; a
// followed directory link must stay on the repository's device and within `maxFiles` entries (a link to `/`). A
// broken or looping link with a manifest's name is reported when it is read. A directory holding more than
// `maxFiles` manifests is refused as a whole (deterministically) with a `pvlint/limit` finding.
import fg from 'fast-glob';
import { accessSync, closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import path from 'node:path';
import { findEntryPoints } from '../render/entry-points.js';
import { KUSTOMIZATION_FILES } from '../render/kustomization.js';
import { SourceCache } from '../render/source-cache.js';
import { DirectoryListings, directoryListings } from './directory-listings.js';
import { withRootAnchors } from './ignore-patterns.js';
import { DEFAULT_LIMITS } from './limits.js';
import { UsageError } from './usage-error.js';
import type { Severity } from '../types.js';

export interface DiscoverOptions {
  cwd: string;
  /** Extra globs to skip, relative to each directory argument (or absolute). */
  ignore?: readonly string[];
  /** Shared with the renderers so each kustomization is read once per run. */
  cache?: SourceCache;
  /** Follow symlinks whose target is outside the argument and `roots` (each target still once). */
  followSymlinks?: boolean;
  /** Directories symlinks may lead into without `followSymlinks`, besides the argument (the repository root). */
  roots?: readonly string[];
  /** Manifest files under one directory argument; more and the argument is not linted (default 200,000). */
  maxFiles?: number;
  /** A directory argument with nothing to lint is fine (the base tree of a review); otherwise a usage error. */
  allowEmpty?: boolean;
  /** Entries of any kind the one-pass listing may hold before the argument is walked as a stream (default 2 × maxFiles + 65,536). */
  listingBound?: number;
}

/** Something discovery could not or would not do, reported at `file` (an absolute path). */
export interface DiscoverProblem {
  ruleId: 'pvlint/read' | 'pvlint/limit';
  severity: Severity;
  file: string;
  message: string;
  /** The fix to show, when not the diagnostic's usual one. */
  fix?: string;
}

export interface DiscoveredInput {
  /** The argument as the user gave it. */
  argument: string;
  /** `-` reads standard input. */
  stdin: boolean;
  /** Loose manifests: not inside a chart, not read by any kustomization under the argument. */
  files: string[];
  /** Helm chart directories to render (subcharts and kustomize chart homes excluded). */
  charts: string[];
  /** Kustomize roots to render: the argument itself when it is one, else roots no other root includes. */
  kustomizations: string[];
  /** Links not followed, directories refused: findings, not errors. */
  problems: DiscoverProblem[];
}

// Re-exported: the CLI, configuration and review meet it as discovery's error.
export { UsageError };

/**
 * Never linted. `.git/` and `node_modules/` hold no repository manifests. The rest is what Flux's source-controller
 * leaves out of every artifact it builds from a repository (fluxcd/pkg sourceignore: `ExcludeVCS`, `ExcludeCI`,
 * `ExcludeExtra`), so no cluster ever applies it: CI configuration (`.github/`, `.circleci/`, `.gitlab-ci.yml`,
 * `.travis.yml`), `.sops.yaml`, `.flux.yaml`, `.goreleaser.yml`. Every other dot-named file or directory is in
 * the artifact, and Flux applies its YAML files (a directory without a kustomization.yaml is built from every
 * `.yaml`/`.yml` under it, dot-named or not): those are linted. README "Usage" lists this.
 */
const ALWAYS_IGNORED = [
  '**/.git/**', '**/node_modules/**',
  '**/.github/**', '**/.circleci/**', '**/.gitlab-ci.yml', '**/.travis.yml', '**/.sops.yaml', '**/.flux.yaml', '**/.goreleaser.yml',
];
/**
 * JSON under a dot-named path is editor and tool configuration (`.vscode/`, `.devcontainer/`, `.renovaterc.json`),
 * often with comments, and Flux never applies it (it builds from `.yaml`/`.yml` only): not linted, as documented.
 */
const DOT_JSON = /(?:^|[\\/])\.[^\\/]*(?:[\\/].*)?\.json$/s;
/** A path with a dot-named directory or file in it. */
const DOT_PATH = /(?:^|[\\/])\.[^\\/]/;
/** What a Kubernetes object's text shows within its first lines: a top-level `apiVersion:` and `kind:`. */
const OBJECT_KEYS = [/^apiVersion[ \t]*:/m, /^kind[ \t]*:/m];
const SNIFF_BYTES = 64 * 1024;

/**
 * A dot-named YAML file is linted when it shows a Kubernetes object: tool configuration (`.pvlint.yaml`,
 * `.pre-commit-config.yaml`, `.yamllint.yaml`) is not a manifest, and would otherwise make an environment of its own.
 * Reads at most 64 KiB of a regular file, without blocking; anything else is left to the reader to report.
 */
function dotFileShowsObject(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) return true;
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const text = buffer.toString('utf8', 0, readSync(fd, buffer, 0, SNIFF_BYTES, 0));
    return OBJECT_KEYS.every((key) => key.test(text));
  } catch {
    return true;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
const FOLLOW_FIX = 'Pass --follow-symlinks to lint what the link points to, or exclude the link with --ignore.';
const KUSTOMIZATION_NAMES = new Set<string>(KUSTOMIZATION_FILES);

/** The names discovery looks at: `*.yaml`, `*.yml`, `*.json`, and kustomize's extension-less `Kustomization`. */
export function isManifestName(name: string): boolean {
  return /\.(?:ya?ml|json)$/.test(name) || name === 'Kustomization';
}

/** True when `dir` or an ancestor up to `stop` is in `dirs`: a walk up the tree, not a scan of `dirs`. */
function withinAny(dir: string, dirs: ReadonlySet<string>, stop: string): boolean {
  let current = dir;
  for (;;) {
    if (dirs.has(current)) return true;
    if (current === stop) return false;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

class TooManyFiles extends Error {}

/**
 * Entries (of any kind) the one-pass listing of an argument may hold besides twice `maxFiles`: past that the tree is
 * walked as a stream, which holds nothing and stops at `maxFiles` manifests.
 */
const LISTING_SLACK = 65_536;

/** Why the walk of a followed directory link stopped (another file system, or too many entries). */
class LinkWalkStopped extends Error {
  constructor(readonly problem: DiscoverProblem) {
    super(problem.message);
  }
}

/**
 * Bounds on what walking a followed directory link may visit: entries on the repository's device only, and at most
 * `entriesLeft` entries of any kind over the whole argument (a link to `/` would otherwise list the whole machine,
 * manifests or not; `maxFiles` counts manifests only).
 */
interface LinkBounds {
  device: number;
  /** Shared by every followed link of the argument. */
  entries: { left: number; max: number };
  /** The link whose walk this is, for the diagnostic. */
  link: string;
}

/** Whether the directory can be listed and entered (read and execute permission). */
function canList(dir: string): boolean {
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface Walk {
  /** Manifest-named entries that are not symlinks (regular files, and FIFOs etc. that reading will refuse). */
  files: string[];
  /** Directories the walk could not list (fast-glob skips them without a word): relative to the argument. */
  unreadable: string[];
  /** The same, found under a followed directory link. */
  viaLink: string[];
  /** Symlinks (any name), relative to the argument. */
  links: string[];
}

/** What one entry of a walk adds to `out`; throws `TooManyFiles` once more than the budget's manifests are seen. */
function take(cwd: string, entry: fg.Entry, budget: { left: number }, out: Walk, linked: boolean): void {
  const dirent = entry.dirent;
  if (dirent.isDirectory()) {
    if (!canList(path.join(cwd, entry.path))) out.unreadable.push(entry.path);
    return;
  }
  if (dirent.isSymbolicLink()) {
    out.links.push(entry.path);
    return;
  }
  if (!isManifestName(entry.name) || DOT_JSON.test(entry.path)) return;
  if (DOT_PATH.test(entry.path) && !KUSTOMIZATION_NAMES.has(entry.name) && !dotFileShowsObject(path.join(cwd, entry.path))) return;
  if (--budget.left < 0) throw new TooManyFiles();
  (linked ? out.viaLink : out.files).push(entry.path);
}

/**
 * fast-glob's options for every walk (of the pattern `**` + `/*`: `**` alone does not match names holding a newline or
 * a carriage return).
 */
function walkOptions(cwd: string, ignore: string[], stats: boolean): fg.Options {
  return { cwd, ignore, dot: true, followSymbolicLinks: false, onlyFiles: false, objectMode: true, suppressErrors: true, stats };
}

/**
 * The argument's own tree, listed in one synchronous pass (a stream costs several times as much per entry), and
 * whether that is all of it: a tree of more than `bound` entries is cut there, since only a stream, which stops at
 * `maxFiles` manifests, keeps a hostile tree from being listed whole. The directories are read through a counting
 * `readdirSync` that lists nothing more once the bound is passed: what a cut listing holds is in the tree.
 */
function listWhole(cwd: string, ignore: string[], bound: number, listings: DirectoryListings): { entries: fg.Entry[]; complete: boolean } {
  const reader = listings.bounded(bound);
  // One pattern lists no path twice: fast-glob's index of paths seen (`unique`) is not needed.
  const entries = fg.sync(['**/*'], { ...walkOptions(cwd, ignore, false), unique: false, fs: reader.fs }) as unknown as fg.Entry[];
  return { entries, complete: !reader.passed() };
}

/**
 * Lists `pattern` under `cwd` without following links, stopping once more than `maxFiles` manifests are seen. The
 * walk of a followed directory link (`bounds`) also stops at an entry on another device or past the entry bound.
 */
async function walk(cwd: string, pattern: string, ignore: string[], budget: { left: number }, out: Walk, bounds?: LinkBounds): Promise<void> {
  const linked = bounds !== undefined;
  const stream = fg.stream([pattern], walkOptions(cwd, ignore, linked));
  try {
    for await (const raw of stream) {
      const entry = raw as unknown as fg.Entry;
      if (bounds) {
        if (--bounds.entries.left < 0) {
          throw new LinkWalkStopped({
            ruleId: 'pvlint/limit',
            severity: 'error',
            file: bounds.link,
            message: `symbolic link followed (--follow-symlinks) into more than ${bounds.entries.max.toLocaleString('en-US')} files and directories (maxFiles); not followed, nothing under it is linted`,
            fix: 'Lint the target directory as an argument of its own, or exclude the link with --ignore.',
          });
        }
        if (entry.stats && entry.stats.dev !== bounds.device) {
          throw new LinkWalkStopped({
            ruleId: 'pvlint/read',
            severity: 'error',
            file: bounds.link,
            message: `symbolic link followed (--follow-symlinks) into another file system (${path.join(cwd, entry.path)} is on another device than the repository); not followed, nothing under it is linted`,
            fix: 'Lint the target directory as an argument of its own, or exclude the link with --ignore.',
          });
        }
      }
      take(cwd, entry, budget, out, linked);
    }
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
}

export async function discover(argument: string, options: DiscoverOptions): Promise<DiscoveredInput> {
  const empty = { argument, stdin: false, files: [], charts: [], kustomizations: [], problems: [] };
  if (argument === '-') return { ...empty, stdin: true };
  const absolute = path.resolve(options.cwd, argument);
  try {
    await lstat(absolute);
  } catch {
    throw new UsageError(`path not found: ${argument}`);
  }
  let info;
  try {
    info = await stat(absolute);
  } catch {
    // A broken or looping symlink named on the command line: reading it says which.
    return { ...empty, files: [absolute] };
  }
  if (info.isFile()) {
    const base = path.basename(absolute);
    // Naming a kustomization or Chart.yaml means "render this", like naming its directory.
    if (KUSTOMIZATION_NAMES.has(base)) return { ...empty, kustomizations: [path.dirname(absolute)] };
    if (base === 'Chart.yaml') return { ...empty, charts: [path.dirname(absolute)] };
    return { ...empty, files: [absolute] };
  }
  if (!info.isDirectory()) throw new UsageError(`not a file or directory: ${argument}`);
  // Relative globs match paths relative to the argument and, as printed, relative to the repository root.
  const ignore = [...ALWAYS_IGNORED, ...withRootAnchors(options.ignore ?? [], options.roots?.[0])];
  const maxFiles = options.maxFiles ?? DEFAULT_LIMITS.maxFiles;
  const problems: DiscoverProblem[] = [];
  const realArgument = realpathOrUndefined(absolute) ?? absolute;
  const allowed = [realArgument, ...(options.roots ?? []).map((root) => realpathOrUndefined(root) ?? root)];
  const walked = [realArgument];
  const found: Walk = { files: [], unreadable: [], viaLink: [], links: [] };
  const budget = { left: maxFiles };
  const linkedFiles: string[] = [];
  const device = (await stat(realArgument)).dev;
  const linkEntries = { left: maxFiles, max: maxFiles };
  try {
    const listed = listWhole(absolute, ignore, options.listingBound ?? 2 * maxFiles + LISTING_SLACK, options.cache ? directoryListings(options.cache) : new DirectoryListings());
    if (listed.complete) {
      for (const entry of listed.entries) take(absolute, entry, budget, found, false);
    } else {
      // A cut listing that already holds more than maxFiles manifests settles it (a hostile tree is not listed twice);
      // otherwise the stream walks the whole tree.
      const probe: Walk = { files: [], unreadable: [], viaLink: [], links: [] };
      const probeBudget = { left: budget.left };
      for (const entry of listed.entries) take(absolute, entry, probeBudget, probe, false);
      await walk(absolute, '**/*', ignore, budget, found);
    }
    // Links in path order, round by round (links found in followed directories come in the next round), so the
    // result does not depend on the order the file system lists entries in. Each target is walked once.
    for (let round = found.links.splice(0).sort(); round.length > 0; round = found.links.splice(0).sort()) {
      for (const rel of round) {
        const link = path.join(absolute, rel);
        const target = await stat(link).catch(() => undefined);
        const real = target ? realpathOrUndefined(link) : undefined;
        if (!target || !real) {
          // Broken or looping: reading it reports which.
          if (isManifestName(path.basename(rel))) linkedFiles.push(rel);
          continue;
        }
        const outside = !allowed.some((root) => isInside(real, root));
        if (target.isDirectory()) {
          if (walked.some((dir) => isInside(real, dir))) continue;
          if (outside && !options.followSymlinks) {
            problems.push({
              ruleId: 'pvlint/read',
              severity: 'note',
              file: link,
              message: `symbolic link to a directory outside the repository (${real}); not followed (--follow-symlinks follows it)`,
              fix: FOLLOW_FIX,
            });
            continue;
          }
          if (target.dev !== device) {
            problems.push({
              ruleId: 'pvlint/read',
              severity: 'error',
              file: link,
              message: `symbolic link to a directory on another file system (${real}, another device than the repository); not followed, even with --follow-symlinks`,
              fix: 'Lint the target directory as an argument of its own, or exclude the link with --ignore.',
            });
            continue;
          }
          walked.push(real);
          // What this link's walk adds is taken back whole if it stops: the result never depends on listing order.
          const before = { viaLink: found.viaLink.length, links: found.links.length, unreadable: found.unreadable.length, budget: budget.left };
          try {
            await walk(absolute, `${fg.escapePath(rel.split(path.sep).join('/'))}/**/*`, ignore, budget, found, { device, entries: linkEntries, link });
          } catch (error) {
            if (!(error instanceof LinkWalkStopped)) throw error;
            found.viaLink.length = before.viaLink;
            found.links.length = before.links;
            found.unreadable.length = before.unreadable;
            budget.left = before.budget;
            walked.splice(walked.indexOf(real), 1);
            problems.push(error.problem);
          }
          continue;
        }
        if (!isManifestName(path.basename(rel)) || DOT_JSON.test(rel)) continue;
        if (DOT_PATH.test(rel) && !KUSTOMIZATION_NAMES.has(path.basename(rel)) && !dotFileShowsObject(link)) continue;
        if (outside && !options.followSymlinks) {
          problems.push({
            ruleId: 'pvlint/read',
            severity: 'note',
            file: link,
            message: `symbolic link to a file outside the repository (${real}); not followed (--follow-symlinks follows it)`,
            fix: FOLLOW_FIX,
          });
          continue;
        }
        if (--budget.left < 0) throw new TooManyFiles();
        linkedFiles.push(rel);
      }
    }
  } catch (error) {
    if (!(error instanceof TooManyFiles)) throw error;
    problems.push({
      ruleId: 'pvlint/limit',
      severity: 'error',
      file: absolute,
      message: `${argument} holds more than ${maxFiles} manifest files (maxFiles); it is not linted. Lint its subdirectories one by one, or raise the limit`,
    });
    return { ...empty, problems };
  }
  // One path per real file: a file reached directly and through a link is linted once, under its own path; one
  // reached only through links, under the first of those paths.
  const seenReal = new Set<string>();
  const kustomizationDirs = new Set<string>();
  const chartDirs = new Set<string>();
  const candidates: string[] = [];
  for (const rel of found.unreadable.sort()) {
    problems.push({
      ruleId: 'pvlint/read',
      severity: 'error',
      file: path.join(absolute, rel),
      message: 'cannot read directory: permission denied; the manifests in it are not linted',
      fix: 'Give the user running pvlint read and execute permission on the directory, or exclude it with --ignore.',
    });
  }
  // A walk that follows no link reaches each file once: real paths are needed only when links were followed.
  const throughLinks = found.viaLink.length > 0 || linkedFiles.length > 0;
  for (const rel of [...found.files.sort(), ...[...found.viaLink, ...linkedFiles].sort()]) {
    const file = path.join(absolute, rel);
    const real = throughLinks ? realpathOrUndefined(file) : undefined;
    if (real !== undefined) {
      if (seenReal.has(real)) continue;
      seenReal.add(real);
    }
    const base = path.basename(file);
    if (KUSTOMIZATION_NAMES.has(base)) kustomizationDirs.add(path.dirname(file));
    else if (base === 'Chart.yaml') chartDirs.add(path.dirname(file));
    else candidates.push(file);
  }
  const cache = options.cache ?? new SourceCache(options.cwd);
  // Kustomizations inside a chart are chart content (e.g. templates), not roots.
  const roots = [...kustomizationDirs].filter((dir) => !withinAny(dir, chartDirs, absolute)).sort();
  const entries = findEntryPoints(cache, roots, [...chartDirs].sort(), absolute);
  const files = candidates
    .filter((file) => !entries.referenced.has(file) && (chartDirs.size === 0 || !withinAny(path.dirname(file), chartDirs, absolute)))
    .sort();
  if (!options.allowEmpty && files.length + entries.charts.length + entries.kustomizations.length + problems.length === 0 && linkedFiles.length === 0) {
    // As ESLint does: a named directory with nothing to lint is a mistake (a wrong path, an --ignore too wide),
    // not "no problems in 0 files".
    const ignoredToo = (options.ignore ?? []).length > 0 ? ' that is not ignored (--ignore or the configuration\'s ignore)' : '';
    throw new UsageError(`nothing to lint in ${argument}: no .yaml, .yml or .json manifest, Kustomization or Helm chart${ignoredToo}`);
  }
  return { argument, stdin: false, files, charts: entries.charts, kustomizations: entries.kustomizations, problems };
}

/** The repository root that report paths are relative to: the enclosing git work tree, else the cwd. */
export async function findRepoRoot(cwd: string): Promise<string> {
  let dir = path.resolve(cwd);
  for (;;) {
    try {
      await stat(path.join(dir, '.git'));
      return dir;
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return path.resolve(cwd);
      dir = parent;
    }
  }
}
