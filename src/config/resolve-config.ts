// Turns a validated configuration into what lint() and the CLI need: rule settings (preset, severities, options
// validated against each rule's own schema, custom rules), cluster facts, suppressions, Helm and Kustomize settings.
// Checks that need more than the schema (unknown rule ids, files that do not exist, duplicate names) happen here,
// each a problem at its file:line. Command-line flags are merged by the caller (cli/main.ts): flag > file > default.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { isMap, isScalar, type Node as YamlNode } from 'yaml';
import type { RuleSetting } from '../engine/run-rules.js';
import type { SuppressionEntry } from '../engine/suppress.js';
import type { HelmChartSettings } from '../lint.js';
import { findRepoRoot, UsageError } from '../load/discover.js';
import { locateInNode } from '../load/locate-node.js';
import { makeSourceFile, toDisplayPath } from '../load/source-file.js';
import type { GitopsOptions } from '../gitops/gitops-options.js';
import type { ClusterFacts, DriverOverride, FactSource } from '../model/cluster-facts.js';
import type { MeshKind } from '../model/mesh.js';
import type { Support } from '../model/provisioners.js';
import { BUILTIN_RULES, CHANGE_RULES } from '../registry.js';
import { defaultChangeRuleSettings, type ChangeRuleSetting } from '../review/run-change-rules.js';
import { kustomizeCommand } from '../render/render-all.js';
import { isChartArchive, type ChartMapping } from '../render/helm-release/chart-reference.js';
import type { JsonPath, Severity, SourceFile } from '../types.js';
import type { RuleModule } from '../engine/rule-module.js';
import { expandRuleFiles, idPosition, loadRuleFiles } from './custom-rules.js';
import { TRUST_VARIABLE, trustOverridden, untrustedReason } from './rule-file-trust.js';
import type { LoadedConfig, RawConfig, RuleEntry, SeverityName, SupportValue } from './load-config.js';
import { builtinOptionsValidator } from './compiled-validators.js';
import { presetSettings, type Preset } from './presets.js';
import { ConfigError, didYouMean, schemaProblems, type ConfigProblem } from './problems.js';
import { globProblem } from '../engine/glob.js';

export interface ResolvedConfig {
  /** The configuration file as shown to the user (relative to the working directory). */
  file: string;
  /** Every rule that can report: built-in and custom (for SARIF descriptors, `pvlint rules`). */
  rules: readonly RuleModule[];
  customRules: readonly RuleModule[];
  /** The enabled rules with their severity and options. */
  settings: RuleSetting[];
  /** The enabled change rules of review mode (`--base`), with their severity. */
  changeRules: ChangeRuleSetting[];
  failLevel?: Severity;
  bundleComplete?: boolean;
  /** Absolute globs (the configuration's `ignore`, relative to its directory). */
  ignore: string[];
  kustomizeCommand?: string;
  enableHelm?: boolean;
  helmChartSettings?: (chartDir: string) => HelmChartSettings | undefined;
  helmChartMappings?: ChartMapping[];
  chartCache?: string;
  pullCharts?: boolean;
  bundledCharts?: boolean;
  cluster?: ClusterFacts;
  /** `clusters:` and `gitops:` (see GitopsOptions). */
  gitops?: GitopsOptions;
  suppressions: SuppressionEntry[];
  /** Directory that suppression paths are relative to. */
  suppressionBase: string;
}

interface Context {
  loaded: LoadedConfig;
  problems: ConfigProblem[];
  /** The configuration file with its repo-relative path: facts and suppressions point into it from findings. */
  factsFile: SourceFile;
  cwd: string;
  overrides: ConfigOverrides;
}

/** Settings given on the command line, which win over the configuration file's. */
export interface ConfigOverrides {
  /** Seconds, as `customRuleTimeout`. */
  customRuleTimeout?: number;
}

