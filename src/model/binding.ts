// The PV controller's static matching (catalogue §2.1 path A, FindMatchingVolume / findBestMatchForClaim): why a PV in
// the bundle can or cannot bind a claim, as reason codes with the PVC and PV fields that disagree.
import type { JsonPath, Resource } from '../types.js';
import { accessModesOf, volumeModeOf } from './claims.js';
import { compareQuantities, parseQuantity, type Quantity } from './quantity.js';
import { toLabelSelector } from './label-selector.js';
import { matchSelector, type LabelSelector } from './selector.js';
import type { ModelView } from './model-view.js';

export type MismatchReason = 'access-modes' | 'claim-ref' | 'namespace' | 'capacity' | 'volume-mode' | 'deleted' | 'selector' | 'class';

export interface Mismatch {
  reason: MismatchReason;
  /** What disagrees, in Kubernetes terms, naming both values. */
  detail: string;
  /** The PVC field to point at. */
  claimPath: JsonPath;
  /** The PV field to point at. */
  volumePath: JsonPath;
}

export interface VolumeVerdict {
  pv: Resource;
  /** The PV's claimRef names this claim (name and namespace): only access modes, capacity, volume mode and deletion count. */
  preBound: boolean;
  /** In FindMatchingVolume's order; empty when the PV can bind the claim. */
  mismatches: Mismatch[];
}

/** The class the claim is matched with: its own, else the default class the admission plugin will set, else "". */
export function matchingClassOfClaim(model: ModelView, pvc: Resource): { name: string; defaulted: boolean } {
  const effective = model.effectiveClassOfClaim(pvc.object);
  if (effective.name === undefined) return { name: '', defaulted: false };
  return { name: effective.name, defaulted: effective.defaulted };
}

const list = (modes: string[]) => (modes.length === 0 ? 'no access modes' : modes.join(', '));

function storageRequest(pvc: Resource): { quantity: Quantity | undefined; text: string | undefined; invalid: boolean } {
  const raw = pvc.object?.spec?.resources?.requests?.storage;
  if (raw == null) return { quantity: undefined, text: undefined, invalid: false };
  const quantity = parseQuantity(raw);
  return { quantity, text: String(raw), invalid: quantity === undefined };
}

/** The path of the first selector requirement the labels fail, for pointing at it. */
function failingRequirementPath(selector: LabelSelector, labels: Record<string, unknown> | undefined): JsonPath {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!matchSelector({ matchLabels: { [key]: value } }, labels).matches) return ['spec', 'selector', 'matchLabels', key];
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (let i = 0; i < expressions.length; i++) {
    if (!matchSelector({ matchExpressions: [expressions[i]] }, labels).matches) return ['spec', 'selector', 'matchExpressions', i];
  }
  return ['spec', 'selector'];
}

function labelsText(labels: unknown): string {
  const entries = labels && typeof labels === 'object' ? Object.entries(labels) : [];
  return entries.length === 0 ? 'no labels' : `labels ${entries.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`;
}

