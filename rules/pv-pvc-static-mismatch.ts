// R01: a claim that can only bind a pre-created PersistentVolume matches none of the PVs in the repo.
import { defineRule } from '../src/define-rule.js';
import { NO_PROVISIONER } from '../src/model/provisioners.js';
import { type VolumeVerdict } from '../src/model/binding.js';
import { nearestDefinitions } from '../src/model/claims.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { Resource } from '../src/types.js';


interface Expectation {
  /** Why the claim waits for a static PV, in Kubernetes terms. */
  reasons: string[];
  /** Dynamic provisioning is impossible: class "" or a no-provisioner class. */
  staticOnly: boolean;
  selector: boolean;
}

function expectation(model: StorageModel, pvc: Resource, namespace: string): Expectation | undefined {
  const reasons: string[] = [];
  const own = model.classOfClaim(pvc.object);
  let staticOnly = false;
  if (own.set && own.name === '') {
    reasons.push(own.via === 'annotation' ? 'annotation volume.beta.kubernetes.io/storage-class: ""' : 'storageClassName: ""');
    staticOnly = true;
  } else {
    const effective = model.effectiveClassOfClaim(pvc.object);
    if (effective.name) {
      const lookup = model.storageClassFor(effective.name, pvc);
      if (lookup.status === 'found' && lookup.value.object?.provisioner === NO_PROVISIONER) {
        reasons.push(`StorageClass "${effective.name}"${own.set ? '' : ' (the default class)'} has provisioner ${NO_PROVISIONER}`);
        staticOnly = true;
      } else if (own.set && lookup.status !== 'found') {
        // A class only PersistentVolumes name (the "manual" of the Kubernetes docs) is a label for static binding: no
        // StorageClass object stands behind it in the repo, so the claim is written for one of those PVs.
        const labelled = model.ofKind('PersistentVolume').find((pv) => model.classOfVolume(pv.object) === own.name);
        if (labelled) reasons.push(`StorageClass "${own.name}" is not in the repo, but PersistentVolume "${labelled.name}" carries that class`);
      }
    }
  }
  const selector = pvc.object?.spec?.selector != null && typeof pvc.object.spec.selector === 'object';
  if (selector) reasons.push('it has a selector');
  const reserving = model.volumesReserving(pvc);
  if (reserving.length > 0) reasons.push(`PersistentVolume "${reserving[0].name}" reserves it through claimRef`);
  return reasons.length > 0 ? { reasons, staticOnly, selector } : undefined;
}

/**
 * Indexes for takenByOthers, built once per scope: claims by the volumeName they set, the claims that take whatever
 * PV matches them (no volumeName, no PV reserved for them), and per PV (on first need) those of them that match it.
 */
interface Takers {
  byVolumeName: Map<string, Resource[]>;
  free: Resource[];
  freeMatching: Map<Resource, Resource[]>;
}

function takersOf(model: StorageModel): Takers {
  const byVolumeName = new Map<string, Resource[]>();
  const free: Resource[] = [];
  for (const claim of model.claimsOf()) {
    const volumeName = claim.object?.spec?.volumeName;
    if (typeof volumeName === 'string' && volumeName !== '') {
      const list = byVolumeName.get(volumeName);
      if (list) list.push(claim);
      else byVolumeName.set(volumeName, [claim]);
      continue;
    }
    if (model.volumesClaiming(model.namespaceOf(claim) ?? model.defaultNamespace, claim.name).length > 0) continue;
    free.push(claim);
  }
  return { byVolumeName, free, freeMatching: new Map() };
}

/** PVs another claim in the repo takes: reserved for it by claimRef, named by its volumeName, or matching it (when it has no PV of its own). */
function takenByOthers(model: StorageModel, takers: Takers, pvc: Resource): (pv: Resource) => boolean {
  const samePvc = (other: Resource) =>
    other === pvc || (other.name === pvc.name && model.namespaceOf(other) === model.namespaceOf(pvc));
  return (pv) => {
    if (takers.byVolumeName.get(pv.name)?.some((other) => other !== pvc)) return true;
    const ref = pv.object?.spec?.claimRef;
    if (ref && typeof ref === 'object' && ref.name != null) {
      const target = model.lookupClaim(String(ref.namespace ?? ''), String(ref.name));
      if (target.status === 'found' && !(target.value.kind === 'pvc' && samePvc(target.value.resource))) return true;
    }
    // A claim with volumeName, or with a PV reserved for it, takes that PV rather than this one.
    let matching = takers.freeMatching.get(pv);
    if (!matching) {
      matching = takers.free.filter((other) => model.matchVolumeToClaim(other, pv).mismatches.length === 0);
      takers.freeMatching.set(pv, matching);
    }
    return matching.some((other) => !samePvc(other));
  };
}