/** `clusters:` (name → entry directories, relative to the configuration, and cluster facts) and `gitops:`. */
function resolveGitops(context: Context, facts: (raw: RawConfig['cluster'], at: JsonPath) => ClusterFacts | undefined): GitopsOptions | undefined {
  const { clusters, gitops } = context.loaded.value;
  if (!clusters && !gitops) return undefined;
  const declared = Object.entries(clusters ?? {}).map(([name, settings]) => {
    const cluster = settings.cluster ? facts(settings.cluster, [...keyPath(context, ['clusters'], name), 'cluster']) : undefined;
    return { name, entries: settings.entries.map((entry) => path.resolve(context.loaded.dir, entry)), ...(cluster ? { cluster } : {}) };
  });
  return {
    ...(declared.length > 0 ? { clusters: declared } : {}),
    ...(gitops?.repoURLs ? { repoURLs: gitops.repoURLs } : {}),
    ...(gitops?.argocdBuildOptions !== undefined ? { argocdBuildOptions: gitops.argocdBuildOptions } : {}),
  };
}

const problemAt = (context: Context, at: JsonPath, message: string) => context.problems.push(context.loaded.document.problem(at, message));

function nodeAt(context: Context, at: JsonPath): YamlNode | undefined {
  return context.loaded.document.node(at);
}

function factSource(context: Context, at: JsonPath): FactSource | undefined {
  const node = nodeAt(context, at);
  return node ? { file: context.factsFile, node } : undefined;
}

function keyPath(context: Context, at: JsonPath, key: string): JsonPath {
  // A key that YAML reads as a number (e.g. `1.30:`) still names the entry.
  const node = nodeAt(context, at);
  if (node && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
    if (pair && isScalar(pair.key)) return [...at, pair.key.value as string];
  }
  return [...at, key];
}

function severityOf(entry: RuleEntry): { severity: SeverityName | undefined; options: Record<string, unknown> | undefined; optionsPath: JsonPath } {
  if (typeof entry === 'string') return { severity: entry, options: undefined, optionsPath: [] };
  if (Array.isArray(entry)) return { severity: entry[0], options: entry[1], optionsPath: [1] };
  return { severity: entry.severity, options: entry.options, optionsPath: ['options'] };
}

function resolveRules(context: Context, custom: readonly RuleModule[]): { settings: RuleSetting[]; changeRules: ChangeRuleSetting[] } {
  const config = context.loaded.value;
  const all = [...BUILTIN_RULES, ...custom];
  const byId = new Map(all.map((rule) => [rule.id, rule]));
  // Review mode's change rules (`--base`) are configured in the same `rules:` map; they take a severity or `off`.
  const changeSettings = new Map<string, ChangeRuleSetting>(defaultChangeRuleSettings(CHANGE_RULES).map((s) => [s.rule.id, s]));
  const preset: Preset = config.extends ?? 'all';
  // Custom rules are on in either preset: the configuration loaded them to run them.
  const settings = new Map<string, RuleSetting>(presetSettings(BUILTIN_RULES, preset).map((s) => [s.rule.id, s]));
  for (const s of presetSettings(custom, 'all')) settings.set(s.rule.id, s);
  for (const [id, entry] of Object.entries(config.rules ?? {})) {
    const at = keyPath(context, ['rules'], id);
    const rule = byId.get(id);
    const changeRule = rule ? undefined : CHANGE_RULES.find((r) => r.id === id);
    if (changeRule) {
      const { severity, options, optionsPath } = severityOf(entry);
      if (options !== undefined && Object.keys(options).length > 0) problemAt(context, [...at, ...optionsPath], `rule "${id}" takes no options`);
      else if (severity === 'off') changeSettings.delete(id);
      else changeSettings.set(id, { rule: changeRule, severity: severity ?? changeRule.meta.severity, severityOverridden: severity !== undefined });
      continue;
    }
    if (!rule) {
      problemAt(context, at, `unknown rule "${id}"${didYouMean(id, [...byId.keys(), ...CHANGE_RULES.map((r) => r.id)]) || " ('pvlint rules' lists them)"}`);
      continue;
    }
    const { severity, options, optionsPath } = severityOf(entry);
    if (severity === 'off') {
      settings.delete(id);
      continue;
    }
    const merged = { ...(rule.meta.options?.defaults ?? {}), ...(options ?? {}) };
    if (options !== undefined && Object.keys(options).length > 0) {
      if (!rule.meta.options) {
        problemAt(context, [...at, ...optionsPath], `rule "${id}" takes no options`);
        continue;
      }
      const problems = validateOptions(context, rule, merged, [...at, ...optionsPath]);
      if (problems.length > 0) {
        context.problems.push(...problems);
        continue;
      }
    }
    settings.set(id, {
      rule,
      severity: severity ?? rule.meta.severity,
      severityOverridden: severity !== undefined,
      options: merged,
    });
  }
  // Settings keep the registry's order (built-in by id, then custom rules by file).
  return {
    settings: all.filter((rule) => settings.has(rule.id)).map((rule) => settings.get(rule.id)!),
    changeRules: CHANGE_RULES.filter((rule) => changeSettings.has(rule.id)).map((rule) => changeSettings.get(rule.id)!),
  };
}

