// `--base <ref>`: lints the same paths at a base commit and in the working tree (each a plain run up to its report
// tail, models kept), pairs each environment with itself at the base, runs the change rules over the pairs, and ends
// with the working tree's report tail; with `--new-only` it leaves out the findings the base already had.
import fg from 'fast-glob';
import { cpSync, existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { FATAL_DIAGNOSTICS } from '../engine/diagnostic.js';
import { UsageError } from '../load/discover.js';
import { lint, lintUntilReport, type LintOptions, type LintResult } from '../lint.js';
import type { EnvironmentKind } from '../environments/environments.js';
import { finishRun, type RuledRun } from '../pipeline/report-tail.js';
import { tailSettings } from '../pipeline/stage-settings.js';
import type { StorageModel } from '../model/storage-model.js';
import { CHANGE_RULES } from '../registry.js';
import type { Finding, JsonPath, RawFinding } from '../types.js';
import { extractTree, ReviewError, removeTree, resolveBase } from './git.js';
import { defaultChangeRuleSettings, runChangeRules, type ChangeRuleSetting } from './run-change-rules.js';

export { ReviewError } from './git.js';

export interface ReviewOptions {
  /** The git ref to compare with (`origin/main`, a tag, a commit). */
  base: string;
  /** Leave out findings that exist at the base too. */
  newOnly?: boolean;
  /** Change rules to run (default: all, at their default severity). */
  changeRules?: readonly ChangeRuleSetting[];
}

const scopeKey = (kind: EnvironmentKind, name: string) => `${kind}\u0000${name}`;

async function realOrSelf(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

function isInside(relative: string): boolean {
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * lint() with `--base`: the result is the working tree's, plus the change rules' findings, and (with `newOnly`) without
 * the findings the base has too. Without `review` it is lint().
 */
export async function lintWithBase(options: LintOptions, review?: ReviewOptions): Promise<LintResult> {
  if (!review) return lint(options);
  if (options.paths.includes('-')) throw new UsageError('--base compares files in git; it cannot read standard input ("-")');
  const cwd = path.resolve(options.cwd ?? process.cwd());
  // The repository of the linted paths, not of the working directory: `--base` works from anywhere.
  const commit = await resolveBase(review.base, await gitDirectoryOf(path.resolve(cwd, options.paths[0] ?? '.')));
  const top = commit.top;
  const realCwd = await realOrSelf(cwd);
  // Every path argument, as a path in the repository: the base tree has the same layout.
  const relatives: string[] = [];
  for (const argument of options.paths) {
    const relative = path.relative(top, await realOrSelf(path.resolve(cwd, argument)));
    if (!isInside(relative)) throw new UsageError(`--base: ${argument} is outside the git repository ${top}`);
    relatives.push(relative);
  }
  const tree = await extractTree(commit);
  const inTree = (relative: string) => path.join(tree, relative);
  await shareChartDependencies(top, tree, relatives);
  /** A path of the working tree inside the repository, as the same path in the base tree. */
  const toBase = (absolute: string) => {
    const relative = path.relative(top, absolute);
    return isInside(relative) ? inTree(relative) : absolute;
  };
  const toHead = (absolute: string) => {
    const relative = path.relative(tree, absolute);
    return isInside(relative) ? path.join(top, relative) : absolute;
  };
  // A values file the base does not have (untracked, generated) is used as it is in the working tree.
  const helmValues: string[] = [];
  for (const file of options.helmValues ?? []) {
    const mapped = toBase(await realOrSelf(path.resolve(cwd, file)));
    helmValues.push(existsSync(mapped) ? mapped : path.resolve(cwd, file));
  }
  const suppressionBase = toBase(await realOrSelf(path.resolve(cwd, options.suppressionBase ?? '.')));
  const baseCwdRelative = path.relative(top, realCwd);
  const baseCwd = isInside(baseCwdRelative) && existsSync(inTree(baseCwdRelative)) ? inTree(baseCwdRelative) : tree;
  // The same run over the base tree: its paths, cwd, root and the files the options name are the base's.
  const baseOptions: LintOptions = {
    ...options,
    // A directory the change adds has no base: nothing there to compare with.
    paths: relatives.filter((relative) => existsSync(inTree(relative))).map(inTree),
    cwd: baseCwd,
    root: tree,
    ignore: options.ignore?.map((glob) => (path.isAbsolute(glob) ? toBase(glob) : glob)),
    helmValues: options.helmValues && helmValues,
    suppressionBase,
    helmChartSettings: options.helmChartSettings && ((dir: string) => options.helmChartSettings!(toHead(dir))),
    // A directory whose manifests the change adds may hold none at the base, and an environment it adds has no base.
    allowEmptyPaths: true,
    allowAbsentEnvironments: true,
    // What the caller hooks into is the working tree's run.
    stdin: undefined,
    onProgress: undefined,
    onScope: undefined,
    scopeFindings: undefined,
  };
  // Paths relative to the repository, as the base's are, also when the working directory is elsewhere.
  const headOptions: LintOptions = { ...options, root: options.root ?? top };
  // Both trees are linted at once (their renders overlap), each as a plain run up to its report tail.
  const baseRun = lintUntilReport(baseOptions);
  baseRun.catch(() => undefined);
  try {
    const headRun = await lintUntilReport(headOptions);
    const baseRuled = await baseRun;
    const base = await finishRun(baseRuled, tailSettings(baseOptions));
    const failures = base.findings.filter((f) => f.ruleId === 'pvlint/render');
    if (failures.length > 0) {
      const listed = failures.slice(0, 3).map((f) => `${f.location.file}:${f.location.region.startLine}: ${f.message}`).join('; ');
      throw new ReviewError(
        `--base ${review.base}: the base does not render, so there is nothing to compare with (${listed}). Lint this change without --base ` +
          '(e.g. when it fixes the render), or compare with a ref that renders',
      );
    }
    const baseModels = modelsByEnvironment(baseRuled);
    const headModels = modelsByEnvironment(headRun);
    // Each environment paired with itself at the base, and the change rules over the pair.
    const settings = review.changeRules ?? defaultChangeRuleSettings(CHANGE_RULES);
    const changes = new Map<StorageModel, RawFinding[]>();
    for (const [key, model] of headModels) {
      const baseModel = baseModels.get(key);
      if (!baseModel) continue;
      const changed = runChangeRules(baseModel, model, settings, {
        baseRef: review.base,
        existsInHead: (repoPath) => existsSync(path.join(top, repoPath)),
      });
      changes.set(model, [...changed.findings, ...changed.crashes]);
    }
    // The working tree's report tail, with the change rules' findings suppressed and merged like its own.
    const { scopeFindings } = options;
    const head = await finishRun(headRun, tailSettings(headOptions), async ({ model, scope }) => [...((await scopeFindings?.(model, scope.kind)) ?? []), ...(changes.get(model) ?? [])]);
    const preExisting = new PreExisting(base.findings, baseModels);
    const hidden: Finding[] = [];
    const kept: Finding[] = [];
    for (const finding of head.findings) {
      if (preExisting.has(finding, headModels)) hidden.push(finding);
      else kept.push(finding);
    }
    const newOnly = review.newOnly ?? false;
    return {
      ...head,
      findings: newOnly ? kept : head.findings,
      review: { base: review.base, commit: commit.commit, newOnly, preExisting: hidden.length },
    };
  } finally {
    await baseRun.catch(() => undefined);
    await removeTree(tree);
  }
}

/** The model of each environment a run built, by kind and name (an environment whose model failed has none). */
function modelsByEnvironment(ruled: RuledRun): Map<string, StorageModel> {
  const models = new Map<string, StorageModel>();
  for (const { scope, model } of ruled.scopes) if (model) models.set(scopeKey(scope.kind, scope.name), model);
  return models;
}

/**
 * Helm chart dependencies are usually fetched in CI (`helm dependency build`) and not committed: a chart's `charts/`
 * directory in the working tree that the base tree lacks is copied there, so the base renders like the working tree.
 */
async function shareChartDependencies(top: string, tree: string, relatives: readonly string[]): Promise<void> {
  for (const relative of relatives) {
    const start = path.join(top, relative);
    let charts: string[];
    try {
      charts = await fg('**/Chart.yaml', { cwd: start, ignore: ['**/.git/**', '**/node_modules/**'], onlyFiles: true, followSymbolicLinks: false });
    } catch {
      continue;
    }
    for (const chart of charts) {
      const dependencies = path.join(start, path.dirname(chart), 'charts');
      const target = path.join(tree, relative, path.dirname(chart), 'charts');
      if (!existsSync(dependencies) || existsSync(target) || !existsSync(path.dirname(target))) continue;
      try {
        cpSync(dependencies, target, { recursive: true });
      } catch {
        // The base then fails to render with helm's own message about the missing dependency.
      }
    }
  }
}

/**
 * A finding's identity that survives edits elsewhere in the file: its rule and message id, the resource, and the path
 * in it with list items named by their merge key (`volumes[name=data]`) instead of their index; per environment.
 * Findings without a resource (a YAML syntax error) are identified by rule, file and message.
 */
class PreExisting {
  private readonly keys = new Set<string>();

  constructor(baseFindings: readonly Finding[], baseModels: ReadonlyMap<string, StorageModel>) {
    for (const finding of baseFindings) {
      for (const key of identities(finding, baseModels)) this.keys.add(key);
    }
  }

  /** True when the base had the finding in every environment the working tree has it in. Fatal diagnostics always show. */
  has(finding: Finding, headModels: ReadonlyMap<string, StorageModel>): boolean {
    if (FATAL_DIAGNOSTICS.has(finding.ruleId)) return false;
    const keys = identities(finding, headModels);
    return keys.length > 0 && keys.every((key) => this.keys.has(key));
  }
}

function identities(finding: Finding, models: ReadonlyMap<string, StorageModel>): string[] {
  const environments = finding.environments.length > 0 ? finding.environments : [''];
  const ref = finding.resource;
  return environments.map((environment) => {
    if (!ref) return [finding.ruleId, finding.location.file, finding.message, environment].join('\u0000');
    const object = objectIn(models, environment, ref.kind, ref.namespace, ref.name);
    const stable = stablePath(object, finding.path ?? []);
    return [finding.ruleId, finding.messageId, ref.kind, ref.namespace ?? '', ref.name, stable, environment].join('\u0000');
  });
}

function objectIn(models: ReadonlyMap<string, StorageModel>, environment: string, kind: string, namespace: string | undefined, name: string): unknown {
  for (const [key, model] of models) {
    if (key.slice(key.indexOf('\u0000') + 1) !== environment) continue;
    const resource = model.resources.find((r) => r.kind === kind && r.name === name && r.namespace === namespace);
    if (resource) return resource.object;
  }
  return undefined;
}

/** The path with each list index replaced by the item's merge key, where it has one. */
export function stablePath(object: unknown, path: JsonPath): string {
  const parts: string[] = [];
  let value: any = object;
  for (const segment of path) {
    if (typeof segment === 'number' && Array.isArray(value)) {
      const item = value[segment];
      const key = item && typeof item === 'object' ? mergeKey(item) : undefined;
      parts.push(key ?? `[${segment}]`);
      value = item;
      continue;
    }
    parts.push(typeof segment === 'number' ? `[${segment}]` : `.${segment}`);
    value = value != null && typeof value === 'object' ? value[segment as any] : undefined;
  }
  return parts.join('');
}

function mergeKey(item: Record<string, unknown>): string | undefined {
  // volumeMounts and volumeDevices are keyed by path (one volume may be mounted twice); most lists by name.
  for (const key of ['mountPath', 'devicePath', 'name', 'containerPort']) {
    const value = item[key];
    if (typeof value === 'string' || typeof value === 'number') return `[${key}=${value}]`;
  }
  return undefined;
}

/** The nearest existing directory at or above `target` (git runs there; a file argument names its directory). */
async function gitDirectoryOf(target: string): Promise<string> {
  for (let dir = target; ; dir = path.dirname(dir)) {
    try {
      if ((await stat(dir)).isDirectory()) return dir;
    } catch {
      // not there (yet): its parent
    }
    if (path.dirname(dir) === dir) return dir;
  }
}
