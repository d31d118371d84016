// R02: a claim pre-bound with `spec.volumeName` to a PersistentVolume that cannot take it.
import { defineRule } from '../src/define-rule.js';
import { type Mismatch, type MismatchReason } from '../src/model/binding.js';
import { asClaimResource, claimCopies, claimPath, claimTemplateNames, isPlaceholder, type ClaimObject } from '../src/model/claim-objects.js';
import type { Lookup, StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource } from '../src/types.js';

/** checkVolumeSatisfyClaim's checks, in its order, with the event text each failure produces. */
const SATISFY: readonly [MismatchReason, string][] = [
  ['deleted', 'the volume is marked for deletion'],
  ['capacity', 'requested PV is too small'],
  ['class', 'storageClassName does not match'],
  ['volume-mode', 'incompatible volumeMode'],
  ['access-modes', 'incompatible accessMode'],
];

function volumeNameOf(claim: ClaimObject): string | undefined {
  const value = claim.object?.spec?.volumeName;
  return typeof value === 'string' && value !== '' && !isPlaceholder(value) ? value : undefined;
}

/** The PVC names this claim object stands for (a StatefulSet template: one per replica). */
function namesOf(claim: ClaimObject): string[] {
  if (claim.origin === 'claim-template') return claimTemplateNames(claim);
  return [claim.claimName];
}

/** Who a PV's claimRef reserves the volume for, and whether that is this claim. */
function reservation(pv: Resource, claim: ClaimObject): { ref: any; mine: boolean; text: string } | undefined {
  const ref = pv.object?.spec?.claimRef;
  if (!ref || typeof ref !== 'object') return undefined;
  const name = String(ref.name ?? '');
  const namespace = ref.namespace == null ? '' : String(ref.namespace);
  // A claim written without a namespace is created in the namespace it is applied to, which may be the claimRef's.
  const sameNamespace = namespace === claim.namespace || claim.resource.namespace === undefined;
  const mine = sameNamespace && namesOf(claim).includes(name);
  return { ref, mine, text: `claim "${name}"${namespace ? ` in namespace "${namespace}"` : ' without a namespace'}` };
}

function identity(claim: ClaimObject): string {
  return claim.origin === 'pvc' ? `pvc/${claim.namespace}/${claim.claimName}` : `${claim.resource.id}#${claim.path.join('.')}`;
}

function satisfyFailures(model: StorageModel, claim: ClaimObject, pv: Resource): (Mismatch & { event: string })[] {
  const verdict = model.matchVolumeToClaim(asClaimResource(claim), pv);
  const failures: (Mismatch & { event: string })[] = [];
  for (const [reason, event] of SATISFY) {
    const mismatch = verdict.mismatches.find((m) => m.reason === reason);
    if (mismatch) failures.push({ ...mismatch, event });
  }
  return failures;
}

