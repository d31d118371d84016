// R12: a StorageClass or PersistentVolume uses an in-tree volume plugin: served only through CSI migration, or removed.
import { compareVersion } from '../src/model/cluster-facts.js';
import { defineRule } from '../src/define-rule.js';
import { legacyProvisioner, legacyVolumeSource } from '../src/model/legacy-volumes.js';

export default defineRule({
  id: 'storageclass-legacy-provisioner',
  meta: {
    catalogueId: 'R12',
    severity: 'note',
    severities: ['error', 'warning'],
    kinds: ['StorageClass', 'PersistentVolume'],
    summary: 'A StorageClass or PersistentVolume uses an in-tree volume plugin: it works only through CSI migration, or not at all.',
    why:
      'The cloud and storage plugins that used to be compiled into Kubernetes are deprecated or removed. Classes with provisioner ' +
      'kubernetes.io/aws-ebs, gce-pd, azure-disk, azure-file, cinder, vsphere-volume or portworx-volume and PVs written ' +
      'with awsElasticBlockStore, gcePersistentDisk, azureDisk, azureFile, cinder, vsphereVolume or portworxVolume keep ' +
      'working only through CSI migration, which needs the corresponding CSI driver installed — and the CSI driver\'s ' +
      'defaults and parameters apply (the EBS driver creates gp3 by default, not gp2). GlusterFS, CephFS and RBD, ' +
      'Flocker, Quobyte, StorageOS, ScaleIO and Photon PD were removed without migration: such volumes no longer work.',
    trigger:
      'A StorageClass whose `provisioner` is an in-tree plugin name, or a PersistentVolume written with an in-tree volume ' +
      'source. Note when the plugin is migrated to a CSI driver; error when it was removed without migration ' +
      '(cephfs and rbd since v1.31, glusterfs v1.26, flocker, quobyte and storageos v1.25, scaleIO v1.21, ' +
      'photonPersistentDisk v1.15); a warning instead when `cluster.kubernetesVersion` is older than the removal.',
    exceptions:
      'kubernetes.io/no-provisioner, `local`, `nfs`, `hostPath`, `iscsi`, `fc` and `csi` are current. flexVolume is ' +
      'deprecated without a removal plan and not reported. Inline pod volumes of these types are not checked.',
    fix:
      'Use the CSI driver\'s name as the provisioner (for example ebs.csi.aws.com) and review the parameters against its ' +
      'documentation; for PVs use `spec.csi` with the driver and volume handle. For removed plugins, move the data to a ' +
      'CSI driver (ceph-csi for CephFS/RBD).',
    reportsAt: 'The StorageClass\'s `provisioner`, or the PV\'s volume source field.',
    references: [
      { title: 'Kubernetes docs: Persistent Volumes, "Types of Persistent Volumes"', url: 'https://kubernetes.io/docs/concepts/storage/persistent-volumes/#types-of-persistent-volumes' },
      { title: 'Kubernetes docs: Volumes (in-tree types, CSI migration)', url: 'https://kubernetes.io/docs/concepts/storage/volumes/' },
      { title: 'Kubernetes docs: Storage Classes, "Provisioner"', url: 'https://kubernetes.io/docs/concepts/storage/storage-classes/#provisioner' },
      { title: 'aws-ebs-csi-driver docs/parameters.md (default type gp3)', url: 'https://github.com/kubernetes-sigs/aws-ebs-csi-driver/blob/master/docs/parameters.md' },
    ],
    messages: {
      migratedClass: (d: { storageClass: string; provisioner: string; driver: string }) =>
        `StorageClass "${d.storageClass}" uses the in-tree provisioner ${d.provisioner}; Kubernetes serves it only through CSI migration, so it works only with the ` +
        `${d.driver} CSI driver installed, and that driver's defaults and parameters apply. Use provisioner: ${d.driver}.`,
      removedClass: (d: { storageClass: string; provisioner: string; removedIn: string }) =>
        `StorageClass "${d.storageClass}" uses the in-tree provisioner ${d.provisioner}, removed in Kubernetes ${d.removedIn} without CSI migration; ` +
        'its claims are never provisioned.',
      migratedVolume: (d: { pv: string; source: string; driver: string }) =>
        `PersistentVolume "${d.pv}" uses the in-tree volume source ${d.source}; Kubernetes serves it only through CSI migration, so it works only with the ${d.driver} CSI driver installed. ` +
        `Write it with spec.csi (driver ${d.driver}).`,
      removedVolume: (d: { pv: string; source: string; removedIn: string }) =>
        `PersistentVolume "${d.pv}" uses the in-tree volume source ${d.source}, removed in Kubernetes ${d.removedIn} without CSI migration; ` +
        'pods using it cannot mount it.',
    },
    examples: {
      invalid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: standard}
provisioner: kubernetes.io/gce-pd
volumeBindingMode: WaitForFirstConsumer
parameters: {type: pd-standard}
`,
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gluster}
provisioner: kubernetes.io/glusterfs
parameters: {resturl: "http://heketi:8080"}
`,
      ],
      valid: [
        `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: standard}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
parameters: {type: pd-standard}
`,
      ],
    },
  },
  check({ model, report }) {
    const migratedFix = (driver: string) => `Use ${driver} (the CSI driver) and review the parameters against its documentation; for PVs write \`spec.csi\` with driver ${driver} and the volume handle.`;
    const removedFix = (plugin: string, removedIn: string) =>
      `No Kubernetes release since ${removedIn} serves ${plugin}: provision through a CSI driver for that storage` +
      (/rbd|cephfs/.test(plugin) ? ' (ceph-csi)' : '') + ' and move the data to it.';
    // Removal versions are facts of Kubernetes releases: on a cluster the configuration says is older, it still works.
    const removedSeverity = (removedIn: string): 'error' | 'warning' => {
      const version = model.kubernetesVersion;
      const match = /^v?(\d+)\.(\d+)/.exec(removedIn);
      return version && match && compareVersion(version, Number(match[1]), Number(match[2])) < 0 ? 'warning' : 'error';
    };
    for (const storageClass of model.ofKind('StorageClass')) {
      const provisioner = storageClass.object?.provisioner;
      if (typeof provisioner !== 'string') continue;
      const legacy = legacyProvisioner(provisioner);
      if (!legacy) continue;
      if (legacy.status === 'migrated') {
        report({ resource: storageClass, path: ['provisioner'], messageId: 'migratedClass', fix: migratedFix(legacy.csiDriver!), data: { storageClass: storageClass.name, provisioner, driver: legacy.csiDriver! } });
      } else {
        report({ resource: storageClass, path: ['provisioner'], messageId: 'removedClass', severity: removedSeverity(legacy.removedIn!), fix: removedFix(provisioner, legacy.removedIn!), data: { storageClass: storageClass.name, provisioner, removedIn: legacy.removedIn! } });
      }
    }
    for (const pv of model.ofKind('PersistentVolume')) {
      const legacy = legacyVolumeSource(pv.object?.spec);
      if (!legacy) continue;
      if (legacy.plugin.status === 'migrated') {
        report({ resource: pv, path: ['spec', legacy.key], messageId: 'migratedVolume', fix: migratedFix(legacy.plugin.csiDriver!), data: { pv: pv.name, source: legacy.key, driver: legacy.plugin.csiDriver! } });
      } else {
        report({ resource: pv, path: ['spec', legacy.key], messageId: 'removedVolume', severity: removedSeverity(legacy.plugin.removedIn!), fix: removedFix(legacy.key, legacy.plugin.removedIn!), data: { pv: pv.name, source: legacy.key, removedIn: legacy.plugin.removedIn! } });
      }
    }
  },
});