function validateOptions(context: Context, rule: RuleModule, options: Record<string, unknown>, at: JsonPath): ConfigProblem[] {
  let validate;
  try {
    validate = builtinOptionsValidator(rule) ?? context.loaded.ajv.compile(rule.meta.options!.schema);
  } catch (error) {
    return [context.loaded.document.problem(at, `rule "${rule.id}" has an invalid options schema (${(error as Error).message}); this is a bug in the rule`)];
  }
  if (validate(options)) return [];
  return schemaProblems(validate.errors ?? [], context.loaded.document, at);
}

async function resolveCustomRules(context: Context): Promise<RuleModule[]> {
  const entries = context.loaded.value.ruleFiles ?? [];
  const files: string[] = [];
  const origin = new Map<string, JsonPath>();
  entries.forEach((entry, i) => {
    const at: JsonPath = ['ruleFiles', i];
    const expanded = expandRuleFiles({
      entry,
      path: path.resolve(context.loaded.dir, entry),
      at: (message) => context.loaded.document.problem(at, message),
    });
    if ('problem' in expanded) {
      context.problems.push(expanded.problem);
      return;
    }
    for (const file of expanded.files) {
      if (origin.has(file)) continue;
      origin.set(file, at);
      files.push(file);
    }
  });
  const shown = (file: string) => path.relative(context.cwd, file) || path.basename(file);
  const trusted = trustedRuleFiles(context.loaded.path, files, shown);
  if (trusted.problem) {
    context.problems.push(context.loaded.document.problem(['ruleFiles'], trusted.problem));
    return [];
  }
  const timeout = context.overrides.customRuleTimeout ?? context.loaded.value.customRuleTimeout;
  const { rules, problems } = await loadRuleFiles(files, shown, timeout !== undefined ? { timeoutMs: timeout * 1000 } : {});
  const where = (file: string) => {
    const at = origin.get(file);
    if (!at) return '';
    const { line, column } = context.loaded.document.position(at);
    return ` (ruleFiles entry at ${context.loaded.document.source.path}:${line}:${column})`;
  };
  for (const problem of problems) {
    const file = [...origin.keys()].find((f) => shown(f) === problem.file);
    context.problems.push({ ...problem, message: `${problem.message}${file ? where(file) : ''}` });
  }
  const seen = new Map<string, string>();
  const accepted: RuleModule[] = [];
  for (const { rule, file } of rules) {
    const position = idPosition(file, rule.id);
    if (BUILTIN_RULES.some((builtin) => builtin.id === rule.id)) {
      context.problems.push({ file: shown(file), ...position, message: `custom rule id "${rule.id}" is the id of a built-in rule; choose another (e.g. "acme/${rule.id}")${where(file)}` });
      continue;
    }
    const previous = seen.get(rule.id);
    if (previous) {
      context.problems.push({ file: shown(file), ...position, message: `custom rule id "${rule.id}" is also defined in ${previous}${where(file)}` });
      continue;
    }
    seen.set(rule.id, shown(file));
    accepted.push(rule);
  }
  return accepted;
}

