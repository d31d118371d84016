// Renders every entry point (Kustomize roots, Helm charts) in a bounded pool, one environment each,
// and turns a missing renderer into one clear diagnostic instead of one per root.
import os from 'node:os';
import path from 'node:path';
import { diagnostic } from '../engine/diagnostic.js';
import { firstLineRegion } from '../load/source-file.js';
import { UsageError } from '../load/usage-error.js';
import type { Limits } from '../load/limits.js';
import { findOnPath, splitCommand } from './executables.js';
import { defaultChartCache } from './helm-release/chart-cache.js';
import type { ChartMapping } from './helm-release/chart-reference.js';
import type { ChartSupply } from './helm-release/obtain-chart.js';
import { renderIncludedOfFailed } from './failed-roots.js';
import { renderChart } from './helm-render.js';
import { kustomizationFileIn } from './kustomization.js';
import { renderKustomization } from './kustomize-render.js';
import { mapPool, ProcessSlots } from './pool.js';
import type { RenderedScope } from './rendered-scope.js';
import type { LintCache } from '../cache/lint-cache.js';
import type { SourceCache } from './source-cache.js';
import type { Finding, SourceLocation } from '../types.js';

/** How the renderers are run: lint()'s options of the same names, passed through as they are. */
export interface RendererOptions {
  /** Command that renders a Kustomize root (the directory is appended); default `kustomize build` if installed, else `kubectl kustomize`. */
  kustomizeCommand?: string;
  /** Command used as `<helmCommand> template ...`; default `helm` when on PATH. */
  helmCommand?: string;
  /** Values files passed to every `helm template` with `--values`, relative to `cwd`. */
  helmValues?: readonly string[];
  /** Release name for `helm template` (default `release-name`, as helm's own default). */
  helmRelease?: string;
  /** Release namespace for `helm template`; also the namespace of chart objects that set none (default `default`). */
  helmNamespace?: string;
  /** Stop a render that runs longer than this (default 60000). */
  renderTimeoutMs?: number;
  /** Lint without the environments whose renderer is missing (a note) instead of failing (exit 2). */
  skipMissingRenderers?: boolean;
  /** Pass `--enable-helm` to kustomize (kustomizations with `helmCharts`). Never on by default. */
  enableHelm?: boolean;
}

export interface RenderSettings extends RendererOptions {
  /**
   * Configuration's settings for one chart (absolute directory): values files (absolute, applied before `helmValues`,
   * so the command line wins), release and namespace (used when `helmRelease` / `helmNamespace` are not set).
   */
  helmChartSettings?: (chartDir: string) => { values?: readonly string[]; release?: string; namespace?: string } | undefined;
  onProgress?: (done: number, total: number, label: string) => void;
  /** Concurrent renders; defaults to the number of cores. */
  concurrency?: number;
  /** Render output size and document limits (defaults: DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
  /** Parse only output documents of these kinds (see `parseResources`); all when undefined. */
  relevantKinds?: ReadonlySet<string>;
  /** `--cache`: Kustomize outputs by a hash of their inputs, parsed outputs by a hash of their text. */
  lintCache?: LintCache;
  /** Where chart dependencies missing from `charts/` come from (as HelmRelease charts): `--chart-cache`, `helm.charts`, pulls, bundled charts. */
  chartCache?: string;
  helmChartMappings?: readonly ChartMapping[];
  pullCharts?: boolean;
  bundledCharts?: boolean;
}

/** The chart supply of HelmReleases, for the dependencies of charts in the repository. */
export function dependencySupply(helm: readonly string[] | undefined, settings: Pick<RenderSettings, 'chartCache' | 'helmChartMappings' | 'pullCharts' | 'bundledCharts'>, timeoutMs: number): ChartSupply | undefined {
  if (!helm) return undefined;
  return { helm, chartCache: settings.chartCache ?? defaultChartCache(), chartMappings: settings.helmChartMappings ?? [], pull: settings.pullCharts, bundledCharts: settings.bundledCharts, timeoutMs, pulls: new Map() };
}

