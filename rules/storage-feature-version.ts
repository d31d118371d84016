// A storage feature used on a cluster older than the feature (cluster.kubernetesVersion in .pvlint.yaml).
import { defineRule } from '../src/define-rule.js';
import { claimPath } from '../src/model/claim-objects.js';
import { RWOP } from '../src/model/claims.js';
import { featureStatus, STORAGE_FEATURES, storageFeature, versionAtLeast, VOLUME_ATTRIBUTES_CLASS_API, type StorageFeature } from '../src/model/storage-features.js';
import type { JsonPath, Resource } from '../src/types.js';

const table = STORAGE_FEATURES.map((f) => `${f.id}: alpha ${f.alpha}${f.beta ? `, beta ${f.beta}` : ''}, on by default ${f.onByDefault}${f.ga ? `, GA ${f.ga}` : ''}`).join('; ');

export default defineRule({
  id: 'storage-feature-version',
  meta: {
    severity: 'error',
    severities: ['warning'],
    kinds: ['PersistentVolumeClaim', 'PersistentVolume', 'VolumeAttributesClass', 'StatefulSet', 'Pod', 'Deployment', 'ReplicaSet', 'ReplicationController', 'DaemonSet', 'Job', 'CronJob', 'Rollout'],
    summary: 'A storage feature is used on a cluster older than the feature (cluster.kubernetesVersion): the API refuses it or ignores it.',
    why:
      'Storage features arrive behind feature gates: before their alpha release the API server does not know them (an ' +
      'unknown access mode is "Unsupported value", an unknown kind has no REST mapping), while alpha (and some beta) they are ' +
      'off unless the cluster operator turned the gate on — an access mode is then still rejected, and a new field is ' +
      'silently dropped (a StatefulSet\'s PVC retention policy does nothing). Managed clusters rarely enable alpha gates.',
    trigger:
      `Only when \`cluster.kubernetesVersion\` is set. Features and versions (as of Kubernetes v1.34): ${table}. ` +
      'ReadWriteOncePod in a claim\'s or PV\'s access modes; a VolumeAttributesClass object (its apiVersion too: v1alpha1 ' +
      'from 1.29, v1beta1 from 1.31, v1 from 1.34) or a claim\'s `spec.volumeAttributesClassName`; a StatefulSet\'s ' +
      '`spec.persistentVolumeClaimRetentionPolicy`. An error before the feature\'s alpha release (or for an apiVersion the ' +
      'cluster does not serve), a warning while it is behind a gate that is off by default.',
    exceptions:
      'Nothing is reported without `cluster.kubernetesVersion`. Recovery from a failed expansion (RecoverVolumeExpansionFailure) is ' +
      'in the table but not checked: one state of a repository does not show it (pvc-resize-rejected compares with --base).',
    fix:
      'Upgrade the cluster (or set `cluster.kubernetesVersion` to what it really runs), enable the feature gate where the ' +
      'cluster is yours, or do without the feature: ReadWriteOnce with one replica and Recreate instead of ReadWriteOncePod, ' +
      'StorageClass parameters instead of a VolumeAttributesClass, deleting claims of a removed StatefulSet by hand.',
    reportsAt: 'The field that uses the feature (the access mode, `volumeAttributesClassName`, `persistentVolumeClaimRetentionPolicy`, a VolumeAttributesClass\'s `apiVersion`).',
    references: STORAGE_FEATURES.flatMap((f) => f.sources),
    messages: {
      absent: (d: { what: string; feature: string; version: string; since: string }) =>
        `${d.what} uses ${d.feature}, which Kubernetes ${d.version} (cluster.kubernetesVersion) does not have: it arrived in ${d.since}, so the API server rejects it.`,
      gated: (d: { what: string; feature: string; version: string; gate: string; onByDefault: string; effect: string }) =>
        `${d.what} uses ${d.feature}; on Kubernetes ${d.version} (cluster.kubernetesVersion) it is behind the ${d.gate} feature gate, ` +
        `off by default until ${d.onByDefault}: unless the cluster enables it, ${d.effect}.`,
      apiVersion: (d: { what: string; apiVersion: string; version: string; since: string }) =>
        `${d.what} is written as ${d.apiVersion}, which Kubernetes ${d.version} (cluster.kubernetesVersion) does not serve (it exists from ${d.since}): applying it fails with no match for the kind.`,
    },
    examples: {
      invalid: [
        `# .pvlint.yaml: cluster: {kubernetesVersion: "1.21"}
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ledger}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 10Gi}}
`,
      ],
      valid: [
        `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: ledger}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 10Gi}}
`,
      ],
    },
  },
  check({ model, report }) {
    const version = model.kubernetesVersion;
    if (!version) return;
    const use = (resource: Resource, path: JsonPath, what: string, feature: StorageFeature, effect: string) => {
      const status = featureStatus(feature, version);
      if (status === 'available') return;
      if (status === 'absent') {
        report({ resource, path, messageId: 'absent', data: { what, feature: feature.uses, version: version.text, since: feature.alpha } });
      } else {
        report({
          resource, path, messageId: 'gated', severity: 'warning',
          data: { what, feature: feature.uses, version: version.text, gate: feature.id, onByDefault: feature.onByDefault, effect },
        });
      }
    };

    const rwop = storageFeature('ReadWriteOncePod');
    const vac = storageFeature('VolumeAttributesClass');
    for (const claim of model.claimObjects()) {
      const modes = claim.object?.spec?.accessModes;
      const index = Array.isArray(modes) ? modes.indexOf(RWOP) : -1;
      if (index >= 0) use(claim.resource, claimPath(claim, 'spec', 'accessModes', index), claim.label, rwop, 'the API server rejects the access mode ("Unsupported value")');
      if (typeof claim.object?.spec?.volumeAttributesClassName === 'string') {
        use(claim.resource, claimPath(claim, 'spec', 'volumeAttributesClassName'), claim.label, vac, 'the API server drops the field and the volume keeps its StorageClass settings');
      }
    }
    for (const pv of model.ofKind('PersistentVolume')) {
      const modes = pv.object?.spec?.accessModes;
      const index = Array.isArray(modes) ? modes.indexOf(RWOP) : -1;
      if (index >= 0) use(pv, ['spec', 'accessModes', index], `PersistentVolume "${pv.name}"`, rwop, 'the API server rejects the access mode ("Unsupported value")');
    }
    for (const klass of model.ofKind('VolumeAttributesClass')) {
      const what = `VolumeAttributesClass "${klass.name}"`;
      const since = VOLUME_ATTRIBUTES_CLASS_API[klass.apiVersion];
      if (featureStatus(vac, version) === 'absent') {
        use(klass, ['kind'], what, vac, '');
      } else if (since && !versionAtLeast(version, since)) {
        report({ resource: klass, path: ['apiVersion'], messageId: 'apiVersion', data: { what, apiVersion: klass.apiVersion, version: version.text, since } });
      } else {
        use(klass, ['kind'], what, vac, 'the storage.k8s.io API version of the kind is not served and the class cannot be created');
      }
    }
    const retention = storageFeature('StatefulSetAutoDeletePVC');
    for (const sts of model.ofKind('StatefulSet')) {
      if (sts.object?.spec?.persistentVolumeClaimRetentionPolicy == null) continue;
      const status = featureStatus(retention, version);
      // Before its alpha the field is unknown; either way the policy is not applied (the API server drops it).
      if (status === 'available') continue;
      report({
        resource: sts, path: ['spec', 'persistentVolumeClaimRetentionPolicy'], messageId: 'gated', severity: 'warning',
        data: {
          what: `StatefulSet "${sts.name}"`, feature: retention.uses, version: version.text, gate: retention.id, onByDefault: retention.onByDefault,
          effect: 'the API server drops the field and the claims are kept (Retain) whatever the policy says',
        },
      });
    }
  },
});
