// The programmatic entry point: discover → read → parse → model per scope → rules → merged findings.
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
}

export interface ScopeSummary {
  name: string;
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
  files: SourceFile[];
  resources: Resource[];
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

export async function lint(options: LintOptions): Promise<LintResult> {
  const cwd = options.cwd ?? process.cwd();
  const root = await findRepoRoot(cwd);
  const settings = options.rules ?? defaultRuleSettings();
  const findings: Finding[] = [];
  const scopes: Scope[] = [];
  let documents = 0;
  const seen = new Set<string>();
  // All inputs of one invocation form one scope until renderers split them into environments.
  const scope: Scope = { name: options.paths.map((p) => scopeName(p, root, cwd)).join(', '), files: [], resources: [] };
  for (const argument of options.paths) {
    const input = await discover(argument, { cwd, ignore: options.ignore });
    const sources: SourceFile[] = [];
    if (input.stdin) sources.push(makeSourceFile('<stdin>', '<stdin>', (options.stdin ?? '').replace(/^\uFEFF/, '')));
    for (const absPath of input.files) {
      if (seen.has(absPath)) continue;
      seen.add(absPath);
      const read = await readSource(absPath, root);
      if ('error' in read) {
        const display = toDisplayPath(absPath, root);
        findings.push(diagnostic('pvlint/read', `${display}: ${read.error}`, { file: display, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 } }));
        continue;
      }
      sources.push(read.file);
    }
    for (const file of sources) {
      const parsed = parseResources(file);
      documents += parsed.documents.length;
      scope.files.push(file);
      scope.resources.push(...parsed.resources);
      for (const d of parsed.diagnostics) findings.push(diagnostic(d.ruleId, d.message, d.location));
    }
  }
  scopes.push(scope);
  for (const s of scopes) {
    const model = new StorageModel(s.resources, { scope: s.name, bundleComplete: options.bundleComplete });
    const result = runRules(model, settings);
    findings.push(...result.findings, ...result.crashes);
  }
  const merged = mergeFindings(findings);
  return {
    findings: merged,
    fatal: merged.some((f) => FATAL_DIAGNOSTICS.has(f.ruleId)),
    scopes: scopes.map((s) => ({ name: s.name, files: s.files.length, resources: s.resources.length })),
    root,
    stats: {
      files: scopes.reduce((n, s) => n + s.files.length, 0),
      documents,
      resources: scopes.reduce((n, s) => n + s.resources.length, 0),
    },
  };
}
