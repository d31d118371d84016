// R13: a claim names a StorageClass the repo does not define.
import { defineRule } from '../src/define-rule.js';
import { claimPath, isPlaceholder } from '../src/model/claim-objects.js';
import { likelyMeant } from '../src/model/name-suggestions.js';
import type { StorageModel } from '../src/model/storage-model.js';
import { parseAllDocuments } from 'yaml';

/**
 * Classes managed platforms and local distributions create themselves, so no repository holds them: EKS (gp2), GKE
 * (standard, standard-rwo, premium-rwo, …), AKS (default, managed-csi, azurefile-csi, …), k3s (local-path), kind and
 * minikube (standard), Docker Desktop (hostpath), MicroK8s, DigitalOcean, Linode, OKE. A claim of one of them is a note
 * even in a cluster that defines classes of its own.
 */
const PLATFORM_CLASSES = new Set([
  'gp2', 'gp3',
  'standard', 'standard-rwo', 'premium-rwo', 'standard-rwx', 'premium-rwx', 'enterprise-rwx', 'enterprise-multishare-rwx', 'zonal-rwx',
  'default', 'managed', 'managed-premium', 'managed-csi', 'managed-csi-premium', 'azurefile', 'azurefile-premium',
  'azurefile-csi', 'azurefile-csi-premium', 'azureblob-nfs-premium', 'azureblob-fuse-premium',
  'local-path', 'hostpath', 'microk8s-hostpath',
  'do-block-storage', 'do-block-storage-xfs', 'do-block-storage-retain', 'linode-block-storage', 'linode-block-storage-retain',
  'oci-bv', 'oci',
]);

