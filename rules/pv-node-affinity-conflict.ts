// R06: a pod template's placement excludes every node its PersistentVolume's nodeAffinity allows.
import { defineRule } from '../src/define-rule.js';
import { nearestDefinitions } from '../src/model/claims.js';
import { podNodeTerms, termsConflict, volumeNodeTerms, type ConflictStrength, type NodeTerm } from '../src/model/node-selector.js';
import { statefulSetClaimName, WORKLOAD_KINDS, type PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';

const SEVERITY: Record<ConflictStrength, Severity> = { proven: 'error', hostname: 'warning', alias: 'note' };

const HOW: Record<ConflictStrength, string> = {
  proven: '',
  hostname: ' (assuming the node\'s kubernetes.io/hostname label equals its name, as it does unless kubelet overrides the hostname)',
  alias: ' (the two use different zone label keys, which normally carry the same value)',
};

interface VolumeUse {
  pv: Resource;
  terms: NodeTerm[];
  /** The workload field that brings the PV in (claimName, or the claim template's name). */
  path: JsonPath;
  claim: string;
}

/** The PVs in the repo a template's pods use, with their node affinity. */
function volumesOf(model: StorageModel, template: PodTemplate): VolumeUse[] {
  const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
  const result: VolumeUse[] = [];
  const add = (pv: Resource | undefined, path: JsonPath, claim: string) => {
    if (!pv || result.some((u) => u.pv.name === pv.name)) return;
    const terms = volumeNodeTerms(pv);
    if (terms) result.push({ pv, terms, path, claim });
  };
  for (const volume of template.volumes) {
    if (volume.claimName === undefined) continue;
    if (template.claimTemplates.some((t) => t.name === volume.name)) continue;
    const pvc = model.closestClaimDefinition(namespace, volume.claimName, template.workload);
    if (!pvc) continue;
    add(model.boundVolumeOf(pvc)?.pv, [...volume.path, 'persistentVolumeClaim', 'claimName'], `PersistentVolumeClaim "${volume.claimName}"`);
  }
  const written = model.podCount(template).replicas;
  const replicas = written.kind === 'count' ? Math.min(Math.max(written.count, 1), 100) : 1;
  for (const claimTemplate of template.claimTemplates) {
    for (let ordinal = 0; ordinal < replicas; ordinal++) {
      const name = statefulSetClaimName(claimTemplate.name, template.workload.name, ordinal);
      const pvc = model.closestClaimDefinition(namespace, name, template.workload);
      const pv = pvc ? model.boundVolumeOf(pvc)?.pv : nearestDefinitions(model.volumesClaiming(namespace, name), template.workload)[0];
      add(pv, [...claimTemplate.path, 'metadata', 'name'], `PersistentVolumeClaim "${name}"`);
    }
  }
  return result;
}

export default defineRule({
  id: 'pv-node-affinity-conflict',
  meta: {
    catalogueId: 'R06',
    severity: 'error',
    severities: ['note', 'warning'],
    kinds: ['PersistentVolume'],
    summary: 'A pod\'s node selector or node affinity excludes every node its PersistentVolume\'s nodeAffinity allows.',
    why:
      'A PersistentVolume with `spec.nodeAffinity` (local volumes, zonal disks, pre-provisioned PVs with a zone label) can ' +
      'only be used on the nodes it selects; the scheduler checks that for every pod (CheckNodeAffinity) and reports ' +
      '"node(s) had volume node affinity conflict". When the pod\'s own `nodeSelector`, required node affinity or ' +
      '`nodeName` allow only other nodes — or two of its volumes are pinned to different zones or nodes — no node fits ' +
      'and the pod stays Pending.',
    trigger:
      'A pod template whose volume uses a claim bound (by volumeName or a PV claimRef, StatefulSet claims by their ' +
      '`<template>-<statefulset>-<ordinal>` names) to a PersistentVolume in the repo with `nodeAffinity.required`, when ' +
      'every term of the pod\'s placement (nodeName, nodeSelector and required node affinity, ANDed) and every term of ' +
      'the PV\'s nodeAffinity (ORed) require some key with disjoint values (In vs In without common value, In vs NotIn ' +
      'covering it, In/Exists vs DoesNotExist); or two PVs of the same pod conflict that way. Error when the same label ' +
      'key is involved; warning for a pod `nodeName` against a PV pinned by `kubernetes.io/hostname`; note when only ' +
      'different zone keys (topology.kubernetes.io/zone vs a driver\'s zone key) disagree.',
    exceptions:
      'Different label keys are never taken as a conflict (except the zone and hostname aliases above); Gt/Lt ' +
      'requirements are not compared; preferred affinity is ignored. Claims whose PV is not in the repo, dynamically ' +
      'provisioned claims (WaitForFirstConsumer places them with the pod) and generic ephemeral volumes are not checked.',
    fix:
      'Align the pod\'s nodeSelector / node affinity with the zone or host of the PersistentVolume (or move the data); ' +
      'for dynamically provisioned volumes use a WaitForFirstConsumer StorageClass so the volume follows the pod.',
    reportsAt: 'The pod\'s conflicting placement requirement (`nodeSelector` entry, node affinity expression or `nodeName`); for two conflicting PVs, the claim of the second. Related: the PV\'s nodeAffinity requirement.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Node Affinity"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#node-affinity' },
      { title: 'kubernetes pv_helpers.go (CheckNodeAffinity)', url: 'https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/component-helpers/storage/volume/pv_helpers.go' },
      { title: 'kube-scheduler VolumeBinding plugin ("node(s) had volume node affinity conflict")', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/volumebinding/volume_binding.go' },
      { title: 'Kubernetes docs: Storage Classes, "Volume binding mode"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#volume-binding-mode' },
    ],
    messages: {
      podConflict: (d: { kind: string; workload: string; podRequirement: string; pv: string; claim: string; pvRequirement: string; how: string }) =>
        `${d.kind} "${d.workload}" requires ${d.podRequirement}, but its ${d.claim} is bound to PersistentVolume "${d.pv}", whose nodeAffinity requires ${d.pvRequirement}${d.how}; ` +
        'no node satisfies both, so the pods stay Pending with "node(s) had volume node affinity conflict".',
      volumeConflict: (d: { kind: string; workload: string; pv: string; other: string; requirement: string; otherRequirement: string; how: string }) =>
        `${d.kind} "${d.workload}" uses PersistentVolume "${d.pv}" (nodeAffinity ${d.requirement}) and PersistentVolume "${d.other}" (nodeAffinity ${d.otherRequirement})${d.how}; ` +
        'no node can reach both, so the pods stay Pending with "node(s) had volume node affinity conflict".',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: db-disk}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  claimRef: {name: db-data, namespace: db}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0123456789abcdef0}
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions:
            - {key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1a]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-data, namespace: db}
spec:
  storageClassName: ""
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db, namespace: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: eu-west-1b}
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolume
metadata: {name: db-disk}
spec:
  capacity: {storage: 50Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  claimRef: {name: db-data, namespace: db}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-0123456789abcdef0}
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions:
            - {key: topology.kubernetes.io/zone, operator: In, values: [eu-west-1a]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-data, namespace: db}
