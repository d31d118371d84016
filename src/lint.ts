// The programmatic entry point: discover → render (one scope per Kustomize root / Helm chart) and read
// loose manifests (one scope per argument) → model per scope → rules → findings merged across scopes.
import path from 'node:path';
import { diagnostic, FATAL_DIAGNOSTICS } from './engine/diagnostic.js';
import { mergeFindings } from './engine/merge-findings.js';
import { kindPlan, planKinds } from './engine/relevant-kinds.js';
import { runRules, type RuleSetting } from './engine/run-rules.js';
import { checkShapes } from './engine/shape-check.js';
import { Suppressor, type SuppressionEntry } from './engine/suppress.js';
import { findRepoRoot } from './load/discover.js';
import { discoverInputs } from './environments/discover-inputs.js';
import { enumerateEnvironments, looseEnvironmentName, selectEnvironments } from './environments/environments.js';
import { formatBytes, resolveLimits, type Limits } from './load/limits.js';
import { parseDeferred, type DeferredDocument, type KindPlan, type ParsedFile } from './load/parse-resources.js';
import { BatchParser } from './load/batch-parser.js';
import { defaultWorkerCount, ParsePool, POOL_MIN_FILES } from './load/parse-pool.js';
import { parserStamp, parseWithCache, recordShapeResults } from './cache/cached-parse.js';
import { LintCache } from './cache/lint-cache.js';
import { pvlintVersion } from './version.js';
import { readManifest, type ReadBudget } from './load/read-source.js';
import { makeSourceFile, toDisplayPath } from './load/source-file.js';
import type { ClusterFacts } from './model/cluster-facts.js';
import { StorageModel } from './model/storage-model.js';
import { BUILTIN_RULES, CHANGE_RULES, defaultRuleSettings } from './registry.js';
import { borrowClusterWide } from './gitops/cluster-wide.js';
import { gitopsForPaths, rendersEverything } from './gitops/gitops-environments.js';
import type { NotInterpreted } from './gitops/not-interpreted.js';
import type { GitopsOptions } from './gitops/gitops-options.js';
import { attachHelmLocators, findChart } from './render/helm-stream.js';
import { renderAll } from './render/render-all.js';
import type { ChartMapping } from './render/helm-release/chart-reference.js';
import { HELM_RELEASE_INPUT_KINDS, VALUES_SOURCE_KINDS, type NotInterpretedRelease } from './render/helm-release/expand.js';
import { expandScopes } from './render/helm-release/expand-scopes.js';
import { SourceCache } from './render/source-cache.js';
import type { RemovedObject } from './model/removed-objects.js';
import type { Finding, FindingSubject, RawFinding, Region, Resource, SourceFile } from './types.js';
import { appendAll } from './engine/append.js';
import { LocateStage } from './locate/locate-stage.js';
import { overNodeBudget, remainingNodes, type NodeBudget } from './load/node-budget.js';

