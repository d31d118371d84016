// An environment on its way through the pipeline: the objects read or rendered for it, before its model is built.
import type { EnvironmentKind } from '../environments/environments.js';
import type { DeferredDocument } from '../load/parse-resources.js';
import type { ClusterFacts } from '../model/cluster-facts.js';
import type { RemovedObject } from '../model/removed-objects.js';
import type { Region, Resource } from '../types.js';

export interface Scope {
  name: string;
  kind: EnvironmentKind;
  files: number;
  resources: Resource[];
  /** Documents of kinds only some rule may read, parsed when one asks (`StorageModel.ofKind`). */
  deferred: DeferredDocument[];
  defaultNamespace?: string;
  removed?: RemovedObject[];
  /** Facts of a cluster declared in the configuration, instead of `LintOptions.cluster`. */
  cluster?: ClusterFacts;
  /** A GitOps cluster: everything it receives is here, so the classes it defines are all it has (besides facts). */
  wholeCluster?: boolean;
}

/** Distinct source files behind a rendered scope's objects (what the summary counts). */
export function originFiles(resources: readonly Resource[]): number {
  return new Set(resources.map((r) => r.origin?.file?.absPath ?? r.file.absPath)).size;
}

/** Where a problem with a whole file (or directory, or stream) is reported (a fresh object: findings own theirs). */
export function fileStart(): Region {
  return { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 };
}
