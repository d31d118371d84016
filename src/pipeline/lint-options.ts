// What lint() is asked to do: the public options of a run. Each stage takes only its slice of them
// (src/pipeline/stage-settings.ts); nothing below the pipeline sees this object whole.
import type { RuleSetting } from '../engine/run-rules.js';
import type { SuppressionEntry } from '../engine/suppress.js';
import type { GitopsOptions } from '../gitops/gitops-options.js';
import type { Limits } from '../load/limits.js';
import type { ClusterFacts } from '../model/cluster-facts.js';
import type { StorageModel } from '../model/storage-model.js';
import type { ChartMapping } from '../render/helm-release/chart-reference.js';
import type { RendererOptions } from '../render/render-all.js';
import type { LintedScope, ScopeSummary } from '../report/lint-result.js';
import type { RawFinding } from '../types.js';

export interface LintOptions extends RendererOptions {
  /** Files and directories to lint; `-` reads `stdin`. */
  paths: readonly string[];
  cwd?: string;
  /** Globs to skip inside directory arguments. */
  ignore?: readonly string[];
  /** Text of standard input when `-` is among the paths. */
  stdin?: string;
  rules?: readonly RuleSetting[];
  /** The repo holds every storage object: absent references are missing, not external. */
  bundleComplete?: boolean;
  /**
   * Lint only these environments (names as `--list-environments` prints them and findings carry them); an unknown
   * name throws a UsageError. Undefined: all of them.
   */
  environments?: readonly string[];
  /** With `environments`: a name that is not an environment here selects nothing instead of failing (`--base`). */
  allowAbsentEnvironments?: boolean;
  /** Size, count, depth and alias limits; each one missing takes its default (`DEFAULT_LIMITS`, README "Limits"). */
  limits?: Partial<Limits>;
  /**
   * Parse every document, not only those of the kinds the rules read: YAML syntax errors are then reported in every
   * document (a ConfigMap's too), at the cost of parsing documents no rule looks at.
   */
  parseAllDocuments?: boolean;
  /**
   * Directory of the `--cache`: parsed files (by a hash of their text) and Kustomize outputs (by a hash of every
   * file the build reads) are kept there between runs. No cache when undefined.
   */
  cacheLocation?: string;
  /**
   * Past this many bytes read in one run, parsed documents are let go once their objects are read, and parsed again
   * only to locate a finding (default 8 MiB): memory stays bounded on large repos, small ones keep their nodes.
   */
  lazyPositionsAfterBytes?: number;
  /**
   * Worker threads that parse an argument with at least `POOL_MIN_FILES` manifest files (default: the cores, at most
   * 4, none on one core); 0 parses everything on the main thread. The results are the same either way.
   */
  parseWorkers?: number;
  /** How many manifest files an argument needs before workers parse it (default `POOL_MIN_FILES`, 12,000). */
  parseWorkersMinFiles?: number;
  /** Follow symbolic links that lead out of the repository (each target is still read once). */
  followSymlinks?: boolean;
  /** Called as each render finishes; the CLI shows it on a TTY. */
  onProgress?: (done: number, total: number, label: string) => void;
  /**
   * Called once per environment after its rules ran, with its model and its findings (not yet merged across
   * environments, suppressed ones left out): what `pvlint graph` and the Markdown report draw.
   */
  onScope?: (scope: LintedScope) => void;
  /**
   * Extra findings for an environment, computed from its model before suppressions apply (`--base` adds the change
   * rules' findings here); they are suppressed and merged like rule findings.
   */
  scopeFindings?: (model: StorageModel, kind: ScopeSummary['kind']) => RawFinding[] | Promise<RawFinding[]>;
  /** Clusters declared by hand and which repoURLs are this repository (the configuration's `clusters:` and `gitops:`). */
  gitops?: GitopsOptions;
  /** The directory finding paths are relative to; default: the git repository around `cwd`, else `cwd`. */
  root?: string;
  /** A directory path with nothing to lint is accepted (default: a UsageError that says so). */
  allowEmptyPaths?: boolean;
  /** What the cluster holds that the repo does not show: StorageClasses, Kubernetes version, mesh defaults, drivers. */
  cluster?: ClusterFacts;
  /** Findings accepted on purpose (the configuration's `suppress`); `pvlint.dev/ignore` annotations always apply. */
  suppressions?: readonly SuppressionEntry[];
  /** Directory that suppression `paths` globs are relative to (the configuration file's); default `cwd`. */
  suppressionBase?: string;
  /**
   * Configuration's Helm settings for a chart directory (absolute): values files (absolute; `helmValues` come after
   * them, so the command line wins), release and namespace (when `helmRelease` / `helmNamespace` are not given).
   */
  helmChartSettings?: (chartDir: string) => HelmChartSettings | undefined;
  /** Directory of pulled remote charts (`--chart-cache`); default `${XDG_CACHE_HOME:-~/.cache}/pvlint/charts`. */
  chartCache?: string;
  /** Chart references mapped to local chart directories or archives (the configuration's `helm.charts` strings). */
  helmChartMappings?: readonly ChartMapping[];
  /** Pull remote charts that are not in the chart cache (default true). */
  pullCharts?: boolean;
  /** Render pvlint's bundled app-template when a release's chart cannot be had (default true). */
  bundledCharts?: boolean;
}

export interface HelmChartSettings {
  values?: readonly string[];
  release?: string;
  namespace?: string;
}