/** §2.1 path A for one PV: every reason it cannot bind the claim, in the controller's order. */
export function matchVolumeToClaim(model: ModelView, pvc: Resource, pv: Resource): VolumeVerdict {
  const namespace = model.namespaceOf(pvc) ?? model.defaultNamespace;
  const mismatches: Mismatch[] = [];
  const claimRef = pv.object?.spec?.claimRef;
  const ref = claimRef && typeof claimRef === 'object' ? claimRef : undefined;
  const refNamespace = ref?.namespace == null ? '' : String(ref.namespace);
  // A claim written without a namespace is created in the namespace it is applied to, which may be the claimRef's.
  const sameNamespace = refNamespace === namespace || (pvc.namespace === undefined && refNamespace !== '');
  const preBound = ref !== undefined && String(ref.name ?? '') === pvc.name && sameNamespace;

  // The PV index only offers volumes whose access modes contain every requested mode.
  const wanted = accessModesOf(pvc.object) ?? [];
  const offered = accessModesOf(pv.object) ?? [];
  const missing = wanted.filter((mode) => !offered.includes(mode));
  if (missing.length > 0) {
    mismatches.push({
      reason: 'access-modes',
      detail: `the claim requests ${list(wanted)} but the volume offers ${list(offered)}`,
      claimPath: ['spec', 'accessModes'], volumePath: ['spec', 'accessModes'],
    });
  }

  if (ref && !preBound) {
    const refName = String(ref.name ?? '');
    if (refName === pvc.name) {
      mismatches.push({
        reason: 'namespace',
        detail: `the volume's claimRef reserves it for "${refName}" ${refNamespace ? `in namespace "${refNamespace}"` : 'without a namespace'}, but the claim is in namespace "${namespace}"`,
        claimPath: ['metadata', 'namespace'], volumePath: ['spec', 'claimRef', 'namespace'],
      });
    } else {
      mismatches.push({
        reason: 'claim-ref',
        detail: `the volume's claimRef reserves it for claim "${refName}"${refNamespace ? ` in namespace "${refNamespace}"` : ''}`,
        claimPath: ['metadata', 'name'], volumePath: ['spec', 'claimRef'],
      });
    }
  }

  const request = storageRequest(pvc);
  const capacityRaw = pv.object?.spec?.capacity?.storage;
  const capacity = capacityRaw == null ? undefined : parseQuantity(capacityRaw);
  if (!request.invalid && !(capacityRaw != null && capacity === undefined)) {
    const requested = request.quantity ?? parseQuantity('0')!;
    const has = capacity ?? parseQuantity('0')!;
    if (compareQuantities(has, requested) < 0) {
      mismatches.push({
        reason: 'capacity',
        detail: capacityRaw == null
          ? `the volume sets no capacity.storage but the claim requests ${request.text}`
          : `the volume's capacity is ${String(capacityRaw)} but the claim requests ${request.text}`,
        claimPath: ['spec', 'resources', 'requests', 'storage'], volumePath: ['spec', 'capacity', 'storage'],
      });
    }
  }

  const claimMode = volumeModeOf(pvc.object);
  const volumeMode = volumeModeOf(pv.object);
  if (claimMode !== volumeMode) {
    mismatches.push({
      reason: 'volume-mode',
      detail: `the claim asks for volumeMode ${claimMode} but the volume is ${volumeMode}`,
      claimPath: ['spec', 'volumeMode'], volumePath: ['spec', 'volumeMode'],
    });
  }

  if (pv.object?.metadata?.deletionTimestamp != null) {
    mismatches.push({
      reason: 'deleted',
      detail: 'the volume has a deletionTimestamp (it is being deleted)',
      claimPath: ['metadata', 'name'], volumePath: ['metadata', 'deletionTimestamp'],
    });
  }

  // A pre-bound PV is returned here: class and selector are not checked.
  if (preBound) return { pv, preBound, mismatches };

  const rawSelector = pvc.object?.spec?.selector;
  if (rawSelector != null) {
    const labels = pv.object?.metadata?.labels;
    const parsed = toLabelSelector(rawSelector);
    const verdict = 'invalid' in parsed ? { matches: false as const, invalid: parsed.invalid } : matchSelector(parsed.selector, labels);
    if (!verdict.matches) {
      mismatches.push({
        reason: 'selector',
        detail: 'invalid' in verdict
          ? `the claim's selector is invalid (${verdict.invalid})`
          : `the volume has ${labelsText(labels)}, which fail the claim's selector requirement ${verdict.failed}`,
        claimPath: 'selector' in parsed ? failingRequirementPath(parsed.selector, labels) : ['spec', 'selector'],
        volumePath: ['metadata', 'labels'],
      });
    }
  }

  const claimClass = matchingClassOfClaim(model, pvc);
  const volumeClass = model.classOfVolume(pv.object);
  if (claimClass.name !== volumeClass) {
    const own = model.classOfClaim(pvc.object);
    const claimSide = own.set
      ? `the claim's is "${claimClass.name}"`
      : `the claim sets none and gets the default class "${claimClass.name}"`;
    mismatches.push({
      reason: 'class',
      detail: `the volume's storageClassName is "${volumeClass}" but ${claimSide}`,
      claimPath: own.set && own.via === 'annotation' ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'] : ['spec', 'storageClassName'],
      volumePath: pv.object?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] != null
        ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class']
        : ['spec', 'storageClassName'],
    });
  }
  return { pv, preBound, mismatches };
}
