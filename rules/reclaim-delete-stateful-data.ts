// R37: stateful data on volumes whose reclaim policy is Delete: deleting the claim deletes the disk.
import { defineRule } from '../src/define-rule.js';
import { TOOL_NAMES } from '../src/model/gitops.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import { reclaimOfVolume, type DatabaseVolume } from '../src/model/stateful-data.js';
import type { JsonPath, Resource, Severity } from '../src/types.js';

function classText(storageClass: Resource, defaulted: boolean): string {
  return `StorageClass "${storageClass.name}" ${defaulted ? 'sets no reclaimPolicy, so it is Delete' : 'has reclaimPolicy: Delete'}`;
}

function dbText(db: DatabaseVolume | undefined): string {
  return db ? ` (${db.product} data at ${db.dataPath})` : '';
}

export default defineRule({
  id: 'reclaim-delete-stateful-data',
  meta: {
    catalogueId: 'R37',
    severity: 'note',
    severities: ['warning'],
    kinds: [...WORKLOAD_KINDS, 'PersistentVolumeClaim', 'PersistentVolume', 'StorageClass'],
    summary: 'Stateful data lives on a volume whose reclaim policy is Delete: deleting the claim deletes the disk.',
    why:
      'Dynamically provisioned PersistentVolumes inherit the StorageClass\'s reclaimPolicy, which defaults to Delete. When the ' +
      'claim is deleted — a Helm uninstall, a GitOps prune, deleting the namespace, a StatefulSet retention policy, a stray ' +
      '`kubectl delete` — Kubernetes deletes the PersistentVolume and the driver deletes the backing disk, with the data. ' +
      'A PersistentVolume written with persistentVolumeReclaimPolicy: Delete is deleted along with its storage when released.',
    trigger:
      'StatefulSet volumeClaimTemplates, and claims on which a recognised database server (PostgreSQL, MySQL, MongoDB, …; not a cache) keeps its data ' +
      'directory, whose StorageClass is in the repo with reclaimPolicy Delete or unset; and PersistentVolumes written with ' +
      '`persistentVolumeReclaimPolicy: Delete`. Note; warning for a database claim that a Helm, Argo CD or Flux operation ' +
      'in the repo would also delete (gitops-pvc-prune-unprotected).',
    exceptions:
      'Claims whose StorageClass is not in the repo, classes with reclaimPolicy Retain, and claims bound to PersistentVolumes ' +
      'with Retain (the default for PersistentVolumes) are not reported; neither are caches (Redis without persistence) or ' +
      'claims of Deployments that run no recognised database.',
    fix:
      'Provision irreplaceable data from a StorageClass with `reclaimPolicy: Retain` (or patch the bound PersistentVolume to ' +
      'Retain), and back it up with VolumeSnapshots; keep Delete only for data you can recreate.',
    reportsAt:
      'The claim\'s (or volumeClaimTemplate\'s) `storageClassName`, or its `spec` when the default class applies; for a ' +
      'PersistentVolume its `persistentVolumeReclaimPolicy`. The StorageClass is the related location.',
    references: [
      { title: 'Kubernetes docs: Storage Classes, "Reclaim policy"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#reclaim-policy' },
      { title: 'Kubernetes docs: Persistent Volumes, "Reclaiming"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#reclaiming' },
      { title: 'Kubernetes docs: Change the Reclaim Policy of a PersistentVolume', url: 'https://kubernetes.io/docs/tasks/administer-cluster/change-pv-reclaim-policy/' },
    ],
    messages: {
      template: (d: { sts: string; template: string; db: string; storageClass: string }) =>
        `StatefulSet "${d.sts}" keeps its data${d.db} in claims from volumeClaimTemplate "${d.template}", and ${d.storageClass}: deleting a ` +
        'claim (scale-down with a Delete retention policy, namespace deletion, or by hand) deletes its volume and the data on it.',
      claim: (d: { claim: string; db: string; storageClass: string; exposure: string }) =>
        `PersistentVolumeClaim "${d.claim}" holds database data${d.db}, and ${d.storageClass}: deleting the claim deletes the volume and ` +
        `the data${d.exposure}.`,
      volume: (d: { pv: string; claim: string }) =>
        `PersistentVolume "${d.pv}" has persistentVolumeReclaimPolicy: Delete: when ${d.claim} is deleted, Kubernetes deletes the ` +
        'PersistentVolume and the volume behind it. Use Retain for pre-provisioned data.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg}
spec:
  serviceName: pg
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers: [{name: pg, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        storageClassName: gp3
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 20Gi}}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3-retain}
provisioner: ebs.csi.aws.com
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg}
spec:
  serviceName: pg
  selector: {matchLabels: {app: pg}}
  template:
    metadata: {labels: {app: pg}}
    spec:
      containers: [{name: pg, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql/data}]}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec:
        storageClassName: gp3-retain
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 20Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    // StatefulSet claim templates.
    for (const template of model.templates) {
      if (template.kind !== 'StatefulSet') continue;
      const namespace = model.namespaceOf(template.workload) ?? model.defaultNamespace;
      const dbs = model.databaseVolumes(template);
      for (const vct of template.claimTemplates) {
        // A pre-created PersistentVolume reserved for the first ordinal decides instead of the class.
        if (model.volumesClaiming(namespace, `${vct.name}-${template.workload.name}-0`).length > 0) continue;
        const reclaim = model.reclaimOfClaim(vct.object);
        if (reclaim.policy !== 'Delete' || reclaim.via !== 'class') continue;
        const hasClass = vct.object?.spec?.storageClassName != null;
        const path: JsonPath = hasClass ? [...vct.path, 'spec', 'storageClassName'] : [...vct.path, 'spec'];
        report({
          resource: template.workload, path, messageId: 'template',
          data: { sts: template.workload.name, template: vct.name, db: dbText(dbs.get(vct.name)), storageClass: classText(reclaim.storageClass, reclaim.defaulted) },
          related: [{ resource: reclaim.storageClass, path: reclaim.defaulted ? ['metadata', 'name'] : ['reclaimPolicy'], message: `StorageClass "${reclaim.storageClass.name}" (reclaimPolicy ${reclaim.policy})` }],
        });
      }
    }

    // Stand-alone claims holding database data.
    for (const pvc of model.claimsOf()) {
      const namespace = model.namespaceOf(pvc) ?? model.defaultNamespace;
      let db: DatabaseVolume | undefined;
      for (const use of model.usesOfClaim(namespace, pvc.name)) {
        db = model.databaseVolumes(use.template).get(use.volume.name);
        if (db) break;
      }
      if (!db) continue;
      const reclaim = model.reclaimOfClaim(pvc.object, pvc);
      if (reclaim.policy !== 'Delete' || reclaim.via !== 'class') continue;
      const { exposures } = model.deletionExposure(pvc);
      const severity: Severity = exposures.length > 0 ? 'warning' : 'note';
      const exposure = exposures.length > 0
        ? `, and ${exposures.map((e) => e.operation).join(' or ')} deletes the claim (${[...new Set(exposures.map((e) => TOOL_NAMES[e.tool]))].join(', ')} manages it)`
        : '';
      const hasClass = pvc.object?.spec?.storageClassName != null;
      report({
        resource: pvc, path: hasClass ? ['spec', 'storageClassName'] : ['spec'], messageId: 'claim', severity,
        data: { claim: pvc.name, db: dbText(db), storageClass: classText(reclaim.storageClass, reclaim.defaulted), exposure },
        related: [{ resource: reclaim.storageClass, path: reclaim.defaulted ? ['metadata', 'name'] : ['reclaimPolicy'], message: `StorageClass "${reclaim.storageClass.name}" (reclaimPolicy ${reclaim.policy})` }],
      });
    }

    // PersistentVolumes written with Delete.
    for (const pv of model.ofKind('PersistentVolume')) {
      const reclaim = reclaimOfVolume(pv);
      if (reclaim.policy !== 'Delete' || reclaim.defaulted) continue;
      const ref = pv.object?.spec?.claimRef;
      const claim = ref?.name ? `its claim "${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}"` : 'the claim bound to it';
      report({ resource: pv, path: ['spec', 'persistentVolumeReclaimPolicy'], messageId: 'volume', data: { pv: pv.name, claim } });
    }
  },
});