const supportOf = (value: SupportValue | undefined): Support | undefined =>
  value === undefined ? undefined : value === true ? 'yes' : value === false ? 'no' : value;

function resolveCluster(context: Context, cluster = context.loaded.value.cluster, at: JsonPath = ['cluster']): ClusterFacts | undefined {
  if (!cluster) return undefined;
  const names = new Map<string, number>();
  const storageClasses = (cluster.storageClasses ?? []).map((sc, i) => {
    const previous = names.get(sc.name);
    if (previous !== undefined) {
      const { line } = context.loaded.document.position([...at, 'storageClasses', previous]);
      problemAt(context, [...at, 'storageClasses', i, 'name'], `StorageClass "${sc.name}" is declared twice (also at line ${line})`);
    }
    names.set(sc.name, i);
    const declaredAt = factSource(context, [...at, 'storageClasses', i]);
    return { ...sc, ...(declaredAt ? { declaredAt } : {}) };
  });
  const drivers: DriverOverride[] = [];
  const driverNames = new Set<string>();
  (cluster.drivers ?? []).forEach((driver, i) => {
    if (driverNames.has(driver.name)) problemAt(context, [...at, 'drivers', i, 'name'], `driver "${driver.name}" is declared twice`);
    driverNames.add(driver.name);
    const declaredAt = factSource(context, [...at, 'drivers', i]);
    drivers.push({
      ...driver,
      rwo: supportOf(driver.rwo), rox: supportOf(driver.rox), rwx: supportOf(driver.rwx), rwop: supportOf(driver.rwop), block: supportOf(driver.block),
      ...(declaredAt ? { declaredAt } : {}),
    });
  });
  const mesh = cluster.mesh;
  const meshNamespaces: Record<string, MeshKind> = {};
  const addMesh = (list: string[] | undefined, kind: MeshKind, key: string) => (list ?? []).forEach((ns, i) => {
    if (meshNamespaces[ns] !== undefined && meshNamespaces[ns] !== kind) problemAt(context, [...at, 'mesh', key, i], `namespace "${ns}" is listed for two meshes`);
    meshNamespaces[ns] = kind;
  });
  addMesh(mesh?.injectedNamespaces, 'istio-sidecar', 'injectedNamespaces');
  addMesh(mesh?.ambientNamespaces, 'istio-ambient', 'ambientNamespaces');
  addMesh(mesh?.linkerdNamespaces, 'linkerd', 'linkerdNamespaces');
  return {
    ...(storageClasses.length > 0 ? { storageClasses } : {}),
    ...(cluster.kubernetesVersion !== undefined ? { kubernetesVersion: cluster.kubernetesVersion } : {}),
    ...(drivers.length > 0 ? { drivers } : {}),
    ...(mesh
      ? {
          mesh: {
            ...(mesh.istioInjectionDefault !== undefined ? { istioInjectByDefault: mesh.istioInjectionDefault } : {}),
            ...(Object.keys(meshNamespaces).length > 0 ? { meshNamespaces } : {}),
            ...(mesh.plainNamespaces ? { plainNamespaces: mesh.plainNamespaces } : {}),
            ...(mesh.nativeSidecars !== undefined ? { istioNativeSidecars: mesh.nativeSidecars } : {}),
            ...(mesh.linkerdNativeSidecars !== undefined ? { linkerdNativeSidecars: mesh.linkerdNativeSidecars } : {}),
          },
        }
      : {}),
  };
}