/** Closest first: the PV reserved for this claim, then one reserved for its name elsewhere, then free PVs, fewest reasons first. */
function rank(verdict: VolumeVerdict): number {
  const group = verdict.preBound ? 0 : verdict.mismatches.some((m) => m.reason === 'namespace') ? 1 : verdict.mismatches.some((m) => m.reason === 'claim-ref') ? 3 : 2;
  return group * 100 + verdict.mismatches.length;
}

export default defineRule({
  id: 'pv-pvc-static-mismatch',
  meta: {
    catalogueId: 'R01',
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass'],
    summary: 'A claim that can only bind a pre-created PersistentVolume matches none of the PersistentVolumes in the repo.',
    why:
      'The PV controller binds a claim without volumeName to an existing PV only when the PV offers every requested ' +
      'access mode, has at least the requested capacity, the same volumeMode (unset = Filesystem), is not being ' +
      'deleted and not reserved for another claim, and — unless its claimRef already names this claim — has the same ' +
      'storage class and labels that satisfy the claim\'s selector. A claim with class "", a no-provisioner class or a ' +
      'selector cannot be provisioned dynamically, so when nothing matches it stays Pending forever: no error, the ' +
      'controller just retries ("Claims will remain unbound indefinitely if a matching volume does not exist").',
    trigger:
      'A PVC without `spec.volumeName` that expects a static PV — `storageClassName: ""` (or the beta annotation) set ' +
      'explicitly, an effective class in the repo with provisioner kubernetes.io/no-provisioner, a `spec.storageClassName` ' +
      'that no StorageClass in the repo defines but a PersistentVolume in the repo carries (a static-binding label such as ' +
      '`manual`), a `spec.selector`, or a ' +
      'PV in the repo whose claimRef names it — while no PV in the repo can bind it. The finding names the closest PV ' +
      'and its first failing check as a reason code: access-modes, claim-ref, namespace, capacity, volume-mode, deleted, ' +
      'selector, class. A PV whose claimRef names the claim is checked for access modes, capacity, volume mode and ' +
      'deletion only. Error when the class is "" or no-provisioner, or the bundle is declared complete; warning ' +
      'otherwise (a matching PV may exist in the cluster, or a provisioner may create one).',
    exceptions:
      'Silent when the repo has no PersistentVolume at all, or none that could be meant for this claim: PVs reserved ' +
      'by claimRef for another claim in the repo, named by another claim\'s volumeName, or matching another claim are ' +
      'not candidates (a PV reserved for a claim that is not in the repo is one only if nothing else fails). Claims with ' +
      '`volumeName` are R02\'s, StatefulSet volumeClaimTemplates are not checked, and PV nodeAffinity is not ' +
      'evaluated here (R06). Capacities that do not parse as quantities are not compared.',
    fix:
      'Align the field the reason code names, on the claim or on the PV. When a claim without storageClassName should ' +
      'bind a PV without class, set `storageClassName: ""` explicitly, otherwise the default class is set on it. ' +
      'Reserve the PV for the claim with `claimRef` (name and namespace) to avoid other claims taking it.',
    reportsAt: 'The claim\'s field that fails (`spec.accessModes`, `spec.resources.requests.storage`, `spec.volumeMode`, `spec.storageClassName`, the failing selector requirement, `metadata.namespace` or `metadata.name`); the PV\'s field is the related location.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Binding"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#binding' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reserving a PersistentVolume"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reserving-a-persistentvolume' },
      { title: 'Kubernetes docs: Persistent Volumes, PVC "Class"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#class-1' },
      { title: 'kubernetes pv_helpers.go (FindMatchingVolume, IsVolumeBoundToClaim, CheckVolumeModeMismatches)', url: 'https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/storage/volume/pv_helpers.go' },
      { title: 'kubernetes PV controller index.go (findBestMatchForClaim, allPossibleMatchingAccessModes)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/index.go' },
      { title: 'kubernetes pv_controller.go (syncUnboundClaim)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/pv_controller.go' },
    ],
    messages: {
      noMatch: (d: {
        claim: string; namespace: string; expectation: string; pv: string; reason: string; detail: string;
        also: string; hint: string; outcome: string;
      }) =>
        `PersistentVolumeClaim "${d.claim}" in namespace "${d.namespace}" expects a pre-created PersistentVolume (${d.expectation}), ` +
        `but no PersistentVolume in the repo can bind it; the closest, PersistentVolume "${d.pv}", fails [${d.reason}]: ${d.detail}` +
        `${d.also ? ` (also: ${d.also})` : ''}. ${d.outcome}${d.hint ? ` ${d.hint}` : ''}`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: nfs-share}
spec:
  storageClassName: ""
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteMany]
  nfs: {server: 10.0.0.2, path: /exports/share}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: share, namespace: apps}
