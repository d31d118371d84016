// What the configuration says about GitOps: clusters declared by hand, and which repoURLs are this repository.
import type { ClusterFacts } from '../model/cluster-facts.js';

export interface DeclaredCluster {
  name: string;
  /** Absolute directories, each built as a Flux entry (its own kustomization, or a generated one). */
  entries: string[];
  /** Facts of this cluster, instead of the top-level `cluster`. */
  cluster?: ClusterFacts;
}

export interface GitopsOptions {
  clusters?: DeclaredCluster[];
  repoURLs?: string[];
  argocdBuildOptions?: string;
}