function resolveSuppressions(context: Context, known: ReadonlySet<string>): SuppressionEntry[] {
  return (context.loaded.value.suppress ?? []).map((entry, i) => {
    entry.rules.forEach((id, j) => {
      if (id !== 'all' && !known.has(id)) problemAt(context, ['suppress', i, 'rules', j], `unknown rule "${id}"${didYouMean(id, [...known]) || " ('pvlint rules' lists them)"}`);
    });
    for (const field of ['kind', 'namespace', 'name'] as const) {
      const glob = entry.resource?.[field];
      const problem = typeof glob === 'string' ? globProblem(glob) : undefined;
      if (problem) problemAt(context, ['suppress', i, 'resource', field], problem);
    }
    entry.paths?.forEach((glob, j) => {
      const problem = globProblem(glob);
      if (problem) problemAt(context, ['suppress', i, 'paths', j], problem);
    });
    const node = nodeAt(context, ['suppress', i]);
    const location = node ? locateInNode(context.factsFile, node, []).location : undefined;
    return {
      rules: entry.rules,
      ...(entry.resource ? { resource: entry.resource } : {}),
      ...(entry.paths ? { paths: entry.paths } : {}),
      reason: entry.reason.trim(),
      ...(location ? { location } : {}),
    };
  });
}

function resolveHelm(context: Context): ((chartDir: string) => HelmChartSettings | undefined) | undefined {
  const helm = context.loaded.value.helm;
  if (!helm) return undefined;
  const dir = context.loaded.dir;
  const files = (list: string[] | undefined, at: JsonPath) => (list ?? []).map((file, i) => {
    const absolute = path.resolve(dir, file);
    if (!existsSync(absolute)) problemAt(context, [...at, i], `values file "${file}" does not exist (paths are relative to the configuration file)`);
    return absolute;
  });
  const common = files(helm.values, ['helm', 'values']);
  const charts = new Map<string, HelmChartSettings>();
  for (const [chart, settings] of Object.entries(helm.charts ?? {})) {
    const at = keyPath(context, ['helm', 'charts'], chart);
    // A string maps a chart reference to a local copy (resolveChartMappings).
    if (typeof settings === 'string') continue;
    const chartDir = path.resolve(dir, chart);
    if (!existsSync(path.join(chartDir, 'Chart.yaml'))) problemAt(context, at, `"${chart}" is not a chart directory (no Chart.yaml; paths are relative to the configuration file)`);
    charts.set(chartDir, {
      values: [...common, ...files(settings.values, [...at, 'values'])],
      release: settings.release ?? helm.release,
      namespace: settings.namespace ?? helm.namespace,
    });
  }
  const fallback: HelmChartSettings = { values: common, release: helm.release, namespace: helm.namespace };
  return (chartDir) => charts.get(path.resolve(chartDir)) ?? fallback;
}

/** `helm.charts` entries whose value is a path: chart references mapped to local chart directories or archives. */
function resolveChartMappings(context: Context): ChartMapping[] {
  const charts = context.loaded.value.helm?.charts ?? {};
  const mappings: ChartMapping[] = [];
  for (const [reference, target] of Object.entries(charts)) {
    if (typeof target !== 'string') continue;
    const absolute = path.resolve(context.loaded.dir, target);
    if (!existsSync(path.join(absolute, 'Chart.yaml')) && !(existsSync(absolute) && isChartArchive(absolute))) {
      problemAt(context, [...keyPath(context, ['helm', 'charts'], reference)], `"${target}" is neither a chart directory nor a chart archive (.tgz); paths are relative to the configuration file`);
    }
    mappings.push({ reference, path: absolute });
  }
  return mappings;
}

function resolveKustomize(context: Context): string | undefined {
  const command = context.loaded.value.kustomize?.command;
  if (command === undefined) return undefined;
  try {
    kustomizeCommand(command);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    problemAt(context, ['kustomize', 'command'], error.message.replace('--kustomize-command', 'kustomize.command'));
  }
  return command;
}

function resolveIgnore(config: RawConfig, dir: string): string[] {
  const base = fg.escapePath(dir.split(path.sep).join('/'));
  return (config.ignore ?? []).map((glob) => `${base}/${glob.replace(/^\.?\//, '')}`);
}