export interface RenderOutcome {
  scopes: RenderedScope[];
  diagnostics: Finding[];
}

export const DEFAULT_RENDER_TIMEOUT_MS = 60_000;
/** Plugin flags anywhere in an argument: `sh -c 'kustomize build --enable-exec'` hides one inside a string. */
const PLUGIN_FLAGS = /--enable[-_](?:alpha[-_]plugins|exec|star)(?:=|\b|$)/;
/** Programs that run a command given as text (or another program): pvlint cannot see what that command does. */
const COMMAND_RUNNERS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox', 'env', 'xargs', 'eval', 'exec', 'nohup', 'sudo', 'doas']);

/** `kustomize build` when kustomize is installed, else kubectl's built-in kustomize. */
export function kustomizeCommand(setting: string | undefined): string[] | undefined {
  if (setting !== undefined) {
    const argv = splitCommand(setting);
    if (argv.length === 0) throw new UsageError('--kustomize-command is empty');
    // Plugins run arbitrary programs named by the repo being linted; a linter must never do that.
    const plugin = argv.find((arg) => PLUGIN_FLAGS.test(arg));
    if (plugin) throw new UsageError(`--kustomize-command must not enable plugins (${plugin}): pvlint never runs kustomize exec or alpha plugins`);
    const program = path.basename(argv[0]);
    if (COMMAND_RUNNERS.has(program)) {
      throw new UsageError(`--kustomize-command must name kustomize (or a script you trust), not ${program}: pvlint cannot check what ${program} runs for plugin flags`);
    }
    return argv;
  }
  if (findOnPath('kustomize')) return ['kustomize', 'build'];
  if (findOnPath('kubectl')) return ['kubectl', 'kustomize'];
  return undefined;
}

export function helmCommand(setting: string | undefined): string[] | undefined {
  if (setting !== undefined) {
    const argv = splitCommand(setting);
    if (argv.length === 0) throw new UsageError('--helm-command is empty');
    return argv;
  }
  return findOnPath('helm') ? ['helm'] : undefined;
}

/** kustomize takes one binary for `--helm-command`, not a command line: a configured helm with arguments is not passed. */
function kustomizeHelmCommand(setting: string | undefined): string | undefined {
  const argv = setting === undefined ? [] : splitCommand(setting);
  return argv.length === 1 ? argv[0] : undefined;
}

interface Job {
  kind: 'kustomize' | 'helm';
  dir: string;
}

function jobLocation(cache: SourceCache, job: Job): SourceLocation {
  const file = job.kind === 'helm' ? path.join(job.dir, 'Chart.yaml') : kustomizationFileIn(job.dir);
  const source = file ? cache.get(file) : undefined;
  if (source) return { file: source.file.path, region: firstLineRegion(source.file) };
  return { file: cache.displayPath(job.dir), region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } };
}

function missingRenderer(cache: SourceCache, kind: Job['kind'], jobs: readonly Job[], skip: boolean, configured: string | undefined): Finding {
  const names = jobs.map((job) => cache.displayPath(job.dir));
  const what = configured
    ? `${configured} (the configured ${kind} command) was not found`
    : kind === 'helm'
      ? 'helm is not installed (not found on PATH)'
      : 'neither kustomize nor kubectl is installed (not found on PATH)';
  const items = kind === 'helm' ? `Helm chart${names.length === 1 ? '' : 's'}` : `Kustomize root${names.length === 1 ? '' : 's'}`;
  const listed = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  if (skip) {
    const finding = diagnostic('pvlint/render-skipped', `${what}: skipped ${names.length} ${items} (--skip-missing-renderers): ${listed}`, jobLocation(cache, jobs[0]), 'note', names);
    return { ...finding, fix: `Install ${kind === 'helm' ? 'helm' : 'kustomize or kubectl'} to lint these environments too.` };
  }
  return diagnostic(
    'pvlint/render',
    `${what}: ${names.length} ${items} not rendered: ${listed}. Install it, or pass --skip-missing-renderers to lint the rest without them`,
    jobLocation(cache, jobs[0]),
    'error',
    names,
  );
}