/** StorageClasses a chart ships inside a ConfigMap for its operator to create (Longhorn's `longhorn-storageclass`). */
function classesInConfigMaps(model: StorageModel): Set<string> {
  const names = new Set<string>();
  for (const configMap of model.ofKind('ConfigMap')) {
    const data = configMap.object?.data;
    if (!data || typeof data !== 'object') continue;
    for (const value of Object.values(data as Record<string, unknown>)) {
      if (typeof value !== 'string' || !/kind:\s*["']?StorageClass/.test(value)) continue;
      for (const doc of parseAllDocuments(value)) {
        if (!('toJS' in doc) || doc.errors.length > 0) continue;
        const object = doc.toJS() as any;
        if (object?.kind === 'StorageClass' && typeof object?.metadata?.name === 'string') names.add(object.metadata.name);
      }
    }
  }
  return names;
}

export default defineRule({
  id: 'pvc-unknown-storageclass',
  meta: {
    catalogueId: 'R13',
    severity: 'note',
    severities: ['error', 'warning'],
    kinds: ['PersistentVolumeClaim', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout', 'ConfigMap'],
    summary: 'A claim names a StorageClass that is not in the repo; if the cluster lacks it too, the claim stays Pending.',
    why:
      'A claim\'s class must exist for anything to provision it: the PV controller finds no class and no provisioner, ' +
      'and the claim waits for a PersistentVolume of that class that nobody creates ("storageclass … not found"), so it ' +
      'and every pod using it stay Pending. A typo in the class name fails the same way.',
    trigger:
      'A PersistentVolumeClaim, StatefulSet volumeClaimTemplate or generic ephemeral claim template whose class ' +
      '(`spec.storageClassName`, or the beta annotation that overrides it) is not empty and names no StorageClass in ' +
      'the scope. A note, since the cluster may provide the class (cloud defaults, classes installed by charts); an ' +
      'error when the bundle is declared complete; a warning in a GitOps cluster pvlint rendered whole (no HelmRelease ' +
      'or chart left unrendered) that defines StorageClasses of its own, unless the class is one a platform creates itself ' +
      '(EKS gp2, GKE standard-rwo, AKS managed-csi, k3s local-path, kind/minikube standard, …); a warning too when the name is ' +
      'a likely typo, with a suggestion as below. The message suggests a class ' +
      'one slip away (one edit in a name of 4–7 characters, two from 8; never one differing only in digits, like gp2 / gp3): ' +
      'a class of the repo, of the configuration (`cluster.storageClasses`) or of its PersistentVolumes, else a class ' +
      'name that more claims of the repo use (at least two).',
    exceptions:
      '`storageClassName: ""` (no class) and claims without a class are not this rule\'s (see pvc-classless-without-default); ' +
      'nor are class names that are still placeholders (Flux `${VAR}` substitutions). ' +
      'Silent when a PersistentVolume in the repo has that class: static binding needs no StorageClass object (like the ' +
      '`manual` class of the Kubernetes tutorials); and when a ConfigMap in the repo carries the StorageClass for an ' +
      'operator to create (the Longhorn chart\'s `longhorn-storageclass`).',
    fix: 'Correct the class name, or ship the StorageClass with the repo (or declare the cluster\'s classes as known).',
    reportsAt: 'The claim\'s `spec.storageClassName` (or the beta annotation).',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Class"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#class-1' },
      { title: 'Kubernetes docs: Dynamic Volume Provisioning', url: 'https://kubernetes.io/docs/concepts/storage/dynamic-provisioning/' },
      { title: 'kubernetes pv_controller.go (provisionClaim, findProvisionablePlugin)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/volume/persistentvolume/pv_controller.go' },
      { title: 'GKE docs: Using the Compute Engine persistent disk CSI driver (standard-rwo, premium-rwo)', url: 'https://cloud.google.com/kubernetes-engine/docs/how-to/persistent-volumes/gce-pd-csi-driver' },
      { title: 'AKS docs: Use the Azure Disk CSI driver (built-in classes managed-csi, managed-csi-premium)', url: 'https://learn.microsoft.com/azure/aks/azure-disk-csi' },
      { title: 'k3s docs: Volumes and Storage (local-path)', url: 'https://docs.k3s.io/storage' },
      { title: 'Longhorn chart: the longhorn-storageclass ConfigMap the manager turns into StorageClass "longhorn"', url: 'https://github.com/longhorn/longhorn/blob/master/chart/templates/storageclass.yaml' },
    ],
    messages: {
      unknown: (d: { claim: string; storageClass: string; complete: boolean; suggestion: string }) =>
        `${d.claim} uses StorageClass "${d.storageClass}", which ${d.complete ? 'does not exist' : 'is not in the repo'}` +
        `${d.suggestion ? ` (did you mean "${d.suggestion}"?)` : ''}; ${d.complete ? '' : 'if the cluster does not have it either, '}nothing provisions the claim and it stays Pending.`,
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-ssd}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  storageClassName: fast-sdd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast-ssd}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  storageClassName: fast-ssd
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const classNames = [...new Set(model.ofKind('StorageClass').map((c) => c.name))];
    const volumeClasses = new Set(model.ofKind('PersistentVolume').map((pv) => model.classOfVolume(pv.object)));
    // ConfigMaps are a deferred kind, parsed when asked for: only once a claim's class is not found otherwise.
    let shipped: Set<string> | undefined;
    const shippedInConfigMaps = () => (shipped ??= classesInConfigMaps(model));
    // Every class the environment is known to have: the repo's, the configuration's, those PVs and ConfigMaps name.
    let known: string[] | undefined;
    const knownClasses = () => (known ??= [...new Set([
      ...classNames, ...model.declaredClasses().map((c) => c.name), ...volumeClasses, ...shippedInConfigMaps(),
    ])].filter((name): name is string => typeof name === 'string' && name !== '' && !isPlaceholder(name)));
    const claimsPerClass = new Map<string, number>();
    for (const claim of model.claimObjects()) {
      const own = model.classOfClaim(claim.object);
      if (own.set && own.name !== '' && !isPlaceholder(own.name)) claimsPerClass.set(own.name, (claimsPerClass.get(own.name) ?? 0) + 1);
    }
    /**
     * A known class one slip away; else a class name that more claims use than this one (the cluster's class, written
     * right by the others: `ceph-blok` beside thirty `ceph-block` claims).
     */
    const suggestionFor = (name: string): string | undefined => {
      const likely = likelyMeant(name, knownClasses());
      if (likely !== undefined) return likely;
      const uses = claimsPerClass.get(name) ?? 0;
      const common = [...claimsPerClass].filter(([other, count]) => count >= 2 && count > uses && other !== name).map(([other]) => other);
      return likelyMeant(name, common);
    };
    for (const claim of model.claimObjects()) {
      const own = model.classOfClaim(claim.object);
      if (!own.set || own.name === '' || isPlaceholder(own.name)) continue;
      const lookup = model.lookupClass(own.name);
      if (lookup.status === 'found') continue;
      // A class used only to match pre-created PVs (no StorageClass object needed) is static binding.
      if (volumeClasses.has(own.name) || shippedInConfigMaps().has(own.name)) continue;
      const suggestion = suggestionFor(own.name);
      report({
        resource: claim.resource,
        path: claimPath(claim, ...(own.via === 'annotation' ? ['metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class'] : ['spec', 'storageClassName'])),
        messageId: 'unknown',
        // A whole GitOps cluster that defines its own classes: a class none of them is, is likely a typo; so is one a
        // slip away from a class the environment knows or the other claims use.
        severity: lookup.status === 'missing' ? 'error'
          : !PLATFORM_CLASSES.has(own.name) && (suggestion !== undefined || (model.wholeCluster && classNames.length > 0)) ? 'warning' : 'note',
        data: {
          claim: claim.label + (claim.origin === 'pvc' ? ` in namespace "${claim.namespace}"` : ''),
          storageClass: own.name,
          complete: lookup.status === 'missing',
          suggestion: suggestion ?? '',
        },
      });
    }
  },
});
