// Stage 4: Flux HelmReleases render in every environment, GitOps clusters included; those that cannot render stay
// listed as not interpreted. Then the classes a claim needs that another environment defines are assumed to exist.
import { borrowClusterWide } from '../gitops/cluster-wide.js';
import type { NotInterpreted } from '../gitops/not-interpreted.js';
import type { ClusterFacts } from '../model/cluster-facts.js';
import type { NotInterpretedRelease } from '../render/helm-release/expand.js';
import { expandScopes, type HelmReleaseSettings } from '../render/helm-release/expand-scopes.js';
import type { Finding, Resource } from '../types.js';
import type { RunContext } from './run-context.js';
import type { Scope } from './scope.js';

export interface ExpandedScopes {
  /** Per environment, what was read but not interpreted, and the cluster-wide assumptions made. */
  notInterpreted: NotInterpreted[];
  /** Per environment name: objects another environment defines that this one is assumed to have. */
  borrowed: Map<string, { resources: Resource[] }>;
}

/** Renders the HelmReleases of `scopes` into them (their notes go to `findings`) and decides what each borrows. */
export async function expandHelmReleases(
  run: RunContext,
  scopes: readonly Scope[],
  clusters: readonly { name: string; notInterpreted: NotInterpreted[] }[],
  settings: HelmReleaseSettings,
  cluster: ClusterFacts | undefined,
  findings: Finding[],
  /** Entries the render stage already listed (charts whose dependencies could not be had). */
  listed: readonly NotInterpreted[] = [],
): Promise<ExpandedScopes> {
  const releases = await expandScopes(run.sources, scopes, settings, run.renderKinds && { parse: run.renderKinds });
  findings.push(...releases.notes);
  const notInterpreted = [...notInterpretedAfterHelm(clusters, scopes, releases.notInterpreted), ...listed];
  for (const s of scopes) if (s.wholeCluster !== undefined) s.wholeCluster = !notInterpreted.some((entry) => entry.environment === s.name && (entry.chart || entry.kind === 'HelmRelease'));
  // Classes a claim needs that another environment defines are assumed to exist, and said so.
  const borrowed = borrowClusterWide(scopes, new Set((cluster?.storageClasses ?? []).map((c) => c.name)), run.locating.at);
  return { notInterpreted: [...notInterpreted, ...[...borrowed.values()].flatMap((b) => b.assumptions)], borrowed };
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
