// Renders one Kustomize root with the real tool. A temporary wrapper kustomization (relative path only:
// kustomize rejects absolute ones) turns on origin annotations without touching the user's files.
import { realpathSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { diagnostic } from '../engine/diagnostic.js';
import { firstLineRegion, makeSourceFile } from '../load/source-file.js';
import { DEFAULT_LIMITS, formatBytes, type Limits } from '../load/limits.js';
import { parseWithCache } from '../cache/cached-parse.js';
import type { LintCache } from '../cache/lint-cache.js';
import { kustomizeRenderKey } from './render-key.js';
import type { KindPlan } from '../load/parse-resources.js';
import { kustomizationFileIn, loadKustomization, type Kustomization } from './kustomization.js';
import { recordKustomizeSource } from './kustomize-source.js';
import { removedByKustomization } from './kustomize-removed.js';
import { takeOrigin } from './origin.js';
import type { ProcessSlots } from './pool.js';
import { runCommand } from './process.js';
import { cleanRendererMessage, type RenderedScope } from './rendered-scope.js';
import type { SourceCache } from './source-cache.js';
import type { SourceLocation } from '../types.js';
import { trackTemporaryDirectory } from './interrupt.js';

/** A wrapper kustomization with files beside it (names relative to the wrapper directory). */
export interface WrapperFiles {
  kustomization: string;
  files: Record<string, string>;
}

export interface KustomizeRenderOptions {
  /** `['kustomize', 'build']` or `['kubectl', 'kustomize']`; the directory is appended. */
  command: readonly string[];
  enableHelm: boolean;
  /** With `enableHelm`: the helm binary kustomize runs (`--helm-command`); kustomize's default (`helm`) when unset. */
  helmCommand?: string;
  timeoutMs: number;
  cache: SourceCache;
  /** Output size and document limits (defaults: DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
  /** Which output documents to parse (see `parseResources`); all when undefined. Nothing is deferred: rendered
   * objects get their locators as they are read. */
  kinds?: KindPlan;
  /** `--cache`: the output of a build whose inputs have not changed is reused (see render-key.ts). */
  lintCache?: LintCache;
  /** The command is pvlint's own choice, not configured (only then are renders cached). */
  defaultCommand?: boolean;
  /** Build as Flux's kustomize-controller does: files may come from outside the root (never from outside the repo). */
  loadRestrictorNone?: boolean;
  /**
   * The wrapper kustomization's text instead of the plain one (a GitOps controller's overlay); `relative` turns an
   * absolute path into the entry kustomize needs. Such renders are not cached.
   */
  wrapper?: (relative: (absPath: string) => string) => string | WrapperFiles;
  /**
   * The wrapper's own edits as a kustomization written in the repository (a Flux Kustomization's `spec`), applied
   * after the root's: a finding on a field its `patches` or `images` set points at that line.
   */
  outerLayer?: () => Kustomization | undefined;
  /** The run's renderer processes (see ProcessSlots); unbounded without. */
  slots?: ProcessSlots;
}

function rootLocation(cache: SourceCache, dir: string): SourceLocation {
  const file = kustomizationFileIn(dir);
  const source = file ? cache.get(file) : undefined;
  if (source) return { file: source.file.path, region: firstLineRegion(source.file) };
  return { file: cache.displayPath(dir), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
}

export async function renderKustomization(dir: string, options: KustomizeRenderOptions): Promise<RenderedScope> {
  const { cache } = options;
  const name = cache.displayPath(dir);
  const scope: RenderedScope = { name, renderer: 'kustomize', resources: [], documents: 0, diagnostics: [] };
  const fail = (message: string) => {
    scope.diagnostics.push(diagnostic('pvlint/render', message, rootLocation(cache, dir), 'error', [name]));
    return scope;
  };
  // Real paths on both sides: kustomize resolves symlinks, so origin paths are relative between real paths.
  const realDir = await realpath(dir);
  const wrapper = await mkdtemp(path.join(await realpath(os.tmpdir()), 'pvlint-'));
  const untrack = trackTemporaryDirectory(wrapper);
  try {
    const relative = path.relative(wrapper, realDir).split(path.sep).join('/');
    const wrapped = !path.isAbsolute(relative);
    if (wrapped && options.wrapper) {
      const relativeEntry = (abs: string) => path.relative(wrapper, realpathSync(abs)).split(path.sep).join('/');
      const written = options.wrapper(relativeEntry);
      if (typeof written === 'string') {
        await writeFile(path.join(wrapper, 'kustomization.yaml'), written);
      } else {
        await writeFile(path.join(wrapper, 'kustomization.yaml'), written.kustomization);
        for (const [name, text] of Object.entries(written.files)) await writeFile(path.join(wrapper, name), text);
      }
    } else if (wrapped) {
      // A Component cannot be a resource; kustomize builds one alone when it is listed as a component.
      const field = loadKustomization(cache, dir)?.isComponent ? 'components' : 'resources';
      await writeFile(
        path.join(wrapper, 'kustomization.yaml'),
        `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${field}:\n  - ${JSON.stringify(relative)}\nbuildMetadata: [originAnnotations]\n`,
      );
    }
    const argv = [
      ...options.command,
      wrapped ? wrapper : realDir,
      ...(options.enableHelm ? ['--enable-helm', ...(options.helmCommand ? ['--helm-command', options.helmCommand] : [])] : []),
      ...(options.loadRestrictorNone ? ['--load-restrictor', 'LoadRestrictionsNone'] : []),
    ];
    const maxOutputBytes = options.limits?.maxRenderOutputBytes ?? DEFAULT_LIMITS.maxRenderOutputBytes;
    const renderKey = options.lintCache && !options.wrapper && !options.loadRestrictorNone
      ? kustomizeRenderKey(cache, { dir: realDir, command: options.command, enableHelm: options.enableHelm, defaultCommand: options.defaultCommand ?? false })
      : undefined;
    const cached = renderKey ? options.lintCache!.get<string>('render', renderKey) : undefined;
    const result = cached !== undefined ? { status: 'ok' as const, stdout: cached, stderr: '' } : await runCommand(argv, { cwd: wrapper, timeoutMs: options.timeoutMs, maxOutputBytes, slots: options.slots });
    if (renderKey && cached === undefined && result.status === 'ok') options.lintCache!.set('render', renderKey, result.stdout);
    if (result.status === 'missing') return { ...scope, missing: true };
    if (result.status === 'too-large' || result.status === 'timeout') scope.stopped = true;
    if (result.status === 'too-large') {
      return fail(`${options.command.join(' ')} printed more than ${formatBytes(maxOutputBytes)} for ${name} and was stopped (maxRenderOutputBytes); a kustomization that generates without end, or raise the limit`);
    }
    if (result.status === 'timeout') {
      return fail(`${options.command.join(' ')} did not finish rendering ${name} within ${options.timeoutMs / 1000} s and was stopped; raise --render-timeout if it needs longer`);
    }
    if (result.status !== 'ok') {
      const realRoot = await realpath(cache.root).catch(() => cache.root);
      const toRoot = path.relative(wrapper, realRoot).split(path.sep).join('/');
      let message = cleanRendererMessage(result.stderr, [[wrapper, '<pvlint wrapper>'], [relative, name], [realDir, name], [`${toRoot}/`, ''], [`${realRoot}/`, '']]);
      if (/enable-helm/.test(message) && !options.enableHelm) message += ' (pvlint passes --enable-helm only when asked to, with --enable-helm)';
      return fail(`${options.command.join(' ')} failed for ${name}: ${message}`);
    }
    // Origins are relative to the wrapper and between real paths; map them back into the user's (logical) tree.
    const toUserPath = (p: string) => path.join(dir, path.relative(realDir, path.resolve(wrapper, p)));
    const output = makeSourceFile(`${dir}#rendered`, `${name} (rendered by kustomize)`, result.stdout);
    const parsed = parseWithCache(output, options.limits, options.kinds, options.lintCache);
    scope.output = output;
    scope.documents = parsed.documentCount;
    for (const d of parsed.diagnostics) scope.diagnostics.push(diagnostic('pvlint/render', `${name}: kustomize output does not parse: ${d.message}`, rootLocation(cache, dir), 'error', [name]));
    for (const resource of parsed.resources) {
      const annotation = takeOrigin(resource.object);
      const recorded = recordKustomizeSource({
        cache,
        rootDir: dir,
        annotation,
        originFile: annotation?.path && !annotation.repo ? toUserPath(annotation.path) : undefined,
        configuredIn: annotation?.configuredIn ? toUserPath(annotation.configuredIn) : undefined,
        resource,
        outerLayer: options.outerLayer,
      });
      resource.origin = recorded.origin;
      resource.sourceOrigin = recorded.source;
      scope.resources.push(resource);
    }
    scope.removed = removedByKustomization(cache, dir, scope.resources, ['PersistentVolumeClaim']);
    return scope;
  } finally {
    await rm(wrapper, { recursive: true, force: true });
    untrack();
  }
}
