// Shared reading of how a pod template wires its volumes: which names a mount may use, whether a document is a
// whole object or a patch fragment, and when the API server or a controller refuses the mistake.
import type { JsonPath, Resource } from '../types.js';
import { getPath, type ContainerUse, type PodTemplate, type WorkloadKind } from './pod-templates.js';
import type { ModelView } from './model-view.js';
import { editDistance } from './edit-distance.js';
import { uniqueNearest } from './name-suggestions.js';

/** Kinds whose `spec.selector` apps/v1 requires (older API groups defaulted it from the template labels). */
const SELECTOR_REQUIRED = new Set<WorkloadKind>(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every container entry of the template (regular, init, ephemeral) with its kind and path. */
export function containersOf(template: PodTemplate): { kind: ContainerUse['containerKind']; index: number; path: JsonPath; object: any }[] {
  const result: { kind: ContainerUse['containerKind']; index: number; path: JsonPath; object: any }[] = [];
  for (const kind of ['containers', 'initContainers', 'ephemeralContainers'] as const) {
    const list = template.spec[kind];
    if (!Array.isArray(list)) continue;
    list.forEach((object: unknown, index: number) => {
      if (isObject(object)) result.push({ kind, index, path: [...template.specPath, kind, index], object });
    });
  }
  return result;
}

/**
 * Why the template reads as a patch fragment (a Kustomize strategic-merge patch linted as a loose file) rather than
 * a whole object, or undefined when it looks whole. Rules that need every volume and every mount of the pod at once
 * (a mount of an undeclared volume, a volume nobody mounts) skip fragments: the rest of the pod is in the base.
 * Signals are ones a whole object cannot have, because the API server rejects it: an apps/v1 workload without
 * `spec.selector`, a pod without containers, containers without `image`.
 */
export function fragmentReason(template: PodTemplate): string | undefined {
  const apiVersion = template.workload.apiVersion;
  if (apiVersion === 'apps/v1' && SELECTOR_REQUIRED.has(template.kind) && getPath(template.workload.object, ['spec', 'selector']) == null) {
    return `apps/v1 ${template.kind} without spec.selector`;
  }
  const containers = Array.isArray(template.spec.containers) ? template.spec.containers.filter(isObject) : [];
  if (containers.length === 0) return 'pod template without containers';
  if (containers.every((c: any) => c.image == null || c.image === '')) return 'containers without image';
  return undefined;
}

/** Other documents in the scope with the same kind, namespace and name: such a pair is usually a base and its patch. */
export function twinsOf(model: ModelView, resource: Resource): Resource[] {
  const namespace = model.namespaceOf(resource);
  return model.sameIdentity(resource.kind, namespace, resource.name).filter((other) => other !== resource);
}

/** The names a container may mount: the pod's volumes and, in a StatefulSet, its claim templates. */
export function knownVolumeNames(template: PodTemplate): Set<string> {
  const names = new Set<string>();
  const volumes = template.spec.volumes;
  if (Array.isArray(volumes)) {
    for (const volume of volumes) if (isObject(volume) && volume.name != null) names.add(String(volume.name));
  }
  for (const claimTemplate of template.claimTemplates) names.add(claimTemplate.name);
  return names;
}

/** "init container \"x\"", "container \"x\"", "ephemeral container \"x\"". */
export function containerLabel(use: Pick<ContainerUse, 'container' | 'containerKind'>): string {
  const kind = use.containerKind === 'initContainers' ? 'init container' : use.containerKind === 'ephemeralContainers' ? 'ephemeral container' : 'container';
  return `${kind} "${use.container}"`;
}

/**
 * When a pod-spec validation error in this workload surfaces. Pod templates of Deployments, ReplicaSets, DaemonSets,
 * Jobs and CronJobs go through ValidatePodTemplateSpec at apply; StatefulSet templates were not validated before
 * Kubernetes v1.34, so older clusters accept the object and the controller's pod creation fails instead. Argo Rollouts
 * validates a Rollout's template in its controller (ValidateRolloutSpec → ValidatePodTemplateSpecForReplicaSet).
 */
export function podSpecRejection(kind: WorkloadKind): string {
  switch (kind) {
    case 'Pod':
      return 'the API server rejects the Pod at apply';
    case 'StatefulSet':
      return 'Kubernetes before v1.34 accepts the StatefulSet, then fails to create every pod (FailedCreate events); v1.34+ rejects it at create';
    case 'Rollout':
      return 'the API server accepts the Rollout, but the Argo Rollouts controller marks it InvalidSpec and starts no pods';
    default:
      return `the API server rejects the ${kind} at apply`;
  }
}

/** The closest candidate within two edits (or differing only in case), when exactly one is closest. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  return uniqueNearest(candidates, (candidate) => (candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate, 2)), 2);
}
