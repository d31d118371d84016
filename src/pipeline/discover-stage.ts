// Stage 1: the path arguments become the run's environments. Discovery of every argument first, then the GitOps
// clusters (the roots and files they build are theirs, not environments or loose manifests of their own), then the
// one list of environments `--list-environments` prints, and the ones `--environment` selects.
import { discoverInputs } from '../environments/discover-inputs.js';
import { enumerateEnvironments, looseEnvironmentName, selectEnvironments, type PlannedEnvironment } from '../environments/environments.js';
import { gitopsForPaths, type GitopsOutcome, type GitopsSettings } from '../gitops/gitops-environments.js';
import type { DiscoveredInput } from '../load/discover.js';
import type { RunContext } from './run-context.js';
import type { DiscoverySettings } from './stage-settings.js';

export interface DiscoveredRun {
  inputs: [string, DiscoveredInput][];
  gitops: GitopsOutcome;
  environments: PlannedEnvironment[];
  /** The environments `--environment` chose; undefined: all of them. */
  selected: ReadonlySet<string> | undefined;
  /** Files something already claimed: a GitOps cluster, or an earlier argument. */
  claimedFiles: Set<string>;
}

export async function discoverEnvironments(run: RunContext, settings: DiscoverySettings, gitopsSettings: GitopsSettings): Promise<DiscoveredRun> {
  const { cwd, root } = run;
  // The Kustomize roots and charts each argument holds render (child processes) while its loose manifests are read.
  const inputs = await discoverInputs({ paths: settings.paths, cwd, root, cache: run.sources, ignore: settings.ignore, followSymlinks: settings.followSymlinks, maxFiles: run.limits.maxFiles, allowEmpty: settings.allowEmptyPaths });
  // Flux and Argo CD paths are relative to the repository each argument belongs to, which need not be the cwd's.
  const gitops = await gitopsForPaths(run.sources, settings.paths, cwd, root, gitopsSettings);
  const claimedFiles = new Set(gitops.coveredFiles);
  const environments = enumerateEnvironments(inputs, root, cwd, gitops);
  const selected = settings.environments && selectEnvironments(environments, settings.environments, settings.allowAbsentEnvironments);
  return { inputs, gitops, environments, selected, claimedFiles };
}

/** Whether the run lints this environment. */
export function isSelected(discovered: DiscoveredRun, name: string): boolean {
  return !discovered.selected || discovered.selected.has(name);
}

/** The argument's loose-manifest environment's name. */
export function looseName(run: RunContext, argument: string): string {
  return looseEnvironmentName(argument, run.root, run.cwd);
}
