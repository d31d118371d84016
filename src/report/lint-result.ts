// What a run of lint() hands the reports: the findings, the environments linted and what was read. The reports
// are functions of this, so it lives with them, below the pipeline that produces it.
import type { EnvironmentKind } from '../environments/environments.js';
import type { NotInterpreted } from '../gitops/not-interpreted.js';
import type { StorageModel } from '../model/storage-model.js';
import type { Finding, FindingSubject } from '../types.js';

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
  kind: EnvironmentKind;
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
