// The environments a run lints, known before anything renders: each Kustomize root, each Helm chart, and the loose
// manifests of each argument. lint() renders and reads from this list, `--list-environments` prints it and
// `--environment NAME` selects from it, so a new kind of environment added here is listed and selectable the same
// day. Names are the ones findings carry in `environments`.
import path from 'node:path';
import type { DiscoveredInput } from '../load/discover.js';
import { UsageError } from '../load/discover.js';
import { toDisplayPath } from '../load/source-file.js';

/** `manifests`: loose manifests of one argument; the others render an entry point. The kinds a report names. */
export type EnvironmentKind = 'manifests' | 'kustomize' | 'helm' | 'flux' | 'argocd';

export interface PlannedEnvironment {
  /** Repo-relative (`<stdin>` for standard input): the name findings carry and `--environment` takes. */
  name: string;
  kind: EnvironmentKind;
  /** What is rendered or read: a root or chart directory, or the argument (absolute; `-` for stdin). */
  entry: string;
  /** The command-line argument it was found under (the first one, when several lead to it). */
  argument: string;
  /** Loose manifests only: the files to read. */
  files?: readonly string[];
}

/** The environment of an argument's loose manifests (and of its discovery problems). */
export function looseEnvironmentName(argument: string, root: string, cwd: string): string {
  if (argument === '-') return '<stdin>';
  return toDisplayPath(path.resolve(cwd, argument), root);
}

/**
 * Every environment of the discovered arguments, in the order lint() reports them: each argument's loose manifests,
 * then the Kustomize roots, then the charts (each once, however many arguments reach it). An argument's loose-manifest
 * environment is listed when it has files, reads stdin, has discovery problems (they are reported with it), or the
 * argument holds nothing else, so that every argument belongs to some environment.
 */
export function enumerateEnvironments(
  inputs: readonly (readonly [string, DiscoveredInput])[],
  root: string,
  cwd: string,
  gitops?: { clusters: readonly { name: string; entry: string }[]; coveredRoots: ReadonlySet<string> },
): PlannedEnvironment[] {
  const loose: PlannedEnvironment[] = [];
  const rendered = new Map<string, PlannedEnvironment>();
  for (const [argument, input] of inputs) {
    for (const [kind, dirs] of [['kustomize', input.kustomizations], ['helm', input.charts]] as const) {
      for (const dir of dirs) {
        // A root or chart that a GitOps cluster builds is part of that cluster, not an environment of its own.
        if (gitops?.coveredRoots.has(dir)) continue;
        const key = `${kind}\u0000${dir}`;
        if (!rendered.has(key)) rendered.set(key, { name: toDisplayPath(dir, root), kind, entry: dir, argument });
      }
    }
    const ownsNothingElse = input.kustomizations.length === 0 && input.charts.length === 0;
    if (input.files.length > 0 || input.stdin || input.problems.length > 0 || ownsNothingElse) {
      const name = looseEnvironmentName(argument, root, cwd);
      const entry = input.stdin ? '-' : path.resolve(cwd, argument);
      const same = loose.find((e) => e.name === name);
      if (same) same.files = [...(same.files ?? []), ...input.files];
      else loose.push({ name, kind: 'manifests', entry, argument, files: input.files });
    }
  }
  const all = [...rendered.values()];
  const clusters: PlannedEnvironment[] = (gitops?.clusters ?? []).map((c) => ({ name: c.name, kind: c.name.startsWith('argocd:') ? 'argocd' : 'flux', entry: c.entry, argument: c.entry }));
  return [...loose, ...all.filter((e) => e.kind === 'kustomize'), ...all.filter((e) => e.kind !== 'kustomize'), ...clusters];
}

/**
 * The names `--environment` selected; a name that is not an environment of this run is a usage error, unless
 * `allowAbsent` (the base of `--base`, where an environment the change adds does not exist yet).
 */
export function selectEnvironments(environments: readonly PlannedEnvironment[], names: readonly string[], allowAbsent = false): Set<string> {
  const known = new Set(environments.map((e) => e.name));
  const normalise = (name: string) => (name === '<stdin>' ? name : name.replace(/^\.\//, '').replace(/\/+$/, '') || '.');
  const unknown = names.filter((name) => !known.has(normalise(name)));
  if (unknown.length > 0 && !allowAbsent) {
    const listed = [...known].slice(0, 10).join(', ');
    throw new UsageError(
      `no environment named ${unknown.map((n) => `"${n}"`).join(', ')} in these paths (${known.size === 0 ? 'there are none' : `they are: ${listed}${known.size > 10 ? ', …' : ''}`}; ` +
        "'pvlint --list-environments' lists them)",
    );
  }
  return new Set(names.map(normalise));
}
