// R03: a PersistentVolume's claimRef reserves it for a claim it can never bind, or conflicts with another reservation.
import { defineRule } from '../src/define-rule.js';
import { asClaimResource, isPlaceholder, type ClaimObject } from '../src/model/claim-objects.js';
import type { JsonPath, Resource } from '../src/types.js';

const STATIC_CHECKS = new Set(['access-modes', 'capacity', 'volume-mode', 'deleted']);

function claimRefOf(pv: Resource): Record<string, any> | undefined {
  const ref = pv.object?.spec?.claimRef;
  return ref && typeof ref === 'object' && !Array.isArray(ref) ? ref : undefined;
}

const text = (value: unknown) => (value == null ? '' : String(value));

export default defineRule({
  id: 'pv-claimref-invalid',
  meta: {
    catalogueId: 'R03',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['PersistentVolume'],
    summary: 'A PersistentVolume\'s claimRef reserves it for a claim it can never bind, or for a claim another volume already takes.',
    why:
      'A PV whose `spec.claimRef` names a claim is reserved for that claim: the PV controller binds it only to a claim ' +
      'with that name and namespace (IsVolumeBoundToClaim compares both; a claim always has a namespace), and no other ' +
      'claim can take it. A reservation without namespace, for a claim that lives in another namespace, for a claim ' +
      'whose volumeName names a different PV, or for a claim whose size, volume mode or access modes the PV cannot ' +
      'satisfy is never fulfilled: the PV stays Available but unusable, and the claim stays Pending or binds elsewhere. ' +
      'Two PVs reserved for one claim leave one of them reserved forever.',
    trigger:
      'A PersistentVolume with `spec.claimRef` and (a) no `claimRef.name` or `claimRef.namespace` (error); (b) the claim ' +
      'is not in that namespace but a PVC of that name is in the repo in another namespace (a PVC written without a ' +
      'namespace counts as in the claimRef\'s: it lands wherever it is applied), or the claim\'s ' +
      '`spec.volumeName` names another PV (error); (c) another PV in the repo reserves the same claim (error); (d) the ' +
      'claim (a PVC or a StatefulSet claim template in the repo, without volumeName) requests more storage, another ' +
      'volumeMode or an access mode the PV lacks (error, the checks FindMatchingVolume makes even for a pre-bound PV); ' +
      '(e) `claimRef.kind` is not PersistentVolumeClaim or `claimRef.apiVersion` not v1 (warning). A claim that is not ' +
      'in the repo at all is a note (an error when the bundle is declared complete).',
    exceptions:
      'A claimRef with a `uid` is left to pv-claimref-stale-uid (the PV is Released at once, whatever else is wrong). ' +
      'A claim whose volumeName names this PV binds without capacity or mode checks, so (d) is not reported for it. ' +
      'Storage class and selector are not checked: a pre-bound PV skips them.',
    fix:
      'Set `claimRef.name` and `claimRef.namespace` of the claim (no uid, no resourceVersion), as in the Kubernetes docs ' +
      'sample; keep the claim\'s `volumeName` consistent with it, and size the PV for the claim\'s request.',
    reportsAt: 'The PV\'s `spec.claimRef` field at fault (`namespace`, `name`, `kind`), or the PV field that fails the claim (`spec.capacity.storage`, `spec.accessModes`, `spec.volumeMode`); related: the claim.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Reserving a PersistentVolume"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reserving-a-persistentvolume' },
      { title: 'kubernetes pv_helpers.go (IsVolumeBoundToClaim, FindMatchingVolume)', url: 'https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/storage/volume/pv_helpers.go' },
      { title: 'kubernetes pv_controller.go (syncVolume, syncUnboundClaim)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/pv_controller.go' },
    ],
    messages: {
      noNamespace: (d: { pv: string; claim: string; missing: string }) =>
        `PersistentVolume "${d.pv}" reserves itself for claim "${d.claim}" with a claimRef that has no ${d.missing}; ` +
        'the PV controller matches claimRef name and namespace against a real claim, so no claim ever binds it and it stays reserved.',
      otherNamespace: (d: { pv: string; claim: string; namespace: string; others: string }) =>
        `PersistentVolume "${d.pv}" is reserved for claim "${d.claim}" in namespace "${d.namespace}", but that claim is only in the repo in ${d.others}; ` +
        'the reservation is never fulfilled and the claim there cannot bind this PV.',
      otherVolume: (d: { pv: string; claim: string; namespace: string; volume: string }) =>
        `PersistentVolume "${d.pv}" is reserved for claim "${d.claim}" in namespace "${d.namespace}", but that claim sets volumeName "${d.volume}"; ` +
        'the claim binds only that PV, so this reservation is never fulfilled.',
      duplicate: (d: { pv: string; claim: string; namespace: string; other: string }) =>
        `PersistentVolume "${d.pv}" and PersistentVolume "${d.other}" are both reserved for claim "${d.claim}" in namespace "${d.namespace}"; ` +
        'a claim binds one volume, so one of them stays reserved and unusable.',
      unsatisfiable: (d: { pv: string; claim: string; detail: string; also: string }) =>
        `PersistentVolume "${d.pv}" is reserved for ${d.claim}, but ${d.detail}${d.also ? ` (also: ${d.also})` : ''}; ` +
        'the PV controller checks size, volume mode and access modes even for a reserved PV, so it never binds them: the claim stays Pending or gets another volume.',
      claimAbsent: (d: { pv: string; claim: string; namespace: string; complete: boolean }) =>
        `PersistentVolume "${d.pv}" is reserved for claim "${d.claim}" in namespace "${d.namespace}", which ${d.complete ? 'does not exist' : 'is not in the repo'}; ` +
        `${d.complete ? 'the PV stays reserved and unusable' : 'if no such claim is created, the PV stays reserved and unusable'}.`,
      wrongKind: (d: { pv: string; field: string; value: string; expected: string }) =>
        `PersistentVolume "${d.pv}" has claimRef.${d.field} "${d.value}"; a PersistentVolume can only be claimed by a ${d.expected}.`,
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: reports-pv}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  claimRef: {name: reports}
  nfs: {server: 10.0.0.5, path: /reports}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: reports-pv}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  claimRef: {name: reports, namespace: finance}
  nfs: {server: 10.0.0.5, path: /reports}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: reports, namespace: finance}
