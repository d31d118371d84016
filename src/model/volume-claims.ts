// The claim behind a pod volume, whichever way the pod spec names it: a PersistentVolumeClaim in the bundle (the
// definition closest to the workload), a StatefulSet claim template, or a generic ephemeral volume's template — with
// the same storage facts (access modes, volume mode, driver, attach) for all three.
import { deriveResource } from '../load/parse-resources.js';
import type { JsonPath, Resource } from '../types.js';
import { claimStorage, closestDefinition, type ClaimStorage } from './claims.js';
import { volumeNamed, type PodVolumeRef } from './mounts.js';
import { getPath, statefulSetClaimName, type PodTemplate } from './pod-templates.js';
import type { ModelView } from './model-view.js';
import type { ClaimShape } from './views.js';

export interface ResolvedClaim {
  /** `pvc`: a PersistentVolumeClaim object; `claim-template`: StatefulSet volumeClaimTemplates; `ephemeral`: a generic ephemeral volume. */
  origin: 'pvc' | 'claim-template' | 'ephemeral';
  /** The claim's name (PVC name, or the template's name). */
  name: string;
  /** The claim-shaped object (`metadata`, `spec`). */
  object: ClaimShape;
  /** The resource that holds the claim: the PVC, or the workload for templates. */
  owner: Resource;
  /** Path of the claim object inside `owner` (`[]` for a PVC). */
  path: JsonPath;
  storage: ClaimStorage;
}

/**
 * Storage facts of a claim written inside a workload (a claim template or an ephemeral volume template). The
 * claim is read like a PVC of that name: `instanceName` is the PVC the controller creates (for claim templates the
 * first ordinal, so a pre-created PV reserved for it is found).
 */
export function storageOfEmbeddedClaim(model: ModelView, owner: Resource, instanceName: string, object: unknown): ClaimStorage {
  const pseudo = deriveResource(owner, {
    id: `PersistentVolumeClaim/${owner.namespace ?? ''}/${instanceName}`,
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    name: instanceName,
    object: object ?? {},
  });
  return claimStorage(model, pseudo);
}

/**
 * The claim behind a pod volume: `undefined` for volumes that are not claims, `external` for a
 * `persistentVolumeClaim` whose claim the bundle does not hold.
 */
export function claimOfVolume(model: ModelView, template: PodTemplate, ref: PodVolumeRef): ResolvedClaim | 'external' | undefined {
  const workload = template.workload;
  if (ref.kind === 'claim-template' && ref.claimTemplate) {
    const instance = statefulSetClaimName(ref.claimTemplate.name, workload.name, 0);
    return {
      origin: 'claim-template', name: ref.claimTemplate.name, object: ref.claimTemplate.object, owner: workload,
      path: ref.claimTemplate.path, storage: storageOfEmbeddedClaim(model, workload, instance, ref.claimTemplate.object),
    };
  }
  if (ref.kind === 'ephemeral' && ref.volume?.ephemeralTemplate) {
    const object = ref.volume.ephemeralTemplate.object;
    if (!object || typeof object !== 'object') return undefined;
    return {
      origin: 'ephemeral', name: ref.name, object, owner: workload, path: ref.volume.ephemeralTemplate.path,
      // `<pod>-<volume>`: the pod name is not known, so no PV in the bundle can be reserved for it.
      storage: storageOfEmbeddedClaim(model, workload, `${workload.name}-?-${ref.name}`, object),
    };
  }
  if (ref.kind !== 'claim' || ref.volume?.claimName === undefined) return undefined;
  const namespace = model.namespaceOf(workload) ?? model.defaultNamespace;
  const lookup = model.lookupClaim(namespace, ref.volume.claimName);
  if (lookup.status !== 'found') return 'external';
  const target = lookup.value;
  if (target.kind === 'claim-template') {
    const sts = target.statefulSet;
    const index = (getPath(sts.object, ['spec', 'volumeClaimTemplates']) as any[]).findIndex((t: any) => t?.metadata?.name === target.template);
    const object = getPath(sts.object, ['spec', 'volumeClaimTemplates', index]);
    return {
      origin: 'claim-template', name: target.template, object, owner: sts, path: ['spec', 'volumeClaimTemplates', index],
      storage: storageOfEmbeddedClaim(model, sts, ref.volume.claimName, object),
    };
  }
  const definitions = model.claimDefinitions(namespace, ref.volume.claimName);
  const pvc = definitions.length > 0 ? closestDefinition(definitions, workload, model) : target.resource;
  return { origin: 'pvc', name: pvc.name, object: pvc.object, owner: pvc, path: [], storage: claimStorage(model, pvc) };
}

/** A claim a pod template uses, by the name its containers mount it under. */
export interface TemplateClaim {
  /** The pod volume's (or claim template's) name. */
  name: string;
  ref: PodVolumeRef;
  /** `external`: a `persistentVolumeClaim` whose claim the bundle does not hold. */
  claim: ResolvedClaim | 'external';
}

/**
 * Every claim of a pod template: its persistentVolumeClaim and ephemeral volumes in volume order, then StatefulSet
 * claim templates no pod volume names (a claim template shadows a volume of its name and is listed in its place).
 */
export function claimsOfTemplate(model: ModelView, template: PodTemplate): TemplateClaim[] {
  const names = [...new Set([...template.volumes.map((v) => v.name), ...template.claimTemplates.map((t) => t.name)])];
  const result: TemplateClaim[] = [];
  for (const name of names) {
    const ref = volumeNamed(template, name);
    const claim = ref ? claimOfVolume(model, template, ref) : undefined;
    if (ref && claim) result.push({ name, ref, claim });
  }
  return result;
}

/** `spec.resources.requests.storage` of a claim-shaped object. */
export function requestedStorage(object: any): unknown {
  return object?.spec?.resources?.requests?.storage;
}
