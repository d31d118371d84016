// Everything in a scope that becomes a PersistentVolumeClaim: PVC documents, StatefulSet `volumeClaimTemplates` (one
// PVC per replica, `<template>-<statefulset>-<ordinal>`) and generic ephemeral volumes' `ephemeral.volumeClaimTemplate`
// (one PVC per pod, `<pod>-<volume>`). Claim rules that reason about one claim's own spec (its class, access modes,
// volume mode, selector) read them all through `model.claimObjects()`, so templates are checked like the PVCs they become.
import type { JsonPath, Resource } from '../types.js';
import { statefulSetClaimName, type ClaimTemplate, type PodTemplate, type PodVolume } from './pod-templates.js';
import type { PodCount } from './pod-count.js';
import type { ClaimShape } from './views.js';
import type { ModelView } from './model-view.js';

export type ClaimOrigin = 'pvc' | 'claim-template' | 'ephemeral';

export interface ClaimObject {
  origin: ClaimOrigin;
  /** The PVC, or the workload holding the template. */
  resource: Resource;
  /** Path of the claim-shaped object (`metadata` + `spec`) inside `resource`; `[]` for a PVC. */
  path: JsonPath;
  /** The claim-shaped object: a PVC's object, a volumeClaimTemplates entry, an ephemeral volumeClaimTemplate. */
  object: ClaimShape;
  /** The namespace the PVC lives (or will live) in. */
  namespace: string;
  /** `PersistentVolumeClaim "data"`, `volumeClaimTemplate "data" of StatefulSet "pg"`, `ephemeral volume "scratch" of Deployment "web"`. */
  label: string;
  /** The name of the PVC it is or creates first (`data`, `data-pg-0`, `web-scratch`); for Deployments and the like the pod name is a placeholder. */
  claimName: string;
  /** Pod template of the workload (templates only). */
  template?: PodTemplate;
  /** How many pods of that template run at once (templates only; `model.podCount`). */
  podCount?: PodCount;
  claimTemplate?: ClaimTemplate;
  volume?: PodVolume;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path of a field of the claim object, e.g. `at(claim, 'spec', 'storageClassName')`. */
export function claimPath(claim: ClaimObject, ...rest: (string | number)[]): JsonPath {
  return [...claim.path, ...rest];
}

/**
 * Every claim-shaped object of the scope, in document order: PVCs, then each workload's claim templates. The model
 * keeps the list (`model.claimObjects()`).
 */
export function collectClaimObjects(model: ModelView): ClaimObject[] {
  const claims: ClaimObject[] = [];
  for (const pvc of model.claimsOf()) {
    claims.push({
      origin: 'pvc', resource: pvc, path: [], object: pvc.object ?? {}, namespace: model.namespaceOf(pvc) ?? model.defaultNamespace,
      label: `PersistentVolumeClaim "${pvc.name}"`, claimName: pvc.name,
    });
  }
  for (const template of model.templates) {
    const workload = template.workload;
    const namespace = model.namespaceOf(workload) ?? model.defaultNamespace;
    for (const claimTemplate of template.claimTemplates) {
      if (!isObject(claimTemplate.object)) continue;
      claims.push({
        origin: 'claim-template', resource: workload, path: claimTemplate.path, object: claimTemplate.object, namespace,
        label: `volumeClaimTemplate "${claimTemplate.name}" of StatefulSet "${workload.name}"`,
        claimName: statefulSetClaimName(claimTemplate.name, workload.name, 0),
        template, podCount: model.podCount(template), claimTemplate,
      });
    }
    for (const volume of template.volumes) {
      const object = volume.ephemeralTemplate?.object;
      if (!isObject(object) || !isObject(object.spec)) continue;
      const podName = template.kind === 'Pod' ? workload.name : `${workload.name}-<pod>`;
      claims.push({
        origin: 'ephemeral', resource: workload, path: volume.ephemeralTemplate!.path, object, namespace,
        label: `ephemeral volume "${volume.name}" of ${template.kind} "${workload.name}"`,
        claimName: `${podName}-${volume.name}`,
        template, podCount: model.podCount(template), volume,
      });
    }
  }
  return claims;
}

/**
 * The claim as a PersistentVolumeClaim resource, for model functions that take one (`matchVolumeToClaim`, …): the PVC
 * itself, or for a template a stand-in PVC named like the first claim it creates, in the workload's namespace and file.
 */
export function asClaimResource(claim: ClaimObject, name = claim.claimName): Resource {
  if (claim.origin === 'pvc' && name === claim.resource.name) return claim.resource;
  const workload = claim.resource;
  const resource = {
    id: `PersistentVolumeClaim/${claim.namespace}/${name}`,
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    name,
    namespace: claim.namespace,
    object: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim.object, metadata: { ...(claim.object?.metadata ?? {}), name, namespace: claim.namespace } },
    file: workload.file,
    docIndex: workload.docIndex,
    // The workload's node, made only when something locates in it (a cached workload has none until then).
    get node() {
      return workload.node;
    },
    ...(workload.origin ? { origin: workload.origin } : {}),
  };
  return resource;
}

/**
 * How many PVCs a template creates at once, when the workload says: its written replicas (StatefulSet), 1 for a Pod;
 * undefined otherwise.
 */
export function claimCopies(claim: ClaimObject): number | undefined {
  if (claim.origin === 'pvc') return 1;
  const replicas = claim.podCount?.replicas;
  if (!replicas) return undefined;
  if (replicas.kind === 'count') return replicas.count;
  return undefined;
}

/** The PVC names a StatefulSet claim template creates for ordinals 0..n-1 (n capped, for lookups by name). */
export function claimTemplateNames(claim: ClaimObject, cap = 100): string[] {
  if (claim.origin !== 'claim-template' || !claim.claimTemplate) return [];
  const count = Math.min(claimCopies(claim) ?? 1, cap);
  return Array.from({ length: Math.max(count, 1) }, (_, i) => statefulSetClaimName(claim.claimTemplate!.name, claim.resource.name, i));
}

/**
 * Whether a name is still a template placeholder (Flux post-build `${VAR}`, an unrendered Helm `{{ … }}`): the real
 * value is not in the repo, so lookups by it prove nothing.
 */
export { isPlaceholder } from './placeholder.js';