spec:
  storageClassName: ""
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const firstReserving = new Map<string, Resource>();
    const templates = model.claimObjects().filter((c) => c.origin === 'claim-template');
    const seen = new Set<string>();

    for (const pv of model.ofKind('PersistentVolume')) {
      const ref = claimRefOf(pv);
      if (!ref) continue;
      const refPath: JsonPath = ['spec', 'claimRef'];
      if (ref.kind != null && text(ref.kind) !== 'PersistentVolumeClaim') {
        report({ resource: pv, path: [...refPath, 'kind'], messageId: 'wrongKind', severity: 'warning', data: { pv: pv.name, field: 'kind', value: text(ref.kind), expected: 'PersistentVolumeClaim' } });
      } else if (ref.apiVersion != null && text(ref.apiVersion) !== 'v1') {
        report({ resource: pv, path: [...refPath, 'apiVersion'], messageId: 'wrongKind', severity: 'warning', data: { pv: pv.name, field: 'apiVersion', value: text(ref.apiVersion), expected: 'PersistentVolumeClaim of apiVersion v1' } });
      }
      const name = text(ref.name);
      const namespace = text(ref.namespace);
      if (name === '' || namespace === '') {
        report({
          resource: pv, path: [...refPath, name === '' ? 'name' : 'namespace'], messageId: 'noNamespace',
          data: { pv: pv.name, claim: name || '(none)', missing: name === '' && namespace === '' ? 'name and no namespace' : name === '' ? 'name' : 'namespace' },
        });
        continue;
      }
      if (ref.uid != null && text(ref.uid) !== '') continue; // pv-claimref-stale-uid
      if (isPlaceholder(name) || isPlaceholder(namespace)) continue;
      // The same PV written twice in one scope (overlays side by side) is one reservation.
      const pvKey = `${pv.name}→${namespace}/${name}`;
      if (seen.has(pvKey)) continue;
      seen.add(pvKey);

      const claimKey = `${namespace}/${name}`;
      const first = firstReserving.get(claimKey);
      if (first && first.name !== pv.name) {
        report({
          resource: pv, path: [...refPath, 'name'], messageId: 'duplicate', data: { pv: pv.name, claim: name, namespace, other: first.name },
          related: [{ resource: first, path: refPath, message: `PersistentVolume "${first.name}" reserves the same claim` }],
        });
        continue;
      }
      firstReserving.set(claimKey, pv);

      // A PVC of that name written without a namespace is created in the namespace it is applied to: it may be this one.
      const floating = model.claimsNamed(name).find((pvc) => pvc.namespace === undefined);
      const found = model.lookupClaim(namespace, name);
      const lookup: typeof found = found.status !== 'found' && floating ? { status: 'found', value: { kind: 'pvc', resource: floating } } : found;
      if (lookup.status !== 'found') {
        const elsewhere = model.claimsNamed(name).filter((pvc) => model.namespaceOf(pvc) !== namespace);
        if (elsewhere.length > 0) {
          report({
            resource: pv, path: [...refPath, 'namespace'], messageId: 'otherNamespace',
            data: { pv: pv.name, claim: name, namespace, others: `namespace ${[...new Set(elsewhere.map((pvc) => `"${model.namespaceOf(pvc)}"`))].join(', ')}` },
            related: elsewhere.slice(0, 3).map((pvc) => ({ resource: pvc, path: ['metadata', 'namespace'], message: `PersistentVolumeClaim "${pvc.name}" in namespace "${model.namespaceOf(pvc)}"` })),
          });
        } else {
          report({
            resource: pv, path: [...refPath, 'name'], messageId: 'claimAbsent', severity: lookup.status === 'missing' ? 'error' : 'note',
            data: { pv: pv.name, claim: name, namespace, complete: lookup.status === 'missing' },
          });
        }
        continue;
      }

      let claim: ClaimObject | undefined;
      let claimResource: Resource;
      if (lookup.value.kind === 'pvc') {
        claimResource = lookup.value.resource;
        claim = model.claimObjects().find((c) => c.origin === 'pvc' && c.resource === claimResource);
      } else {
        const target = lookup.value;
        claim = templates.find((c) => c.resource === target.statefulSet && c.claimTemplate?.name === target.template);
        if (!claim) continue;
        claimResource = asClaimResource(claim, name);
      }
      const claimLabel = lookup.value.kind === 'pvc'
        ? `PersistentVolumeClaim "${name}" in namespace "${namespace}"`
        : `claim "${name}" of ${claim!.label}`;
      const volumeName = claimResource.object?.spec?.volumeName;
      const claimFieldResource = claim ? claim.resource : claimResource;
      const claimPrefix: JsonPath = claim ? claim.path : [];
      if (typeof volumeName === 'string' && volumeName !== '') {
        if (volumeName === pv.name) continue; // bound both ways: no further checks.
        report({
          resource: pv, path: [...refPath, 'name'], messageId: 'otherVolume', data: { pv: pv.name, claim: name, namespace, volume: volumeName },
          related: [{ resource: claimFieldResource, path: [...claimPrefix, 'spec', 'volumeName'], message: `${claimLabel} names PersistentVolume "${volumeName}"` }],
        });
        continue;
      }
      const verdict = model.matchVolumeToClaim(claimResource, pv);
      const failures = verdict.mismatches.filter((m) => STATIC_CHECKS.has(m.reason));
      if (failures.length === 0) continue;
      const [firstFailure, ...others] = failures;
      report({
        resource: pv, path: firstFailure.volumePath, messageId: 'unsatisfiable',
        data: { pv: pv.name, claim: claimLabel, detail: firstFailure.detail, also: others.map((m) => m.detail).join('; ') },
        related: [{ resource: claimFieldResource, path: [...claimPrefix, ...firstFailure.claimPath], message: claimLabel }],
      });
    }
  },
});
