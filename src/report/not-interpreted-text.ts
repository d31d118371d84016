// The text report's account of what was read but not interpreted, per environment: a cluster whose
// HelmReleases or child Kustomizations pvlint could not follow must not read as clean.
import kleur from 'kleur';
import type { NotInterpreted } from '../gitops/not-interpreted.js';

/** Entries listed per environment before the rest is only counted (JSON and SARIF list them all). */
const LISTED = 10;

export function notInterpretedSection(entries: readonly NotInterpreted[]): string[] {
  if (entries.length === 0) return [];
  const byEnvironment = new Map<string, NotInterpreted[]>();
  for (const entry of entries) {
    const list = byEnvironment.get(entry.environment);
    if (list) list.push(entry);
    else byEnvironment.set(entry.environment, [entry]);
  }
  const lines = [kleur.yellow().bold(`Not interpreted (${entries.length}): read but not linted, or assumed`)];
  for (const [environment, list] of [...byEnvironment].sort(([a], [b]) => a.localeCompare(b))) {
    const kinds = new Map<string, number>();
    for (const entry of list) kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
    const counts = [...kinds].map(([kind, n]) => `${n} ${kind}`).join(', ');
    lines.push(`  ${kleur.bold(environment)}: ${counts}`);
    for (const entry of list.slice(0, LISTED)) {
      const at = entry.line ? `${entry.file}:${entry.line}` : entry.file;
      lines.push(`    ${kleur.dim(at)}  ${entry.kind} ${entry.name}: ${entry.reason}`);
    }
    if (list.length > LISTED) lines.push(kleur.dim(`    … and ${list.length - LISTED} more (--format json lists them all)`));
  }
  return lines;
}

/** Appended to the summary line: a clean run that skipped things says so. */
export function notInterpretedNote(entries: readonly NotInterpreted[] | undefined): string {
  const n = entries?.length ?? 0;
  return n === 0 ? '' : `; ${n} GitOps object${n === 1 ? '' : 's'} or input${n === 1 ? '' : 's'} not interpreted (listed above)`;
}
