// A pod's zone nodeSelector / node affinity excludes every topology its claim's StorageClass may provision in.
import { defineRule } from '../src/define-rule.js';
import { type ClaimObject } from '../src/model/claim-objects.js';
import { podNodeTerms, requirement, termsConflict, type ConflictStrength, type NodeTerm } from '../src/model/node-selector.js';
import type { PodTemplate } from '../src/model/pod-templates.js';
import type { StorageModel } from '../src/model/storage-model.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';

const SEVERITY: Record<ConflictStrength, Severity> = { proven: 'error', hostname: 'warning', alias: 'note' };
const HOW: Record<ConflictStrength, string> = {
  proven: '',
  hostname: ' (assuming the node\'s kubernetes.io/hostname label equals its name)',
  alias: ' (the two use different zone label keys, which normally carry the same value)',
};

/** `allowedTopologies` as node terms: TopologySelectorTerms are ORed, their matchLabelExpressions ANDed `In` requirements. */
export function allowedTopologyTerms(storageClass: Resource): NodeTerm[] | undefined {
  const list = storageClass.object?.allowedTopologies;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const terms: NodeTerm[] = [];
  list.forEach((term: any, i: number) => {
    const expressions = Array.isArray(term?.matchLabelExpressions) ? term.matchLabelExpressions : [];
    const requirements = expressions
      .map((e: any, j: number) => (e && typeof e.key === 'string' && Array.isArray(e.values)
        ? requirement(e.key, 'In', e.values.map(String), ['allowedTopologies', i, 'matchLabelExpressions', j])
        : undefined))
      .filter(Boolean);
    if (requirements.length > 0) terms.push(requirements);
  });
  return terms.length > 0 ? terms : undefined;
}

interface Use {
  template: PodTemplate;
  /** Where the workload brings the claim in (claimName, claim template). */
  path: JsonPath;
}

function usesOf(model: StorageModel, claim: ClaimObject): Use[] {
  if (claim.origin !== 'pvc') {
    if (!claim.template) return [];
    return [{ template: claim.template, path: claim.claimTemplate ? [...claim.claimTemplate.path, 'metadata', 'name'] : claim.path }];
  }
  return model.usesOfClaim(claim.namespace, claim.claimName).map((u) => ({ template: u.template, path: [...u.volume.path, 'persistentVolumeClaim', 'claimName'] }));
}

