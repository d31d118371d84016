// The programmatic entry point: discover → render (one scope per Kustomize root / Helm chart) and read
// loose manifests (one scope per argument) → model per scope → rules → findings merged across scopes.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, FATAL_DIAGNOSTICS } from './engine/diagnostic.js';
import { mergeFindings } from './engine/merge-findings.js';
import { runRules, type RuleSetting } from './engine/run-rules.js';
import { discover, findRepoRoot } from './load/discover.js';
import { parseResources } from './load/parse-resources.js';
import { makeSourceFile, toDisplayPath } from './load/source-file.js';
import { StorageModel } from './model/storage-model.js';
import { defaultRuleSettings } from './registry.js';
import { attachHelmLocators, findChart, hasSourceComments } from './render/helm-stream.js';
import { renderAll } from './render/render-all.js';
import { SourceCache } from './render/source-cache.js';
import type { Finding, Resource, SourceFile } from './types.js';

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
  /** Lint without the environments whose renderer is missing (a note) instead of failing (exit 2). */
  skipMissingRenderers?: boolean;
  /** Pass `--enable-helm` to kustomize (kustomizations with `helmCharts`). Never on by default. */
  enableHelm?: boolean;
  /** Called as each render finishes; the CLI shows it on a TTY. */
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface ScopeSummary {
  name: string;
  /** Loose manifests of one argument, or an environment a renderer produced. */
  kind: 'manifests' | 'kustomize' | 'helm';
  files: number;
  resources: number;
}

export interface LintResult {
  findings: Finding[];
  /** Something could not be linted (render failure, crashed rule): exit code 2. */
  fatal: boolean;
  scopes: ScopeSummary[];
  /** Repo root that finding paths are relative to. */
  root: string;
  stats: { files: number; documents: number; resources: number };
}

interface Scope {
  name: string;
  kind: ScopeSummary['kind'];
  files: number;
  resources: Resource[];
  defaultNamespace?: string;
}

async function readSource(absPath: string, root: string): Promise<{ file: SourceFile } | { error: string }> {
  try {
    const buffer = await readFile(absPath);
    if (buffer.includes(0)) return { error: 'binary file (contains NUL bytes); not linted' };
    let text = buffer.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { file: makeSourceFile(absPath, toDisplayPath(absPath, root), text) };
  } catch (error) {
    return { error: `cannot read file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

function scopeName(argument: string, root: string, cwd: string): string {
  if (argument === '-') return '<stdin>';
  return toDisplayPath(path.resolve(cwd, argument), root);
}

/** Distinct source files behind a rendered scope's objects (what the summary counts). */
function originFiles(resources: readonly Resource[]): number {
  return new Set(resources.map((r) => r.origin?.file?.absPath ?? r.file.absPath)).size;
}

export async function lint(options: LintOptions): Promise<LintResult> {
  const cwd = options.cwd ?? process.cwd();
  const root = await findRepoRoot(cwd);
  const settings = options.rules ?? defaultRuleSettings();
  const cache = new SourceCache(root);
  const findings: Finding[] = [];
  const scopes: Scope[] = [];
  let documents = 0;
  const seenFiles = new Set<string>();
  const kustomizations = new Set<string>();
  const charts = new Set<string>();
  for (const argument of options.paths) {
    const input = await discover(argument, { cwd, ignore: options.ignore, cache });
    input.kustomizations.forEach((dir) => kustomizations.add(dir));
    input.charts.forEach((dir) => charts.add(dir));
    const sources: SourceFile[] = [];
    if (input.stdin) sources.push(makeSourceFile('<stdin>', '<stdin>', (options.stdin ?? '').replace(/^\uFEFF/, '')));
    for (const absPath of input.files) {
      if (seenFiles.has(absPath)) continue;
      seenFiles.add(absPath);
      const read = await readSource(absPath, root);
      if ('error' in read) {
        const display = toDisplayPath(absPath, root);
        findings.push(diagnostic('pvlint/read', `${display}: ${read.error}`, { file: display, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } }));
        continue;
      }
      sources.push(read.file);
    }
    // Loose manifests of one argument are one environment. A committed or piped `helm template` stream is
    // an environment of its own (several renders of one chart side by side must not see each other);
    // `helm template --output-dir` writes one file per template, so such files group by directory.
    const loose: Scope = { name: scopeName(argument, root, cwd), kind: 'manifests', files: 0, resources: [] };
    const streams = new Map<string, Scope>();
    for (const file of sources) {
      const parsed = parseResources(file);
      documents += parsed.documents.length;
      let scope = loose;
      if (hasSourceComments(file.text)) {
        const start = file.absPath === '<stdin>' ? cwd : path.dirname(file.absPath);
        const helm = attachHelmLocators(cache, file, parsed.documents, parsed.resources, (chart) => findChart(cache, start, chart, root));
        if (helm.mapped > 0) {
          const name = helm.templates.size === 1 && file.absPath !== '<stdin>' ? path.posix.dirname(file.path) : file.path;
          scope = streams.get(name) ?? { name, kind: 'helm', files: 0, resources: [] };
          if (!streams.has(name)) {
            streams.set(name, scope);
            scopes.push(scope);
          }
        }
      }
      scope.files++;
      scope.resources.push(...parsed.resources);
      for (const d of parsed.diagnostics) findings.push(diagnostic(d.ruleId, d.message, d.location, 'error', [scope.name]));
    }
    if (loose.files > 0) scopes.push(loose);
  }
  const rendered = await renderAll(cache, [...kustomizations], [...charts], options, cwd);
  findings.push(...rendered.diagnostics);
  for (const scope of rendered.scopes) {
    findings.push(...scope.diagnostics);
    documents += scope.documents;
    if (scope.diagnostics.some((d) => d.ruleId === 'pvlint/render') && scope.resources.length === 0) continue;
    scopes.push({ name: scope.name, kind: scope.renderer, files: originFiles(scope.resources), resources: scope.resources, defaultNamespace: scope.defaultNamespace });
  }
  for (const s of scopes) {
    const model = new StorageModel(s.resources, { scope: s.name, bundleComplete: options.bundleComplete, defaultNamespace: s.defaultNamespace });
    const result = runRules(model, settings);
    findings.push(...result.findings, ...result.crashes);
  }
  const merged = mergeFindings(findings);
  return {
    findings: merged,
    fatal: merged.some((f) => FATAL_DIAGNOSTICS.has(f.ruleId)),
    scopes: scopes.map((s) => ({ name: s.name, kind: s.kind, files: s.files, resources: s.resources.length })),
    root,
    stats: {
      files: scopes.reduce((n, s) => n + s.files, 0),
      documents,
      resources: scopes.reduce((n, s) => n + s.resources.length, 0),
    },
  };
}