spec:
  storageClassName: ""
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 50Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: db, namespace: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: eu-west-1a}
      containers: [{name: db, image: postgres, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: db-data}}]
`,
      ],
    },
  },
  check({ model, report }) {
    if (!model.hasKind('PersistentVolume')) return;
    for (const template of model.templates) {
      if (!(WORKLOAD_KINDS as readonly string[]).includes(template.kind)) continue;
      const uses = volumesOf(model, template);
      if (uses.length === 0) continue;
      const podTerms = podNodeTerms(template);
      const base = { kind: template.kind, workload: template.workload.name };
      let reported = false;
      if (podTerms) {
        for (const use of uses) {
          const conflict = termsConflict(podTerms, use.terms);
          if (!conflict) continue;
          reported = true;
          report({
            resource: template.workload,
            path: conflict.first.a.path,
            messageId: 'podConflict',
            severity: SEVERITY[conflict.strength],
            data: {
              ...base, podRequirement: conflict.first.a.path[conflict.first.a.path.length - 1] === 'nodeName' ? `node ${conflict.first.a.values[0]} (spec.nodeName)` : conflict.first.a.text,
              pv: use.pv.name, claim: use.claim, pvRequirement: conflict.first.b.text, how: HOW[conflict.strength],
            },
            related: [
              { resource: use.pv, path: conflict.first.b.path, message: `nodeAffinity of PersistentVolume "${use.pv.name}"` },
              { resource: template.workload, path: use.path, message: `${use.claim}` },
            ],
          });
        }
      }
      if (reported) continue;
      for (let i = 1; i < uses.length; i++) {
        for (let j = 0; j < i; j++) {
          const conflict = termsConflict(uses[j].terms, uses[i].terms);
          if (!conflict) continue;
          report({
            resource: template.workload,
            path: uses[i].path,
            messageId: 'volumeConflict',
            severity: SEVERITY[conflict.strength],
            data: {
              ...base, pv: uses[j].pv.name, other: uses[i].pv.name, requirement: conflict.first.a.text, otherRequirement: conflict.first.b.text,
              how: HOW[conflict.strength],
            },
            related: [
              { resource: uses[j].pv, path: conflict.first.a.path, message: `nodeAffinity of PersistentVolume "${uses[j].pv.name}"` },
              { resource: uses[i].pv, path: conflict.first.b.path, message: `nodeAffinity of PersistentVolume "${uses[i].pv.name}"` },
            ],
          });
          j = i; // one finding per volume
        }
      }
    }
  },
});