spec:
  storageClassName: ""
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 20Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: nfs-share}
spec:
  storageClassName: ""
  capacity: {storage: 20Gi}
  accessModes: [ReadWriteMany]
  claimRef: {name: share, namespace: apps}
  nfs: {server: 10.0.0.2, path: /exports/share}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: share, namespace: apps}
spec:
  storageClassName: ""
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 20Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const volumes = model.ofKind('PersistentVolume');
    if (volumes.length === 0) return;
    let takers: Takers | undefined;
    for (const pvc of model.claimsOf()) {
      const volumeName = pvc.object?.spec?.volumeName;
      if (typeof volumeName === 'string' && volumeName !== '') continue;
      const namespace = model.namespaceOf(pvc) ?? model.defaultNamespace;
      const expects = expectation(model, pvc, namespace);
      if (!expects) continue;

      const verdicts = volumes.map((pv) => model.matchVolumeToClaim(pvc, pv));
      if (verdicts.some((v) => v.mismatches.length === 0)) continue;

      takers ??= takersOf(model);
      const taken = takenByOthers(model, takers, pvc);
      const candidates = verdicts.filter((v) => {
        if (v.preBound) return true;
        if (taken(v.pv)) return false;
        // A PV reserved for a claim that is not in the repo: a typo in its claimRef, if nothing else fails.
        const reasons = v.mismatches.map((m) => m.reason);
        return !reasons.includes('claim-ref') || reasons.length === 1;
      });
      if (candidates.length === 0) continue;
      // The candidate written nearest the claim (its own sample directory), then the best ranked: a PV of an unrelated
      // sample directory is never the "closest candidate" when one sits beside the claim.
      const near = new Set(nearestDefinitions(candidates.map((v) => v.pv), pvc));
      const closest = candidates.filter((v) => near.has(v.pv)).reduce((best, v) => (rank(v) < rank(best) ? v : best));
      const [first, ...others] = closest.mismatches;

      const own = model.classOfClaim(pvc.object);
      const effective = model.effectiveClassOfClaim(pvc.object);
      let hint = '';
      if (!own.set && effective.name !== undefined && effective.defaulted && closest.mismatches.some((m) => m.reason === 'class')) {
        const pvClass = model.classOfVolume(closest.pv.object);
        hint =
          `Set storageClassName: "${pvClass}" explicitly: without it the DefaultStorageClass admission plugin sets "${effective.name}" ` +
          'and the claim can only bind PersistentVolumes of that class.';
      }
      const complete = model.bundleComplete;
      const elsewhere = complete ? '' : ' unless a matching PersistentVolume exists outside the repo';
      const outcome = expects.staticOnly
        ? `The claim stays Pending${elsewhere}.`
        : expects.selector
          ? `A claim with a selector is never provisioned dynamically, so it stays Pending${elsewhere}.`
          : 'The claim will not bind it: it stays Pending or, if its StorageClass provisions volumes, gets a new empty volume instead.';

      report({
        resource: pvc,
        path: first.claimPath,
        messageId: 'noMatch',
        severity: complete || expects.staticOnly ? 'error' : 'warning',
        data: {
          claim: pvc.name, namespace, expectation: expects.reasons.join('; '), pv: closest.pv.name,
          reason: first.reason, detail: first.detail,
          also: others.map((m) => `[${m.reason}] ${m.detail}`).join('; '),
          hint, outcome,
        },
        related: [{ resource: closest.pv, path: first.volumePath, message: `PersistentVolume "${closest.pv.name}" (closest candidate)` }],
      });
    }
  },
});