/** Resolves a loaded configuration; throws ConfigError listing every problem. */
export async function resolveConfig(loaded: LoadedConfig, cwd: string, overrides: ConfigOverrides = {}): Promise<ResolvedConfig> {
  const root = await findRepoRoot(cwd);
  const context: Context = {
    loaded,
    problems: [],
    factsFile: makeSourceFile(loaded.path, toDisplayPath(loaded.path, root), loaded.document.source.text),
    cwd,
    overrides,
  };
  const config = loaded.value;
  const customRules = await resolveCustomRules(context);
  const { settings, changeRules } = resolveRules(context, customRules);
  const rules = [...BUILTIN_RULES, ...customRules];
  const suppressions = resolveSuppressions(context, new Set([...rules, ...CHANGE_RULES].map((r) => r.id)));
  const cluster = resolveCluster(context);
  const helmChartSettings = resolveHelm(context);
  const kustomize = resolveKustomize(context);
  const gitops = resolveGitops(context, (raw, at) => resolveCluster(context, raw, at));
  const helmChartMappings = resolveChartMappings(context);
  if (context.problems.length > 0) {
    const order = (p: ConfigProblem) => [p.file === loaded.document.source.path ? 0 : 1, p.line, p.column] as const;
    const sorted = [...context.problems].sort((a, b) => {
      const x = order(a);
      const y = order(b);
      return x[0] - y[0] || a.file.localeCompare(b.file) || x[1] - y[1] || x[2] - y[2];
    });
    throw new ConfigError(sorted);
  }
  return {
    file: loaded.document.source.path,
    rules,
    customRules,
    settings,
    changeRules,
    ...(config.failLevel ? { failLevel: config.failLevel } : {}),
    ...(config.cluster?.bundleComplete !== undefined ? { bundleComplete: config.cluster.bundleComplete } : {}),
    ignore: resolveIgnore(config, loaded.dir),
    ...(kustomize !== undefined ? { kustomizeCommand: kustomize } : {}),
    ...(config.kustomize?.enableHelm !== undefined ? { enableHelm: config.kustomize.enableHelm } : {}),
    ...(helmChartSettings ? { helmChartSettings } : {}),
    ...(helmChartMappings.length > 0 ? { helmChartMappings } : {}),
    ...(config.helm?.pullCharts !== undefined ? { pullCharts: config.helm.pullCharts } : {}),
    ...(config.helm?.bundledCharts !== undefined ? { bundledCharts: config.helm.bundledCharts } : {}),
    ...(config.helm?.chartCache !== undefined ? { chartCache: path.resolve(loaded.dir, config.helm.chartCache) } : {}),
    ...(cluster ? { cluster } : {}),
    ...(gitops ? { gitops } : {}),
    suppressions,
    suppressionBase: loaded.dir,
  };
}

/** Loads and resolves the configuration at `file` (ajv and the resolver load only when there is one). */
export async function readConfig(file: string, cwd: string, overrides: ConfigOverrides = {}): Promise<ResolvedConfig> {
  const { loadConfig } = await import('./load-config.js');
  return resolveConfig(await loadConfig(file, cwd), cwd, overrides);
}

/** Rule code runs only from files the user owns and nobody else can write (rule-file-trust.ts). */
function trustedRuleFiles(configFile: string, files: readonly string[], shown: (file: string) => string): { problem?: string } {
  if (files.length === 0) return {};
  for (const file of [configFile, ...files]) {
    const reason = untrustedReason(file);
    if (!reason) continue;
    const what = `${shown(file)}: ${reason}`;
    if (trustOverridden()) {
      process.stderr.write(`pvlint: warning: running custom rule code although ${what} (${TRUST_VARIABLE}=1)\n`);
      continue;
    }
    return {
      problem:
        `not running custom rule code: ${what}, so someone else could choose the code pvlint runs. ` +
        `Fix the owner or permissions, or set ${TRUST_VARIABLE}=1 to run it anyway`,
    };
  }
  return {};
}
