// `${VAR}` text in a storage field that Flux's post-build substitution does not fill in, although the repository says
// everything about it: the Kustomization substitutes nothing (no variable, default strategy), so the text is applied
// as written; or it substitutes, every variable source is in the repository, and the variable is set in none of them,
// so kustomize-controller fails the build (strict mode) or writes an empty string. Rules never judge a placeholder (its
// value is not in the repository), so these are said here, where it is known that the value never comes.
import { diagnostic } from '../engine/diagnostic.js';
import type { Finding, JsonPath, LocateAt, Resource } from '../types.js';
import { optedOut } from './substituted-resource.js';

export const FLUX_SUBSTITUTION = 'pvlint/flux-substitution';

const EXPRESSION = /\$?\$\{[^}]*\}/g;

const CLAIM_SPEC_CHECKED = [['storageClassName'], ['accessModes', '*'], ['volumeMode'], ['resources', 'requests', 'storage']];

/**
 * Fields the API server validates as a name, an enum or a quantity, which `$`, `{` and `}` can never be: an object
 * holding `${...}` there is rejected, and with it the Kustomization's apply (kubernetes pkg/apis/core/validation,
 * pkg/apis/storage/validation).
 */
const CHECKED: Record<string, JsonPath[]> = {
  PersistentVolumeClaim: [['metadata', 'name'], ...CLAIM_SPEC_CHECKED.map((p) => ['spec', ...p])],
  PersistentVolume: [['metadata', 'name'], ['spec', 'storageClassName'], ['spec', 'accessModes', '*'], ['spec', 'volumeMode'], ['spec', 'capacity', 'storage'], ['spec', 'persistentVolumeReclaimPolicy']],
  StorageClass: [['metadata', 'name'], ['provisioner'], ['reclaimPolicy'], ['volumeBindingMode']],
  VolumeSnapshotClass: [['metadata', 'name']],
};

const STORAGE_KINDS = new Set(['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'VolumeSnapshotClass', 'VolumeSnapshot', 'CSIDriver']);
const STORAGE_SEGMENTS = new Set(['volumes', 'volumeClaimTemplates', 'volumeMounts', 'persistentVolumeClaim', 'storageClassName']);

/** Whether a path of a resource is about storage: any field of a storage object, a workload's volumes and claims. */
export function isStoragePath(kind: string, p: JsonPath): boolean {
  return STORAGE_KINDS.has(kind) || p.some((segment) => typeof segment === 'string' && STORAGE_SEGMENTS.has(segment));
}

function matches(p: JsonPath, pattern: JsonPath): boolean {
  return p.length === pattern.length && pattern.every((segment, i) => segment === '*' ? typeof p[i] === 'number' : segment === p[i]);
}

/** Whether the API server rejects `${...}` at this path: a checked field of a storage object. */
function rejectedAt(kind: string, p: JsonPath): boolean {
  return (CHECKED[kind] ?? []).some((pattern) => matches(p, pattern));
}

/** Every string holding `${...}` in a resource's storage fields, with its path and expressions. */
function placeholders(resource: Resource): { path: JsonPath; expressions: string[] }[] {
  const found: { path: JsonPath; expressions: string[] }[] = [];
  const walk = (value: unknown, at: JsonPath) => {
    if (typeof value === 'string') {
      const expressions = value.match(EXPRESSION);
      if (expressions && isStoragePath(resource.kind, at)) found.push({ path: at, expressions });
    } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...at, i]));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) walk(item, [...at, key]);
  };
  walk(resource.object, []);
  return found;
}

function label(resource: Resource): string {
  return `${resource.kind} "${resource.name}"`;
}

/** What the Kustomization is, for messages: `Flux Kustomization flux-system/apps`. */
function owner(kustomization: Resource): string {
  return `Flux Kustomization ${kustomization.namespace ?? 'flux-system'}/${kustomization.name}`;
}

/**
 * Placeholders in a resource that a Kustomization applies without substituting (no postBuild variable, the default
 * `WithVariables` strategy): Flux writes the text as it is.
 */
export function unsubstitutedPlaceholders(resource: Resource, kustomization: Resource, locateAt: LocateAt, environment: string): Finding[] {
  if (optedOut(resource.object) || resource.apiVersion.includes('fluxcd.io/')) return [];
  const postBuild = kustomization.object?.spec?.postBuild;
  const why = postBuild && typeof postBuild === 'object'
    ? 'its postBuild sets no variable, and with the default substituteStrategy (WithVariables) Flux substitutes only when one is set'
    : 'it has no spec.postBuild, so Flux does not substitute variables';
  return placeholders(resource).map(({ path: p, expressions }) => {
    const rejected = rejectedAt(resource.kind, p);
    const consequence = rejected
      ? 'the API server rejects the object (the field must be a name, a fixed value or a quantity) and the whole Kustomization fails to apply'
      : 'the cluster receives the text as written';
    const message = `${label(resource)}: ${p.join('.')} is applied as "${expressions.join('')}" literally: ${owner(kustomization)} applies it and ${why}; ${consequence}.`;
    return placed(message, rejected ? 'error' : 'warning', resource, p, kustomization, postBuild ? ['spec', 'postBuild'] : ['spec', 'path'], 'the Kustomization that applies it without substitution', locateAt, environment);
  });
}

/**
 * Variables a substituting Kustomization leaves unresolved although every source of variables it names is in the
 * repository and readable: they are set nowhere.
 */
export function unsetVariables(resource: Resource, p: JsonPath, variables: readonly string[], kustomization: Resource, locateAt: LocateAt, environment: string): Finding {
  const names = variables.map((v) => `\${${v}}`).join(', ');
  const message =
    `${label(resource)}: ${p.join('.')} uses ${names}, which neither postBuild.substitute nor any substituteFrom source of ` +
    `${owner(kustomization)} sets: kustomize-controller fails the Kustomization's build in strict mode (the default since ` +
    'kustomize-controller v1.9) and substitutes an empty string otherwise.';
  return placed(message, 'warning', resource, p, kustomization, ['spec', 'postBuild'], 'the variables of the Kustomization', locateAt, environment);
}

function placed(message: string, severity: 'error' | 'warning', resource: Resource, p: JsonPath, kustomization: Resource, ownerPath: JsonPath, ownerText: string, locateAt: LocateAt, environment: string): Finding {
  const finding = diagnostic(FLUX_SUBSTITUTION, message, locateAt(resource, p).location, severity, [environment]);
  finding.related = [{ message: `${ownerText}: ${owner(kustomization)}`, location: locateAt(kustomization, ownerPath).location }];
  finding.resource = { apiVersion: resource.apiVersion, kind: resource.kind, ...(resource.namespace ? { namespace: resource.namespace } : {}), name: resource.name };
  finding.path = p;
  return finding;
}