export default defineRule({
  id: 'pvc-volumename-unsatisfiable',
  meta: {
    catalogueId: 'R02',
    severity: 'error',
    severities: ['warning', 'note'],
    kinds: ['PersistentVolumeClaim', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A claim pre-bound with spec.volumeName to a PersistentVolume that cannot bind it stays Pending forever.',
    why:
      'A claim with `spec.volumeName` binds only that PersistentVolume. When the PV has no claimRef, the PV controller ' +
      'first checks it (checkVolumeSatisfyClaim): not being deleted, capacity at least the request, the same storage class ' +
      '(a claim without storageClassName gets the default class at creation), the same volumeMode, and every requested ' +
      'access mode. A failure gives the Warning event VolumeMismatch "Cannot bind to requested volume …" and the claim ' +
      'stays Pending, retried forever. When the PV\'s claimRef names another claim, the controller reports FailedBinding ' +
      '"already bound to a different claim." — and since a PV binds exactly one claim, two claims naming the same PV ' +
      'cannot both bind. Label selectors and PV node affinity are not evaluated on this path.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral volume claim template with ' +
      '`spec.volumeName` X, when PersistentVolume X is in the repo and either its `claimRef` names another claim (name and ' +
      'namespace), or it has no claimRef and fails one of deletion, capacity, class, volumeMode or access modes; also when ' +
      'two claims name the same X, or a template that creates several claims (a StatefulSet with replicas > 1, a ' +
      'Deployment\'s ephemeral volume) names one. A PV that is not in the repo is a note ("retried until it appears"), an ' +
      'error when the bundle is declared complete. A claim without storageClassName naming a PV without class, while ' +
      'the repo shows no default class, is a warning: it binds only on clusters without a default StorageClass, and most ' +
      'clusters have one (silent when the bundle is declared complete, which then shows there is none).',
    exceptions:
      'Silent when the PV\'s claimRef names this claim (a claim written without a namespace counts as in the claimRef\'s ' +
      'namespace: it lands wherever it is applied): the controller binds it without further checks. A claimRef that ' +
      'names this claim but carries a stale `uid` is pv-claimref-stale-uid\'s finding. Selector and PV nodeAffinity are ' +
      'not reported (the controller ignores them here). Claims without volumeName are pv-pvc-static-mismatch\'s.',
    fix:
      'Fix the field the finding names (on the claim or on the PV). When binding a PV without class, set ' +
      '`storageClassName: ""` explicitly on the claim, otherwise the default class is set on it; use the PV\'s class ' +
      'otherwise. Reserve the PV for the claim with `claimRef` (name and namespace) so no other claim takes it; give each ' +
      'replica its own PV instead of naming one PV in a template.',
    reportsAt: 'The claim\'s field that fails (`spec.resources.requests.storage`, `spec.storageClassName`, `spec.volumeMode`, `spec.accessModes`), or `spec.volumeName` itself; the PV\'s field is the related location.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Reserving a PersistentVolume"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reserving-a-persistentvolume' },
      { title: 'Kubernetes docs: Persistent Volumes, "Binding"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#binding' },
      { title: 'kubernetes pv_controller.go (syncUnboundClaim, checkVolumeSatisfyClaim)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/pv_controller.go' },
    ],
    messages: {
      mismatch: (d: { claim: string; volume: string; event: string; detail: string; also: string; hint: string }) =>
        `${d.claim} sets volumeName "${d.volume}", but PersistentVolume "${d.volume}" cannot take it: ${d.detail}` +
        `${d.also ? ` (also: ${d.also})` : ''}. The PV controller reports VolumeMismatch "Cannot bind to requested volume "${d.volume}": ${d.event}" and the claim stays Pending.` +
        (d.hint ? ` ${d.hint}` : ''),
      reserved: (d: { claim: string; volume: string; other: string }) =>
        `${d.claim} sets volumeName "${d.volume}", but PersistentVolume "${d.volume}" is reserved for ${d.other} by its claimRef; ` +
        `the PV controller reports FailedBinding "volume "${d.volume}" already bound to a different claim." and the claim stays Pending.`,
      shared: (d: { claim: string; volume: string; other: string }) =>
        `${d.claim} sets volumeName "${d.volume}", and so does ${d.other}: a PersistentVolume binds exactly one claim, ` +
        'so one of them stays Pending ("already bound to a different claim.").',
      replicas: (d: { claim: string; volume: string; copies: string }) =>
        `${d.claim} sets volumeName "${d.volume}", so ${d.copies} all name the same PersistentVolume; a PersistentVolume binds ` +
        'exactly one claim, so all but one stay Pending and their pods never start.',
      defaultTrap: (d: { claim: string; volume: string }) =>
        `${d.claim} sets volumeName "${d.volume}" but no storageClassName, and PersistentVolume "${d.volume}" has no class: on a cluster with a ` +
        'default StorageClass the admission plugin sets that class on the claim, and the PV controller then refuses the PV ' +
        '(VolumeMismatch "storageClassName does not match"). Set storageClassName: "" explicitly.',
      absent: (d: { claim: string; volume: string; complete: boolean }) =>
        `${d.claim} sets volumeName "${d.volume}", and PersistentVolume "${d.volume}" ${d.complete ? 'does not exist' : 'is not in the repo'}; ` +
        `the claim stays Pending${d.complete ? '' : ' until the PV exists'} (the controller retries silently).`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: archive-pv}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteOnce]
  nfs: {server: 10.0.0.5, path: /archive}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: archive, namespace: ops}
spec:
  storageClassName: ""
  volumeName: archive-pv
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 100Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: archive-pv}
spec:
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {name: archive, namespace: ops}
  nfs: {server: 10.0.0.5, path: /archive}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: archive, namespace: ops}
