// Suppressions, applied after the rules: a `pvlint.dev/ignore: "<rule>[,<rule>]"` (or `all`) annotation on the
// resource a finding is about (the very object the rule reported on), with `pvlint.dev/ignore-reason`; and the
// configuration's `suppress` entries, by rule and resource (kind/namespace/name globs) and/or path globs (matched
// against the file the finding is located in), each with a reason. Suppressed findings are kept
// aside (counted and listed on request, never in SARIF); a suppression that suppressed nothing becomes a note, so
// stale ones get cleaned up. pvlint's own fatal diagnostics are never suppressed.
import path from 'node:path';
import { globMatch } from '../config/glob.js';
import type { StorageModel } from '../model/storage-model.js';
import type { Finding, LocateAt, RawFinding, Resource, SourceLocation, Suppression } from '../types.js';
import { diagnostic, FATAL_DIAGNOSTICS } from './diagnostic.js';

export const IGNORE_ANNOTATION = 'pvlint.dev/ignore';
export const REASON_ANNOTATION = 'pvlint.dev/ignore-reason';
export const UNUSED_SUPPRESSION = 'pvlint/unused-suppression';

export interface SuppressionEntry {
  /** Rule ids, or `all`. */
  rules: readonly string[];
  /** Globs matched against the resource the finding is about (its namespace as the cluster sees it). */
  resource?: { kind?: string; namespace?: string; name?: string };
  /** Globs matched against the finding's file, relative to `SuppressorOptions.base`. */
  paths?: readonly string[];
  reason: string;
  /** The entry in the configuration file. */
  location?: SourceLocation;
}

export interface SuppressorOptions {
  /** Absolute repo root: finding files are relative to it. */
  root: string;
  /** Absolute directory that `paths` globs are relative to (the configuration file's). */
  base: string;
  /** Every rule id that can report; an annotation naming another id is a typo. */
  knownRules: ReadonlySet<string>;
  /** Report config entries that suppressed nothing (only meaningful when the run covered the whole config tree). */
  reportUnusedEntries: boolean;
}

interface AnnotationRecord {
  ids: string[];
  used: Set<string>;
  location: SourceLocation;
  label: string;
  environments: Set<string>;
}

interface AnnotationHit {
  ids: readonly string[];
  reason: string;
  record: AnnotationRecord;
}

/** The run's locate stage, as suppressions use it: annotations are placed, findings are located before path globs. */
export interface Placing {
  at: LocateAt;
  finding(raw: RawFinding): Finding;
}

function annotationIds(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value.split(',').map((id) => id.trim()).filter(Boolean);
}

function locationKey(location: SourceLocation): string {
  const r = location.region;
  return `${location.file}\u0000${r.startLine}:${r.startColumn}`;
}

export class Suppressor {
  private readonly used: boolean[];
  private readonly annotations = new Map<string, AnnotationRecord>();

  constructor(
    private readonly entries: readonly SuppressionEntry[],
    private readonly options: SuppressorOptions,
  ) {
    this.used = entries.map(() => false);
  }

  /**
   * Splits one scope's raw findings into kept and suppressed, located: annotations on the resource a finding is about
   * first, then config entries (whose `paths` need the located file).
   */
  applyScope(model: StorageModel, findings: readonly RawFinding[], placing: Placing): { kept: Finding[]; suppressed: Finding[] } {
    const hits = new Map<Resource, AnnotationHit>();
    for (const resource of model.resources) {
      const annotations = resource.object?.metadata?.annotations;
      if (!annotations || typeof annotations !== 'object' || annotations[IGNORE_ANNOTATION] === undefined) continue;
      const location = placing.at(resource, ['metadata', 'annotations', IGNORE_ANNOTATION]).location;
      const key = locationKey(location);
      let record = this.annotations.get(key);
      if (!record) {
        record = { ids: annotationIds(annotations[IGNORE_ANNOTATION]), used: new Set(), location, label: `${resource.kind} ${resource.name}`, environments: new Set() };
        this.annotations.set(key, record);
      }
      record.environments.add(model.scope);
      const reason = annotations[REASON_ANNOTATION];
      hits.set(resource, { ids: record.ids, reason: typeof reason === 'string' ? reason : '', record });
    }
    const kept: Finding[] = [];
    const suppressed: Finding[] = [];
    for (const raw of findings) {
      const byAnnotation = this.byAnnotation(raw, raw.resource ? hits.get(raw.resource) : undefined);
      const finding = placing.finding(raw);
      const suppression = byAnnotation ?? this.byEntry(finding, raw.resource, model);
      if (suppression) suppressed.push({ ...finding, suppression });
      else kept.push(finding);
    }
    return { kept, suppressed };
  }

