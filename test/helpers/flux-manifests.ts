// The smallest Flux cluster tests build: the flux-system GitRepository and Kustomization of a `flux bootstrap`
// (clusters/prod), and Kustomizations that sync a directory of the repository with or without pruning.

/** A Flux Kustomization in flux-system syncing `./dir` of the flux-system GitRepository. */
export const fluxKustomization = (name: string, dir: string, prune: boolean) => `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${name}
  namespace: flux-system
spec:
  interval: 10m
  path: ./${dir}
  prune: ${prune}
  sourceRef: {kind: GitRepository, name: flux-system}
---
`;

/** `clusters/prod/flux-system.yaml`: the GitRepository and the Kustomization that syncs clusters/prod. */
export const FLUX_SYSTEM = `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: flux-system, namespace: flux-system}
spec:
  interval: 1m
  url: ssh://git@github.com/example/fleet
  ref: {branch: main}
---
${fluxKustomization('flux-system', 'clusters/prod', true)}`;