export async function renderAll(cache: SourceCache, kustomizations: readonly string[], charts: readonly string[], settings: RenderSettings, cwd: string): Promise<RenderOutcome> {
  const jobs: Job[] = [...kustomizations.map((dir): Job => ({ kind: 'kustomize', dir })), ...charts.map((dir): Job => ({ kind: 'helm', dir }))];
  const diagnostics: Finding[] = [];
  if (jobs.length === 0) return { scopes: [], diagnostics };
  const commands = {
    kustomize: kustomizations.length > 0 ? kustomizeCommand(settings.kustomizeCommand) : undefined,
    helm: charts.length > 0 ? helmCommand(settings.helmCommand) : undefined,
  };
  const timeoutMs = settings.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  const missing: Record<Job['kind'], Job[]> = { kustomize: [], helm: [] };
  const runnable = jobs.filter((job) => {
    if (commands[job.kind]) return true;
    missing[job.kind].push(job);
    return false;
  });
  const values = (settings.helmValues ?? []).map((file) => path.resolve(cwd, file));
  const dependencies = dependencySupply(commands.helm, settings, timeoutMs);
  const limit = settings.concurrency ?? (typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
  // `limit` renderers run at once; twice as many renders are under way, so one prepares and another reads its output
  // while the renderers run.
  const slots = new ProcessSlots(limit);
  const renders = 2 * limit;
  const renderJob = (job: Job) =>
      job.kind === 'kustomize'
        ? renderKustomization(job.dir, { command: commands.kustomize!, enableHelm: settings.enableHelm ?? false, helmCommand: kustomizeHelmCommand(settings.helmCommand), timeoutMs, cache, limits: settings.limits, kinds: settings.relevantKinds && { parse: settings.relevantKinds }, lintCache: settings.lintCache, defaultCommand: settings.kustomizeCommand === undefined, slots })
        : renderChart(job.dir, {
            command: commands.helm!,
            values: [...(settings.helmChartSettings?.(job.dir)?.values ?? []), ...values],
            release: settings.helmRelease ?? settings.helmChartSettings?.(job.dir)?.release ?? 'release-name',
            namespace: settings.helmNamespace ?? settings.helmChartSettings?.(job.dir)?.namespace ?? 'default',
            timeoutMs,
            cache,
            limits: settings.limits,
            kinds: settings.relevantKinds && { parse: settings.relevantKinds },
            dependencies,
            slots,
          });
  const rendered = await mapPool(runnable, renders, renderJob, (done, job) => settings.onProgress?.(done, runnable.length, cache.displayPath(job.dir)));
  // A failed root hides nothing: what it includes is rendered and linted on its own.
  const kustomizeIndexes = runnable.flatMap((job, i) => (job.kind === 'kustomize' ? [i] : []));
  const included = await renderIncludedOfFailed(
    cache,
    kustomizeIndexes.map((i) => runnable[i].dir),
    kustomizeIndexes.map((i) => rendered[i]),
    (dirs) => mapPool(dirs.map((dir): Job => ({ kind: 'kustomize', dir })), renders, renderJob),
  );
  included.dirs.forEach((dir, i) => {
    runnable.push({ kind: 'kustomize', dir });
    rendered.push(included.scopes[i]);
  });
  const scopes: RenderedScope[] = [];
  rendered.forEach((scope, i) => {
    if (scope.missing) missing[runnable[i].kind].push(runnable[i]);
    else scopes.push(scope);
  });
  for (const kind of ['kustomize', 'helm'] as const) {
    if (missing[kind].length > 0) {
      const configured = kind === 'helm' ? settings.helmCommand : settings.kustomizeCommand;
      diagnostics.push(missingRenderer(cache, kind, missing[kind], settings.skipMissingRenderers ?? false, configured && splitCommand(configured)[0]));
    }
  }
  return { scopes, diagnostics };
}