export default defineRule({
  id: 'storageclass-topology-conflict',
  meta: {
    severity: 'error',
    severities: ['warning', 'note'],
    kinds: ['StorageClass', 'PersistentVolumeClaim', 'PersistentVolume', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A pod\'s zone nodeSelector or node affinity excludes every topology its claim\'s StorageClass allowedTopologies may provision in.',
    why:
      '`allowedTopologies` restricts where a StorageClass may provision volumes. With WaitForFirstConsumer the scheduler only ' +
      'places a pod with an unbound claim on a node inside those topologies; if the pod itself requires a zone outside them, no ' +
      'node fits both and the pod stays Pending. With Immediate binding the volume is created in an allowed zone first, and the ' +
      'pod, which may not run there, stays Pending with a volume node affinity conflict.',
    trigger:
      'A claim (a PersistentVolumeClaim in the repo, a StatefulSet claim template or a generic ephemeral volume) not bound to a ' +
      'PersistentVolume in the repo, whose StorageClass (in the repo or declared in `cluster.storageClasses`) sets ' +
      '`allowedTopologies`, used by a pod template whose nodeSelector / required node affinity cannot be satisfied together with any ' +
      'allowed topology term: both require the same label key with disjoint values. Error for the same key; a note when the ' +
      'two sides use different zone keys (topology.kubernetes.io/zone and a CSI driver\'s zone key), which normally hold the same zone names.',
    exceptions:
      'Claims bound to a PersistentVolume in the repo (pv-node-affinity-conflict compares the PV\'s nodeAffinity instead), ' +
      'classes without allowedTopologies, pods without a required placement, and different label keys that are not known ' +
      'aliases are not reported. Preferred (soft) affinity never conflicts. When the scope defines the class several times with ' +
      'different allowedTopologies (a repository of samples), only a definition in the claim\'s own file is compared.',
    fix:
      'Make the pod\'s zone requirement and the class\'s allowedTopologies overlap: add the pod\'s zone to allowedTopologies, move ' +
      'the pod to an allowed zone, or use a StorageClass for that zone.',
    reportsAt: 'The pod\'s conflicting placement requirement; the StorageClass\'s allowedTopologies entry and the claim are related.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Allowed topologies"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#allowed-topologies' },
      { title: 'Kubernetes docs: Storage Classes, "Volume binding mode"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#volume-binding-mode' },
      { title: 'Kubernetes API: StorageClass (allowedTopologies restrict the node topologies where volumes can be dynamically provisioned)', url: 'https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/storage-class-v1/' },
    ],
    messages: {
      conflict: (d: { kind: string; workload: string; podRequirement: string; claim: string; storageClass: string; allowed: string; how: string }) =>
        `${d.kind} "${d.workload}" requires ${d.podRequirement}, but its ${d.claim} is provisioned by StorageClass "${d.storageClass}", whose ` +
        `allowedTopologies require ${d.allowed}${d.how}: no node satisfies both, so the pods stay Pending.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3-1a}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions:
      - {key: topology.kubernetes.io/zone, values: [eu-west-1a]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache, namespace: web}
spec:
  storageClassName: gp3-1a
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cache, namespace: web}
spec:
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: eu-west-1b}
      containers: [{name: cache, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: cache}}]
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3-1a}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions:
      - {key: topology.kubernetes.io/zone, values: [eu-west-1a, eu-west-1b]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache, namespace: web}
spec:
  storageClassName: gp3-1a
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: cache, namespace: web}
spec:
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      nodeSelector: {topology.kubernetes.io/zone: eu-west-1b}
      containers: [{name: cache, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: cache}}]
`,
      ],
    },
  },
  check({ model, report }) {
    const seen = new Set<string>();
    for (const claim of model.claimObjects()) {
      const spec = claim.object?.spec;
      if (!spec || typeof spec !== 'object') continue;
      if (typeof spec.volumeName === 'string' && spec.volumeName !== '') continue;
      if (claim.origin === 'pvc' && model.boundVolumeOf(claim.resource)) continue;
      const effective = model.effectiveClassOfClaim(claim.object);
      if (!effective.name) continue;
      const lookup = model.storageClassFor(effective.name, claim.resource);
      if (lookup.status !== 'found') continue;
      const storageClass = lookup.value;
      const allowed = allowedTopologyTerms(storageClass);
      if (!allowed) continue;
      // A class written several times with different topologies (a repo of samples): only the claim's own file decides.
      const variants = model.classesNamed(effective.name);
      const sameTopology = (other: Resource) => JSON.stringify(other.object?.allowedTopologies ?? null) === JSON.stringify(storageClass.object?.allowedTopologies ?? null);
      if (variants.length > 1 && !variants.every(sameTopology) && storageClass.file.path !== claim.resource.file.path) continue;
      for (const use of usesOf(model, claim)) {
        const podTerms = podNodeTerms(use.template);
        if (!podTerms) continue;
        const conflict = termsConflict(podTerms, allowed);
        if (!conflict) continue;
        const key = `${use.template.workload.id}|${storageClass.name}|${claim.claimName}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const workload = use.template.workload;
        report({
          resource: workload,
          path: conflict.first.a.path,
          messageId: 'conflict',
          severity: SEVERITY[conflict.strength],
          data: {
            kind: use.template.kind, workload: workload.name, podRequirement: conflict.first.a.text, claim: claim.label,
            storageClass: storageClass.name, allowed: conflict.first.b.text, how: HOW[conflict.strength],
          },
          related: [
            { resource: storageClass, path: conflict.first.b.path, message: `allowedTopologies of StorageClass "${storageClass.name}"` },
            { resource: workload === claim.resource ? workload : claim.resource, path: workload === claim.resource ? use.path : ['spec', 'storageClassName'], message: claim.label },
          ],
        });
      }
    }
  },
});