spec:
  storageClassName: ""
  volumeName: archive-pv
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 100Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    // Claims by the PV they name, each resolved to the definition written closest to it: in a repository of
    // independent samples, two samples' PVs of one name are two volumes, and their claims do not compete.
    const byVolume = new Map<Resource | string, { volumeName: string; lookup: Lookup<Resource>; claims: ClaimObject[] }>();
    for (const claim of model.claimObjects()) {
      const volume = volumeNameOf(claim);
      if (volume === undefined) continue;
      const lookup = model.volumeFor(volume, claim.resource);
      const groupKey = lookup.status === 'found' ? lookup.value : volume;
      const group = byVolume.get(groupKey);
      if (group) group.claims.push(claim);
      else byVolume.set(groupKey, { volumeName: volume, lookup, claims: [claim] });
    }

    for (const { volumeName, lookup, claims } of byVolume.values()) {
      const pv = lookup.status === 'found' ? lookup.value : undefined;
      // Distinct claims (a PVC written twice in one scope, e.g. overlays side by side, is one claim).
      const distinct = new Map<string, ClaimObject[]>();
      for (const claim of claims) {
        const key = identity(claim);
        const list = distinct.get(key);
        if (list) list.push(claim);
        else distinct.set(key, [claim]);
      }
      const groups = [...distinct.values()];
      const reservedFor = pv ? groups.find((group) => reservation(pv, group[0])?.mine) : undefined;
      const winner = reservedFor ?? groups[0];

      for (const group of groups) {
        for (const claim of group) checkClaim(claim, volumeName, pv, lookup.status, group === winner ? undefined : winner[0]);
      }
    }

    function checkClaim(claim: ClaimObject, volumeName: string, pv: Resource | undefined, status: 'found' | 'missing' | 'external', winner: ClaimObject | undefined): void {
      const volumePath = claimPath(claim, 'spec', 'volumeName');
      const base = { claim: claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : ''), volume: volumeName };
      const related = pv ? [{ resource: pv, path: ['metadata', 'name'] as JsonPath, message: `PersistentVolume "${pv.name}"` }] : [];

      if (claim.origin !== 'pvc') {
        const copies = claimCopies(claim);
        const perNode = claim.podCount?.kind === 'per-node';
        const names = claim.origin === 'claim-template' ? claimTemplateNames(claim) : [];
        if (perNode || (copies !== undefined && copies > 1) || (claim.origin === 'ephemeral' && claim.template?.kind !== 'Pod' && copies !== 0)) {
          const many = claim.origin === 'claim-template'
            ? `the claims of its ${copies} replicas (${names.slice(0, 2).join(', ')}${names.length > 2 ? ', …' : ''})`
            : perNode ? 'the claims of its pods (one per node)' : `the claims of its pods (one per pod${copies && copies > 1 ? `, ${copies} replicas` : ''})`;
          report({ resource: claim.resource, path: volumePath, messageId: 'replicas', data: { ...base, copies: many }, related });
          return;
        }
      }

      if (!pv) {
        report({
          resource: claim.resource, path: volumePath, messageId: 'absent',
          severity: status === 'missing' ? 'error' : 'note',
          data: { ...base, complete: status === 'missing' },
        });
        return;
      }

      const reserved = reservation(pv, claim);
      if (reserved) {
        if (reserved.mine) return; // bound without checks; a stale uid is R04's.
        report({
          resource: claim.resource, path: volumePath, messageId: 'reserved', data: { ...base, other: reserved.text },
          related: [{ resource: pv, path: ['spec', 'claimRef'], message: `claimRef of PersistentVolume "${pv.name}"` }],
        });
        return;
      }
      if (winner) {
        report({
          resource: claim.resource, path: volumePath, messageId: 'shared',
          data: { ...base, other: winner.label + (winner.origin === 'pvc' ? ` in namespace "${winner.namespace}"` : '') },
          related: [{ resource: winner.resource, path: claimPath(winner, 'spec', 'volumeName'), message: `${winner.label} also names it` }, ...related],
        });
        return;
      }

      const failures = satisfyFailures(model, claim, pv);
      if (failures.length === 0) {
        // The omitted-class trap: fine without a default class, broken on a cluster that has one.
        const own = model.classOfClaim(claim.object);
        // A warning, like pvc-default-class-skips-static-pv for the same admission step: clusters without a default class
        // are the exception, and a complete bundle without one is the only place the claim is known to keep no class.
        if (!own.set && !model.bundleComplete && model.effectiveClassOfClaim(claim.object).name === undefined && model.classOfVolume(pv.object) === '') {
          report({
            resource: claim.resource, path: claimPath(claim, 'spec', 'storageClassName'), messageId: 'defaultTrap', severity: 'warning',
            data: base, related,
          });
        }
        return;
      }
      const [first, ...others] = failures;
      let hint = '';
      const own = model.classOfClaim(claim.object);
      if (first.reason === 'class' && !own.set) {
        const effective = model.effectiveClassOfClaim(claim.object);
        if (effective.name !== undefined && effective.name !== '') {
          hint = `Without storageClassName the DefaultStorageClass admission plugin sets "${effective.name}" on the claim; set storageClassName: "${model.classOfVolume(pv.object)}" explicitly.`;
        }
      }
      report({
        resource: claim.resource,
        path: claimPath(claim, ...first.claimPath),
        messageId: 'mismatch',
        data: { ...base, event: first.event, detail: first.detail, also: others.map((m) => m.detail).join('; '), hint },
        related: [{ resource: pv, path: first.volumePath, message: `PersistentVolume "${pv.name}"` }],
      });
    }
  },
});
