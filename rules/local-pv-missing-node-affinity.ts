// R07: a `local` PersistentVolume without node affinity is rejected; one that binds immediately pins pods blindly.
import { defineRule } from '../src/define-rule.js';

const ALPHA_ANNOTATION = 'volume.alpha.kubernetes.io/node-affinity';

export default defineRule({
  id: 'local-pv-missing-node-affinity',
  meta: {
    catalogueId: 'R07',
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolume'],
    summary: 'A local PersistentVolume without spec.nodeAffinity is rejected by the API server; one whose class binds immediately ties claims to an arbitrary node.',
    why:
      'A `local` volume is a disk or directory of one node, so the API requires the PV to say which node: validation ' +
      'rejects it with "spec.nodeAffinity: Required value: Local volume requires node affinity". The alpha annotation ' +
      'volume.alpha.kubernetes.io/node-affinity that early versions read no longer counts. Local PVs should also be used ' +
      'through a WaitForFirstConsumer class: with immediate binding (no class, or an Immediate class) the PV controller ' +
      'binds a claim to any matching local PV before the pod is scheduled, which then forces the pod onto that node ' +
      'whatever its other constraints and resources.',
    trigger:
      'A PersistentVolume with `spec.local` and no `spec.nodeAffinity.required` (error). A local PV not reserved by ' +
      '`claimRef` whose class is "" or a StorageClass in the repo whose volumeBindingMode is not WaitForFirstConsumer ' +
      '(warning) — unless that class\'s provisioner is node-local, where storageclass-immediate-topology reports the class.',
    exceptions:
      'Other volume sources (hostPath has no such requirement). A PV reserved for a claim by claimRef is bound to it ' +
      'anyway, so its binding mode is not reported; nor is a class that is not in the repo.',
    fix:
      'Add `spec.nodeAffinity.required.nodeSelectorTerms` selecting the node (`kubernetes.io/hostname In [<node>]`), and ' +
      'use a StorageClass with `provisioner: kubernetes.io/no-provisioner` and `volumeBindingMode: WaitForFirstConsumer`.',
    reportsAt: 'The PV\'s `spec` (where nodeAffinity belongs) or its `storageClassName`.',
    references: [
      { title: 'Kubernetes docs: Volumes, "local"', url: 'https://kubernetes.io/docs/concepts/storage/volumes/#local' },
      { title: 'Kubernetes docs: Persistent Volumes, "Node Affinity"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#node-affinity' },
      { title: 'Kubernetes docs: Storage Classes, "Local"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#local' },
      { title: 'kubernetes validation.go (ValidatePersistentVolumeSpec: "Local volume requires node affinity")', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go' },
    ],
    messages: {
      missingAffinity: (d: { pv: string; annotation: boolean }) =>
        `PersistentVolume "${d.pv}" is a local volume without spec.nodeAffinity.required` +
        (d.annotation ? ` (the ${ALPHA_ANNOTATION} annotation is no longer read)` : '') +
        '; the API server rejects it with "Local volume requires node affinity".',
      immediateBinding: (d: { pv: string; how: string }) =>
        `Local PersistentVolume "${d.pv}" ${d.how}, so a claim binds it as soon as it is created, before its pod is scheduled; ` +
        'the pod is then forced onto this volume\'s node even when it does not fit there.',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: ssd-node1}
spec:
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local-ssd
  local: {path: /mnt/disks/ssd1}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-ssd}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: ssd-node1}
spec:
  capacity: {storage: 100Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: local-ssd
  local: {path: /mnt/disks/ssd1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions:
            - {key: kubernetes.io/hostname, operator: In, values: [node1]}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local-ssd}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
`,
      ],
    },
  },
  check({ model, report }) {
    for (const pv of model.ofKind('PersistentVolume')) {
      const spec = pv.object?.spec;
      if (!spec || typeof spec !== 'object' || !spec.local || typeof spec.local !== 'object') continue;
      const required = spec.nodeAffinity?.required;
      if (required == null || typeof required !== 'object') {
        report({
          resource: pv, path: ['spec', 'nodeAffinity'], messageId: 'missingAffinity',
          data: { pv: pv.name, annotation: pv.object?.metadata?.annotations?.[ALPHA_ANNOTATION] != null },
        });
      }
      const ref = spec.claimRef;
      if (ref && typeof ref === 'object' && ref.name != null) continue;
      const className = model.classOfVolume(pv.object);
      const classPath = pv.object?.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] != null
        ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class']
        : ['spec', 'storageClassName'];
      if (className === '') {
        report({
          resource: pv, path: classPath, messageId: 'immediateBinding', severity: 'warning',
          data: { pv: pv.name, how: 'has no storage class (claims with storageClassName "" bind without waiting for a pod)' },
        });
        continue;
      }
      const lookup = model.storageClassFor(className, pv);
      if (lookup.status !== 'found') continue;
      const mode = lookup.value.object?.volumeBindingMode;
      if (mode === 'WaitForFirstConsumer') continue;
      const provisioner = lookup.value.object?.provisioner;
      // storageclass-immediate-topology reports node-local classes themselves.
      if (typeof provisioner === 'string' && model.driverCapabilities(provisioner)?.capabilities.topology.kind === 'node') continue;
      report({
        resource: pv, path: classPath, messageId: 'immediateBinding', severity: 'warning',
        data: { pv: pv.name, how: `has StorageClass "${className}", whose volumeBindingMode is ${mode == null ? 'unset (Immediate)' : String(mode)}` },
        related: [{ resource: lookup.value, path: mode == null ? ['provisioner'] : ['volumeBindingMode'], message: `StorageClass "${className}"` }],
      });
    }
  },
});