  /** Findings outside any scope (parse errors, render notes): only config entries with `paths` apply. */
  applyGlobal(findings: readonly Finding[]): { kept: Finding[]; suppressed: Finding[] } {
    const kept: Finding[] = [];
    const suppressed: Finding[] = [];
    for (const finding of findings) {
      const suppression = this.byEntry(finding, undefined, undefined);
      if (suppression) suppressed.push({ ...finding, suppression });
      else kept.push(finding);
    }
    return { kept, suppressed };
  }

  private byAnnotation(finding: RawFinding, hit: AnnotationHit | undefined): Suppression | undefined {
    if (!hit || FATAL_DIAGNOSTICS.has(finding.ruleId)) return undefined;
    const id = hit.ids.includes(finding.ruleId) ? finding.ruleId : hit.ids.includes('all') ? 'all' : undefined;
    if (!id) return undefined;
    hit.record.used.add(id);
    return { kind: 'annotation', reason: hit.reason, location: hit.record.location };
  }

  private byEntry(finding: Finding, resource: Resource | undefined, model: StorageModel | undefined): Suppression | undefined {
    if (FATAL_DIAGNOSTICS.has(finding.ruleId)) return undefined;
    for (let i = 0; i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (!entry.rules.includes(finding.ruleId) && !entry.rules.includes('all')) continue;
      if (entry.resource && !this.resourceMatches(entry.resource, finding, resource, model)) continue;
      if (entry.paths && !this.pathMatches(entry.paths, finding.location.file)) continue;
      this.used[i] = true;
      return { kind: 'config', reason: entry.reason, ...(entry.location ? { location: entry.location } : {}) };
    }
    return undefined;
  }

  private resourceMatches(pattern: NonNullable<SuppressionEntry['resource']>, finding: Finding, resource: Resource | undefined, model: StorageModel | undefined): boolean {
    const ref = finding.resource;
    if (!ref) return false;
    if (pattern.kind !== undefined && !globMatch(pattern.kind, ref.kind, false)) return false;
    if (pattern.name !== undefined && !globMatch(pattern.name, ref.name, false)) return false;
    if (pattern.namespace !== undefined) {
      // The namespace the object lands in: a namespaced object without one goes to the scope's default namespace.
      const namespace = resource && model ? model.namespaceOf(resource) ?? '' : ref.namespace ?? '';
      if (!globMatch(pattern.namespace, namespace, false)) return false;
    }
    return true;
  }

  private pathMatches(globs: readonly string[], file: string): boolean {
    if (file.startsWith('<')) return false;
    const relative = path.relative(this.options.base, path.resolve(this.options.root, file)).split(path.sep).join('/');
    return globs.some((glob) => globMatch(glob, relative, true));
  }

  /** Notes for suppressions that suppressed nothing in the whole run. Call once, after every scope. */
  unused(): Finding[] {
    const notes: Finding[] = [];
    for (const record of this.annotations.values()) {
      const stale = record.ids.filter((id) => !record.used.has(id));
      if (stale.length === 0) continue;
      // One note per annotation (findings at one place merge): what each stale id is.
      const unknown = stale.filter((id) => id !== 'all' && !this.options.knownRules.has(id));
      const unused = stale.filter((id) => !unknown.includes(id));
      const parts = [
        ...(unused.length > 0
          ? [`${unused.includes('all') && unused.length === 1 ? 'suppresses every rule' : `suppresses ${unused.map((id) => `"${id}"`).join(', ')}`}, but no such finding was reported on it`]
          : []),
        ...(unknown.length > 0 ? [`names ${unknown.map((id) => `"${id}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a rule id' : 'are not rule ids'} ('pvlint rules' lists them)`] : []),
      ];
      const remove = stale.length === record.ids.length ? 'remove the annotation' : `remove ${stale.map((id) => `"${id}"`).join(', ')} from it`;
      notes.push(diagnostic(UNUSED_SUPPRESSION, `${IGNORE_ANNOTATION} on ${record.label} ${parts.join('; it ')}: ${remove}`, record.location, 'note', [...record.environments]));
    }
    if (this.options.reportUnusedEntries) {
      this.entries.forEach((entry, i) => {
        if (this.used[i] || !entry.location) return;
        notes.push(diagnostic(UNUSED_SUPPRESSION, `suppress entry ${describeEntry(entry)} matched no finding: remove it, or correct its rules, resource or paths`, entry.location, 'note'));
      });
    }
    return notes;
  }
}

function describeEntry(entry: SuppressionEntry): string {
  const parts = [`rules ${entry.rules.join(', ')}`];
  if (entry.resource) {
    const r = entry.resource;
    parts.push(`resource ${[r.kind && `kind=${r.kind}`, r.namespace && `namespace=${r.namespace}`, r.name && `name=${r.name}`].filter(Boolean).join(' ')}`);
  }
  if (entry.paths) parts.push(`paths ${entry.paths.join(', ')}`);
  return `(${parts.join('; ')})`;
}
