// Each stage's slice of LintOptions: a stage is handed the settings it reads and nothing else, so what can change a
// render (or a discovery, or a GitOps build) is written down here once.
import type { GitopsSettings } from '../gitops/gitops-environments.js';
import type { Limits } from '../load/limits.js';
import type { LocateAt } from '../types.js';
import type { HelmReleaseSettings } from '../render/helm-release/expand-scopes.js';
import type { RenderSettings } from '../render/render-all.js';
import type { LintOptions } from './lint-options.js';
import type { TailSettings } from './report-tail.js';
import type { ModelSettings } from './rules-stage.js';

/** Discovery of the path arguments and the choice of environments. */
export interface DiscoverySettings {
  paths: readonly string[];
  ignore?: readonly string[];
  followSymlinks?: boolean;
  allowEmptyPaths?: boolean;
  environments?: readonly string[];
  allowAbsentEnvironments?: boolean;
}

export function discoverySettings(options: LintOptions): DiscoverySettings {
  return {
    paths: options.paths,
    ignore: options.ignore,
    followSymlinks: options.followSymlinks,
    allowEmptyPaths: options.allowEmptyPaths,
    environments: options.environments,
    allowAbsentEnvironments: options.allowAbsentEnvironments,
  };
}

/** The GitOps build of each cluster: the renderers it runs and what the configuration says about clusters. */
export function gitopsSettings(options: LintOptions, locateAt: LocateAt): GitopsSettings {
  return {
    locateAt,
    kustomizeCommand: options.kustomizeCommand,
    renderTimeoutMs: options.renderTimeoutMs,
    limits: options.limits,
    ignore: options.ignore,
    helmCommand: options.helmCommand,
    // Charts of Argo CD helm sources get their missing dependencies as HelmReleases get charts.
    chartCache: options.chartCache,
    helmChartMappings: options.helmChartMappings,
    pullCharts: options.pullCharts,
    bundledCharts: options.bundledCharts,
    ...options.gitops,
  };
}

/** Kustomize roots and Helm charts (without the run's kind plan and cache, which the pipeline adds). */
export function renderSettings(options: LintOptions): RenderSettings {
  return {
    kustomizeCommand: options.kustomizeCommand,
    helmCommand: options.helmCommand,
    helmValues: options.helmValues,
    helmRelease: options.helmRelease,
    helmNamespace: options.helmNamespace,
    renderTimeoutMs: options.renderTimeoutMs,
    skipMissingRenderers: options.skipMissingRenderers,
    enableHelm: options.enableHelm,
    helmChartSettings: options.helmChartSettings,
    onProgress: options.onProgress,
    limits: options.limits,
    // Chart environments get their missing dependencies as HelmReleases get charts.
    chartCache: options.chartCache,
    helmChartMappings: options.helmChartMappings,
    pullCharts: options.pullCharts,
    bundledCharts: options.bundledCharts,
  };
}

/** Flux HelmReleases in every environment. */
export function helmReleaseSettings(options: LintOptions, limits: Limits, locateAt: LocateAt): HelmReleaseSettings {
  return {
    locateAt,
    helmCommand: options.helmCommand,
    kustomizeCommand: options.kustomizeCommand,
    chartCache: options.chartCache,
    helmChartMappings: options.helmChartMappings,
    pullCharts: options.pullCharts,
    bundledCharts: options.bundledCharts,
    renderTimeoutMs: options.renderTimeoutMs,
    limits,
  };
}

/** Reading and parsing the loose manifests of each argument. */
export interface ReadSettings {
  /** Text of standard input when `-` is among the paths. */
  stdin?: string;
  parseWorkers?: number;
  parseWorkersMinFiles?: number;
}

export function readSettings(options: LintOptions): ReadSettings {
  return { stdin: options.stdin, parseWorkers: options.parseWorkers, parseWorkersMinFiles: options.parseWorkersMinFiles };
}

/** The storage model of each environment. */
export function modelSettings(options: LintOptions): ModelSettings {
  return { bundleComplete: options.bundleComplete, cluster: options.cluster };
}

/** Suppressions and the per-environment hook of the report tail. */
export function tailSettings(options: LintOptions): TailSettings {
  return { paths: options.paths, suppressions: options.suppressions, suppressionBase: options.suppressionBase, onScope: options.onScope };
}