export interface LintOptions {
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
  /**
   * Lint only these environments (names as `--list-environments` prints them and findings carry them); an unknown
   * name throws a UsageError. Undefined: all of them.
   */
  environments?: readonly string[];
  /** With `environments`: a name that is not an environment here selects nothing instead of failing (`--base`). */
  allowAbsentEnvironments?: boolean;
  /** Lint without the environments whose renderer is missing (a note) instead of failing (exit 2). */
  skipMissingRenderers?: boolean;
  /** Pass `--enable-helm` to kustomize (kustomizations with `helmCharts`). Never on by default. */
  enableHelm?: boolean;
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

/** One environment as `LintOptions.onScope` sees it. */
export interface LintedScope {
  name: string;
  kind: ScopeSummary['kind'];
  model: StorageModel;
  findings: readonly Finding[];
  /** The objects each of `findings` is about (by identity: the graph places findings on them). */
  subjectOf: (finding: Finding) => FindingSubject | undefined;
}

export interface ScopeSummary {
  name: string;
  /** Loose manifests of one argument, or an environment a renderer produced. */
  kind: 'manifests' | 'kustomize' | 'helm' | 'flux' | 'argocd';
  files: number;
  resources: number;
}

export interface LintResult {
  findings: Finding[];
  /** Findings a suppression accepted, each with its `suppression`: counted in summaries, never in SARIF. */
  suppressed?: Finding[];
  /** Something could not be linted (render failure, crashed rule): exit code 2. */
  fatal: boolean;
  scopes: ScopeSummary[];
  /** Repo root that finding paths are relative to. */
  root: string;
  /**
   * Files and documents read, and the objects parsed from them: documents of kinds no rule reads are counted but
   * not parsed (see `parseAllDocuments`), so `resources` can be fewer than the objects in the repo.
   */
  stats: { files: number; documents: number; resources: number; templates?: number };
  /** Files that are templates for another tool (Go template or placeholder markers outside a chart): not linted. */
  templateFiles?: string[];
  /** With `--base`: what the working tree was compared with (set by `lintWithBase`). */
  review?: ReviewSummary;
  /** Per environment, what was read but not interpreted (GitOps objects not followed, charts not rendered...). */
  notInterpreted?: NotInterpreted[];
  /** With a cache: entries found and not found, and why the cache could not be written (if it could not). */
  cache?: { location: string; hits: number; misses: number; writeError?: string };
}

export interface ReviewSummary {
  /** The ref as given (`origin/main`). */
  base: string;
  /** The commit it resolved to. */
  commit: string;
  /** Findings that exist at the base too were left out (`--new-only`). */
  newOnly: boolean;
  /** How many of the working tree's findings exist at the base too (left out when `newOnly`). */
  preExisting: number;
}

interface Scope {
  name: string;
  kind: ScopeSummary['kind'];
  files: number;
  resources: Resource[];
  /** Documents of kinds only some rule may read, parsed when one asks (`StorageModel.ofKind`). */
  deferred: DeferredDocument[];
  defaultNamespace?: string;
  removed?: RemovedObject[];
  /** Facts of a cluster declared in the configuration, instead of `LintOptions.cluster`. */
  cluster?: ClusterFacts;
  /** A GitOps cluster: everything it receives is here, so the classes it defines are all it has (besides facts). */
  wholeCluster?: boolean;
}

/** A file as text, or the finding that says why it was not read (at its line when the problem has one). */
function readSource(absPath: string, root: string, budget: ReadBudget): { file: SourceFile } | { finding: Finding } {
  const display = toDisplayPath(absPath, root);
  const read = readManifest(absPath, display, budget);
  if ('file' in read) return read;
  const { ruleId, severity, message, line = 1, column = 1 } = read.problem;
  const region = { startLine: line, startColumn: column, endLine: line, endColumn: column };
  return { finding: diagnostic(ruleId, `${display}: ${message}`, { file: display, region }, severity) };
}

/** Distinct source files behind a rendered scope's objects (what the summary counts). */
function originFiles(resources: readonly Resource[]): number {
  return new Set(resources.map((r) => r.origin?.file?.absPath ?? r.file.absPath)).size;
}

/** Where a problem with a whole file (or directory, or stream) is reported (a fresh object: findings own theirs). */
function fileStart(): Region {
  return { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 };
}

/** Everything besides a file's text that decides what parsing it gives: a cache made under another is not used. */
function cacheContext(plan: KindPlan | undefined, limits: Limits): string {
  return JSON.stringify({
    pvlint: pvlintVersion(),
    code: parserStamp(),
    parse: plan ? [...plan.parse].sort() : 'all',
    defer: plan?.defer ? [...plan.defer].sort() : [],
    limits,
  });
}

/** For each deferred kind, how to parse its documents. */
function deferredLoaders(documents: readonly DeferredDocument[], limits: Limits): Map<string, () => Resource[]> {
  const byKind = new Map<string, DeferredDocument[]>();
  for (const d of documents) {
    const list = byKind.get(d.kind);
    if (list) list.push(d);
    else byKind.set(d.kind, [d]);
  }
  return new Map([...byKind].map(([kind, list]) => [kind, () => parseDeferred(list, limits)]));
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const cwd = options.cwd ?? process.cwd();
  const root = options.root ?? (await findRepoRoot(cwd));
  const settings = options.rules ?? defaultRuleSettings();
  const cache = new SourceCache(root);
  const findings: Finding[] = [];
  const scopes: Scope[] = [];
  let documents = 0;
  const templateFiles: string[] = [];
  const seenFiles = new Set<string>();
  const kustomizations = new Set<string>();
  const charts = new Set<string>();
  const limits = resolveLimits(options.limits);
  const budget: ReadBudget = { limits, used: 0 };
  const nodeBudget: NodeBudget = { limits, used: 0 };
  const lazyAfter = options.lazyPositionsAfterBytes ?? 8 * 1024 * 1024;
  let pool: ParsePool | undefined;
  // Documents of other kinds are not parsed (the kind pre-scan reads their `kind:` line as text); those of kinds only
  // some rule may look at are parsed when it does.
  const rulePlan = options.parseAllDocuments ? undefined : kindPlan(settings.map((s) => s.rule));
  // HelmReleases render into objects the rules read, from sources and values the rules do not read.
  const parse = rulePlan && new Set([...rulePlan.parse, ...HELM_RELEASE_INPUT_KINDS]);
  const plan = rulePlan && { parse: parse!, defer: new Set([...(rulePlan.defer ?? []), ...VALUES_SOURCE_KINDS.filter((kind) => !parse!.has(kind))]) };
  const renderKinds = plan && planKinds(plan);
  const lintCache = options.cacheLocation === undefined ? undefined : LintCache.open(path.resolve(cwd, options.cacheLocation), cacheContext(plan, limits));
  // Findings are placed by the resource's origin; the stages before the rules that must name a place use it too.
  const locating = new LocateStage({ positions: lintCache?.positions });
  // Discovery first, for every argument: the Kustomize roots and charts it finds render (child processes) while the
  // loose manifests are read and parsed below. Findings keep their order: each argument's, then the renders'.
  const inputs = await discoverInputs({ paths: options.paths, cwd, root, cache, ignore: options.ignore, followSymlinks: options.followSymlinks, maxFiles: limits.maxFiles, allowEmpty: options.allowEmptyPaths });
  // GitOps clusters first: the roots and files they build are theirs, not environments or loose manifests of their own.
  // Flux and Argo CD paths are relative to the repository each argument belongs to, which need not be the cwd's.
  const gitops = await gitopsForPaths(cache, options.paths, cwd, root, { ...options, ...options.gitops, locateAt: locating.at });
  gitops.coveredFiles.forEach((file) => seenFiles.add(file));
  // What renders and what is read comes from the one list of environments `--list-environments` prints.
  const environments = enumerateEnvironments(inputs, root, cwd, gitops);
  const selected = options.environments && selectEnvironments(environments, options.environments, options.allowAbsentEnvironments);
  for (const environment of environments) {
    if (selected && !selected.has(environment.name)) continue;
    if (environment.kind === 'kustomize') kustomizations.add(environment.entry);
    else if (environment.kind === 'helm') charts.add(environment.entry);
  }
  const rendering = renderAll(cache, [...kustomizations], [...charts], { ...options, relevantKinds: renderKinds, lintCache }, cwd);
  // Awaited after the loose manifests; until then a rejection must not count as unhandled.
  rendering.catch(() => undefined);
  for (const [argument, input] of inputs) {
    if (selected && !selected.has(looseEnvironmentName(argument, root, cwd))) {
      // Not linted in this run, but still first to claim its files, as in a run of every environment.
      input.files.forEach((file) => seenFiles.add(file));
      continue;
    }
    for (const problem of input.problems) {
      const display = toDisplayPath(problem.file, root);
      const finding = diagnostic(problem.ruleId, `${display}: ${problem.message}`, { file: display, region: fileStart() }, problem.severity);
      findings.push(problem.fix ? { ...finding, fix: problem.fix } : finding);
    }
    // Loose manifests of one argument are one environment. A committed or piped `helm template` stream is
    // an environment of its own (several renders of one chart side by side must not see each other);
    // `helm template --output-dir` writes one file per template, so such files group by directory.
    const loose: Scope = { name: looseEnvironmentName(argument, root, cwd), kind: 'manifests', files: 0, resources: [], deferred: [] };
    const streams = new Map<string, Scope>();
    // Each file is parsed as soon as it is read (its text can go once nothing refers to it); read problems still
    // come before parse problems, as they always have.
    const parseFindings: Finding[] = [];
    const take = (file: SourceFile, given?: ParsedFile) => {
      const parsed = given ?? parseWithCache(file, remainingNodes(nodeBudget), plan, lintCache, budget.used > lazyAfter);
      if (parsed.template !== undefined) {
        templateFiles.push(file.path);
        return;
      }
      documents += parsed.documentCount;
      if (overNodeBudget(parsed, nodeBudget, file, parseFindings)) return;
      let scope = loose;
      if (parsed.helm) {
        const start = file.absPath === '<stdin>' ? cwd : path.dirname(file.absPath);
        const helm = attachHelmLocators(cache, file, parsed.documents, parsed.resources, (chart) => findChart(cache, start, chart, root));
        if (helm.mapped > 0) {
          const name = helm.templates.size === 1 && file.absPath !== '<stdin>' ? path.posix.dirname(file.path) : file.path;
          scope = streams.get(name) ?? { name, kind: 'helm', files: 0, resources: [], deferred: [] };
          if (!streams.has(name)) {
            streams.set(name, scope);
            scopes.push(scope);
          }
        }
      }
      scope.files++;
      for (const r of parsed.resources) scope.resources.push(r);
      for (const d of parsed.deferred) scope.deferred.push(d);
      for (const d of parsed.diagnostics) parseFindings.push(diagnostic(d.ruleId, d.message, d.location, 'error', [scope.name]));
    };
    if (input.stdin) {
      const text = options.stdin ?? '';
      const bytes = Buffer.byteLength(text);
      if (bytes > limits.maxFileBytes) {
        findings.push(diagnostic('pvlint/limit', `<stdin>: standard input is larger than the ${formatBytes(limits.maxFileBytes)} limit (maxFileBytes); it is not read`, { file: '<stdin>', region: fileStart() }, 'error'));
      } else {
        budget.used += bytes;
        take(makeSourceFile('<stdin>', '<stdin>', text.replace(/^\uFEFF/, '')));
      }
    }
    // Many files and a second core: worker threads parse batches while this thread reads the next one.
    const workers = options.parseWorkers ?? defaultWorkerCount();
    const batches = workers > 0 && input.files.length >= (options.parseWorkersMinFiles ?? POOL_MIN_FILES) ? new BatchParser(() => (pool ??= new ParsePool(workers)), limits, plan, lintCache, take) : undefined;
    let sinceYield = 0;
    try {
      for (const absPath of input.files) {
        if (seenFiles.has(absPath)) continue;
        seenFiles.add(absPath);
        // Reads are synchronous; let the renderers' output pipes drain now and then.
        if (++sinceYield === 64) {
          sinceYield = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        const read = readSource(absPath, root, budget);
        if ('finding' in read) findings.push(read.finding);
        else if (batches) await batches.add(read.file);
        else take(read.file);
      }
      await batches?.finish();
    } catch (error) {
      // Live worker threads would keep the process running after the error is reported.
      await pool?.close();
      throw error;
    }
    appendAll(findings, parseFindings);
    if (loose.files > 0) scopes.push(loose);
  }
  await pool?.close();
  const rendered = await rendering;
  appendAll(findings, rendered.diagnostics);
  // Charts whose dependencies could not be had: listed with the GitOps objects that were not followed.
  const chartsNotRendered: NotInterpreted[] = [];
  for (const scope of rendered.scopes) {
    appendAll(findings, scope.diagnostics);
    documents += scope.documents;
    if (scope.notInterpreted) {
      chartsNotRendered.push({ environment: scope.name, kind: 'chart', name: scope.name, ...scope.notInterpreted });
      continue;
    }
    if (scope.diagnostics.some((d) => d.ruleId === 'pvlint/render') && scope.resources.length === 0) continue;
    scopes.push({ name: scope.name, kind: scope.renderer, files: originFiles(scope.resources), resources: scope.resources, deferred: [], defaultNamespace: scope.defaultNamespace, removed: scope.removed });
  }
  for (const cluster of gitops.clusters) {
    if (selected && !selected.has(cluster.name)) continue;
    findings.push(...cluster.diagnostics);
    documents += cluster.documents;
    // A cluster with nothing rendered has only its not-interpreted list to say.
    if (cluster.resources.length === 0) continue;
    scopes.push({ name: cluster.name, kind: cluster.name.startsWith('argocd:') ? 'argocd' : 'flux', files: originFiles(cluster.resources), resources: cluster.resources, deferred: [], ...(cluster.facts ? { cluster: cluster.facts } : {}), wholeCluster: rendersEverything(cluster) });
  }
  // HelmReleases render in every environment, GitOps clusters included; those that cannot render stay listed.
  const releases = await expandScopes(cache, scopes, { ...options, limits, locateAt: locating.at }, renderKinds && { parse: renderKinds });
  findings.push(...releases.notes);
  const notInterpreted = [...notInterpretedAfterHelm(gitops.clusters.filter((c) => !selected || selected.has(c.name)), scopes, releases.notInterpreted), ...chartsNotRendered];
  for (const s of scopes) if (s.wholeCluster !== undefined) s.wholeCluster = !notInterpreted.some((entry) => entry.environment === s.name && (entry.chart || entry.kind === 'HelmRelease'));
  // Classes a claim needs that another environment defines are assumed to exist, and said so.
  const clusterWide = borrowClusterWide(scopes, new Set((options.cluster?.storageClasses ?? []).map((c) => c.name)), locating.at);
  const notInterpretedAll = [...notInterpreted, ...[...clusterWide.values()].flatMap((b) => b.assumptions)];
  const base = path.resolve(cwd, options.suppressionBase ?? '.');
  const suppressor = new Suppressor(options.suppressions ?? [], {
    root,
    base,
    knownRules: new Set([...BUILTIN_RULES, ...CHANGE_RULES, ...settings.map((s) => s.rule)].map((rule) => rule.id)),
    // A config entry for files this run did not read is not stale: report unused entries only when the run covered
    // the configuration's whole tree.
    reportUnusedEntries: options.paths.some((p) => p !== '-' && !path.relative(path.resolve(cwd, p), base).startsWith('..')),
  });
  const suppressed: Finding[] = [];
  const early = suppressor.applyGlobal(findings.splice(0, findings.length));
  appendAll(findings, early.kept);
  appendAll(suppressed, early.suppressed);
  for (const s of scopes) {
    // Fields with a type the API cannot decode are findings of their own; rules see the objects without them.
    const shaped = await checkShapes(s.resources, s.name);
    if (lintCache) recordShapeResults(s.resources, shaped.clean);
    let model: StorageModel;
    try {
      model = new StorageModel([...shaped.resources, ...(clusterWide.get(s.name)?.resources ?? [])], {
        scope: s.name,
        bundleComplete: options.bundleComplete,
        ...(s.wholeCluster ? { wholeCluster: true } : {}),
        defaultNamespace: s.defaultNamespace,
        cluster: s.cluster ?? options.cluster,
        meshDefaults: (s.cluster ?? options.cluster)?.mesh,
        deferred: deferredLoaders(s.deferred, limits),
        removed: s.removed,
      });
    } catch (error) {
      // A bug, but one environment must not stop the others.
      const anchor = shaped.resources[0];
      const location = { file: anchor ? anchor.file.path : s.name, region: fileStart() };
      findings.push(diagnostic('pvlint/rule-crash', `building the storage model of ${s.name} failed: ${(error as Error)?.message ?? String(error)}; this environment was not linted`, location, 'error', [s.name]));
      continue;
    }
    const result = runRules(model, settings);
    const extra = options.scopeFindings ? await options.scopeFindings(model, s.kind) : [];
    const split = suppressor.applyScope(model, appendAll(appendAll([...shaped.findings], result.findings), extra), locating);
    appendAll(appendAll(findings, split.kept), locating.findings(result.crashes));
    appendAll(suppressed, split.suppressed);
    options.onScope?.({ name: s.name, kind: s.kind, model, findings: split.kept, subjectOf: locating.subjectOf });
  }
  appendAll(findings, suppressor.unused());
  const cacheWriteError = lintCache?.save();
  const merged = mergeFindings(findings);
  return {
    findings: merged,
    suppressed: mergeFindings(suppressed),
    fatal: merged.some((f) => FATAL_DIAGNOSTICS.has(f.ruleId)),
    scopes: scopes.map((s) => ({ name: s.name, kind: s.kind, files: s.files, resources: s.resources.length })),
    root,
    stats: {
      files: scopes.reduce((n, s) => n + s.files, 0),
      documents,
      resources: scopes.reduce((n, s) => n + s.resources.length, 0),
      templates: templateFiles.length,
    },
    templateFiles: templateFiles.sort(),
    ...(notInterpretedAll.length > 0 ? { notInterpreted: notInterpretedAll } : {}),
    ...(lintCache ? { cache: { location: lintCache.directory, hits: lintCache.hits, misses: lintCache.misses, ...(cacheWriteError ? { writeError: cacheWriteError } : {}) } } : {}),
  };
}


/**
 * The not-interpreted list once HelmReleases were rendered: a cluster's HelmRelease entries give way to what the
 * Helm step says of each release (rendered: nothing; not rendered: why), in every environment.
 */
function notInterpretedAfterHelm(clusters: readonly { name: string; notInterpreted: NotInterpreted[] }[], scopes: readonly Scope[], releases: ReadonlyMap<string, NotInterpretedRelease[]>): NotInterpreted[] {
  const expanded = new Set(scopes.map((s) => s.name));
  const unrendered = new Map([...releases].flatMap(([environment, list]) => list.map((release): [string, { environment: string; release: NotInterpretedRelease; listed: boolean }] => [`${environment}\0${release.name}`, { environment, release, listed: false }])));
  const entries: NotInterpreted[] = [];
  for (const cluster of clusters) {
    for (const entry of cluster.notInterpreted) {
      if (!(expanded.has(cluster.name) && entry.kind === 'HelmRelease')) {
        entries.push(entry);
        continue;
      }
      // The cluster's entry keeps its chart and identity; the Helm step says why it did not render (or it did).
      const left = unrendered.get(`${cluster.name}\0${entry.name}`);
      if (!left) continue;
      left.listed = true;
      entries.push({ ...entry, reason: left.release.reason });
    }
  }
  for (const { environment, release, listed } of unrendered.values()) {
    if (!listed) entries.push({ environment, file: release.file, line: release.line, kind: 'HelmRelease', name: release.name, reason: release.reason });
  }
  return entries;
}
