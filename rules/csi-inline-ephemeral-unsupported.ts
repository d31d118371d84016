// R35: an inline CSI volume (volumes[].csi) of a driver that does not support the Ephemeral lifecycle mode.
import { defineRule } from '../src/define-rule.js';
import { CSIDRIVER_API } from '../src/model/csi-drivers.js';
import { WORKLOAD_KINDS } from '../src/model/pod-templates.js';
import type { JsonPath } from '../src/types.js';

export default defineRule({
  id: 'csi-inline-ephemeral-unsupported',
  meta: {
    catalogueId: 'R35',
    severity: 'error',
    severities: ['note'],
    kinds: [...WORKLOAD_KINDS, 'CSIDriver'],
    summary: 'A pod uses an inline CSI volume (volumes[].csi) of a driver whose CSIDriver does not list the Ephemeral lifecycle mode.',
    why:
      'An inline `csi` volume asks the driver for a volume that lives and dies with the pod, without a claim. The kubelet allows ' +
      'that only for drivers whose CSIDriver object lists `Ephemeral` in `volumeLifecycleModes` (the default is `[Persistent]`); ' +
      'for any other driver the mount fails ("volume mode \"Ephemeral\" not supported by driver … (only supports [Persistent])", or ' +
      '"… (no CSIDriver object)") and the pod stays in ContainerCreating. Block-storage drivers such as EBS, Azure Disk and Ceph RBD only ' +
      'serve claims.',
    trigger:
      'A pod volume with `csi.driver` whose CSIDriver object — the one in the repo, else the manifest the driver ships ' +
      '(EBS, EFS, Azure Disk and Ceph RBD are Persistent only; NFS, Azure Files, Secrets Store and cert-manager support Ephemeral) ' +
      '— does not include `Ephemeral` in `volumeLifecycleModes` (error). A driver pvlint knows neither way gives a note.',
    exceptions:
      'Generic ephemeral volumes (`volumes[].ephemeral`, a claim per pod) work with any provisioner and are not inline CSI volumes. ' +
      'Drivers whose CSIDriver is neither in the repo nor known to pvlint are only noted, not judged.',
    fix:
      'Use a generic ephemeral volume (`volumes[].ephemeral.volumeClaimTemplate` with a StorageClass of that driver) or a ' +
      'PersistentVolumeClaim; or, for a driver that does support inline volumes, add `Ephemeral` to its CSIDriver.',
    reportsAt: 'The inline volume\'s `csi.driver`; related: the CSIDriver\'s `volumeLifecycleModes`.',
    references: [
      { title: 'Kubernetes docs: Ephemeral Volumes, "CSI ephemeral volumes"', url: 'https://kubernetes.io/docs/concepts/storage/ephemeral-volumes/#csi-ephemeral-volumes' },
      CSIDRIVER_API,
      { title: 'kubernetes pkg/volume/csi/csi_plugin.go (supportsVolumeLifecycleMode)', url: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/volume/csi/csi_plugin.go' },
      { title: 'cloud-provider-openstack docs/cinder-csi-plugin/features.md ("Ephemeral Volumes")', url: 'https://github.com/kubernetes/cloud-provider-openstack/blob/HEAD/docs/cinder-csi-plugin/features.md' },
    ],
    messages: {
      unsupported: (d: { kind: string; workload: string; volume: string; driver: string; where: string; modes: string }) =>
        `${d.kind} "${d.workload}": inline CSI volume "${d.volume}" uses driver ${d.driver}, whose CSIDriver (${d.where}) has ` +
        `volumeLifecycleModes [${d.modes}] without Ephemeral: the kubelet refuses the mount ("volume mode \"Ephemeral\" not supported by driver ${d.driver}") and the pod stays in ContainerCreating.`,
      unknownDriver: (d: { kind: string; workload: string; volume: string; driver: string }) =>
        `${d.kind} "${d.workload}": inline CSI volume "${d.volume}" uses driver ${d.driver}, whose CSIDriver is not in the repo; it ` +
        'works only if that CSIDriver exists in the cluster and lists Ephemeral in volumeLifecycleModes (the default is Persistent only).',
    },
    examples: {
      invalid: [
        `apiVersion: v1
kind: Pod
metadata: {name: scratch}
spec:
  containers: [{name: app, image: registry.example.com/app:1, volumeMounts: [{name: tmp, mountPath: /tmp/work}]}]
  volumes:
    - name: tmp
      csi:
        driver: ebs.csi.aws.com
        volumeAttributes: {size: 10Gi}
`,
      ],
      valid: [
        `apiVersion: v1
kind: Pod
metadata: {name: scratch}
spec:
  containers: [{name: app, image: registry.example.com/app:1, volumeMounts: [{name: tmp, mountPath: /tmp/work}]}]
  volumes:
    - name: tmp
      ephemeral:
        volumeClaimTemplate:
          spec: {storageClassName: gp3, accessModes: [ReadWriteOnce], resources: {requests: {storage: 10Gi}}}
`,
      ],
    },
  },
  check({ model, report }) {
    for (const template of model.templates) {
      for (const volume of template.volumes) {
        if (volume.source !== 'csi') continue;
        const driver = template.spec?.volumes?.[volume.index]?.csi?.driver;
        if (typeof driver !== 'string' || driver === '') continue;
        const path: JsonPath = [...volume.path, 'csi', 'driver'];
        const base = { kind: template.kind, workload: template.workload.name, volume: volume.name, driver };
        const csi = model.effectiveCsiDriver(driver);
        if (!csi) {
          report({ resource: template.workload, path, messageId: 'unknownDriver', severity: 'note', data: base });
          continue;
        }
        if (csi.volumeLifecycleModes.includes('Ephemeral')) continue;
        report({
          resource: template.workload, path, messageId: 'unsupported',
          data: { ...base, where: csi.from === 'bundle' ? 'in the repo' : `as ${driver} ships it`, modes: csi.volumeLifecycleModes.join(', ') },
          related: csi.object ? [{ resource: csi.object, path: ['spec', 'volumeLifecycleModes'], message: `CSIDriver "${csi.object.name}"` }] : [],
        });
      }
    }
  },
});
