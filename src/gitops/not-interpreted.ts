// What pvlint read but did not interpret, per environment: a run must never read as "no problems" when it
// skipped GitOps objects, failed roots or charts it could not render.

export interface NotInterpreted {
  /** The environment (cluster) the object belongs to. */
  environment: string;
  /** Repo-relative file the object is written in. */
  file: string;
  line?: number;
  /** The object's kind (`HelmRelease`, `Kustomization`, `Application`...) or `variable` / `root`. */
  kind: string;
  name: string;
  reason: string;
  /**
   * Identity of the object for whoever interprets it later: `<apiGroup>/<Kind>/<namespace>/<name>` for GitOps
   * objects (a HelmRelease renderer removes the entry keyed by its release's identity).
   */
  key?: string;
  /** For a HelmRelease: the chart it names. */
  chart?: { name: string; version?: string; sourceKind?: string; sourceName?: string; url?: string };
}

export function gitopsKey(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
  return `${apiVersion.split('/')[0]}/${kind}/${namespace ?? ''}/${name}`;
}

/** Drops the entries of objects something else did interpret (e.g. HelmReleases a Helm step rendered). */
export function withoutInterpreted(entries: readonly NotInterpreted[], interpreted: ReadonlySet<string>): NotInterpreted[] {
  return entries.filter((entry) => entry.key === undefined || !interpreted.has(entry.key));
}
