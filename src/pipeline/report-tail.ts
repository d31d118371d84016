// The end of every run, review's too: suppressions apply (file-wide findings first, then each environment's with its
// model), the unused ones are reported, the cache is saved, findings are merged across environments, and the result
// is what the reports read.
import path from 'node:path';
import { appendAll } from '../engine/append.js';
import { FATAL_DIAGNOSTICS } from '../engine/diagnostic.js';
import { mergeFindings } from '../engine/merge-findings.js';
import { Suppressor, type SuppressionEntry } from '../engine/suppress.js';
import type { NotInterpreted } from '../gitops/not-interpreted.js';
import { BUILTIN_RULES, CHANGE_RULES } from '../registry.js';
import type { LintedScope, LintResult } from '../report/lint-result.js';
import type { Finding, RawFinding } from '../types.js';
import type { ModelledScope } from './rules-stage.js';
import type { RunContext } from './run-context.js';

/** What the tail reads of LintOptions. */
export interface TailSettings {
  paths: readonly string[];
  suppressions?: readonly SuppressionEntry[];
  suppressionBase?: string;
  onScope?: (scope: LintedScope) => void;
}

/** A run up to its rules: the findings outside any environment, and each environment with its model and findings. */
export interface RuledRun {
  run: RunContext;
  /** Findings that belong to no environment's rules (discovery, reading, parsing, rendering), in report order. */
  findings: Finding[];
  scopes: ModelledScope[];
  documents: number;
  templateFiles: string[];
  notInterpreted: NotInterpreted[];
}

/** Findings an environment gets besides its rules' (before suppression): review's change rules, `scopeFindings`. */
export type ExtraFindings = (scope: Extract<ModelledScope, { model: object }>) => RawFinding[] | Promise<RawFinding[]>;

export async function finishRun(ruled: RuledRun, settings: TailSettings, extra?: ExtraFindings): Promise<LintResult> {
  const { run } = ruled;
  const base = path.resolve(run.cwd, settings.suppressionBase ?? '.');
  const suppressor = new Suppressor(settings.suppressions ?? [], {
    root: run.root,
    base,
    knownRules: new Set([...BUILTIN_RULES, ...CHANGE_RULES, ...run.rules.map((s) => s.rule)].map((rule) => rule.id)),
    // A config entry for files this run did not read is not stale: report unused entries only when the run covered
    // the configuration's whole tree.
    reportUnusedEntries: settings.paths.some((p) => p !== '-' && !path.relative(path.resolve(run.cwd, p), base).startsWith('..')),
  });
  const findings: Finding[] = [];
  const suppressed: Finding[] = [];
  const early = suppressor.applyGlobal(ruled.findings);
  appendAll(findings, early.kept);
  appendAll(suppressed, early.suppressed);
  for (const modelled of ruled.scopes) {
    if (!modelled.model) {
      findings.push(modelled.crash);
      continue;
    }
    const { scope, model } = modelled;
    const more = extra ? await extra(modelled) : [];
    const split = suppressor.applyScope(model, appendAll(appendAll([...modelled.shapeFindings], modelled.ruleFindings), more), run.locating);
    appendAll(appendAll(findings, split.kept), run.locating.findings(modelled.crashes));
    appendAll(suppressed, split.suppressed);
    settings.onScope?.({ name: scope.name, kind: scope.kind, model, findings: split.kept, subjectOf: run.locating.subjectOf });
  }
  appendAll(findings, suppressor.unused());
  const cacheWriteError = run.lintCache?.save();
  const merged = mergeFindings(findings);
  const scopes = ruled.scopes.map((m) => m.scope);
  return {
    findings: merged,
    suppressed: mergeFindings(suppressed),
    fatal: merged.some((f) => FATAL_DIAGNOSTICS.has(f.ruleId)),
    scopes: scopes.map((s) => ({ name: s.name, kind: s.kind, files: s.files, resources: s.resources.length })),
    root: run.root,
    stats: {
      files: scopes.reduce((n, s) => n + s.files, 0),
      documents: ruled.documents,
      resources: scopes.reduce((n, s) => n + s.resources.length, 0),
      templates: ruled.templateFiles.length,
    },
    templateFiles: ruled.templateFiles.sort(),
    ...(ruled.notInterpreted.length > 0 ? { notInterpreted: ruled.notInterpreted } : {}),
    ...(run.lintCache ? { cache: { location: run.lintCache.directory, hits: run.lintCache.hits, misses: run.lintCache.misses, ...(cacheWriteError ? { writeError: cacheWriteError } : {}) } } : {}),
  };
}
