// Storage features that exist only from some Kubernetes version on: when each became alpha (off by default), beta and
// GA, from the Kubernetes docs, KEPs and release blogs cited per row (as of Kubernetes v1.34). Rules compare them with
// `cluster.kubernetesVersion`.
import type { RuleReference } from '../types.js';
import { compareVersion, type KubernetesVersion } from './cluster-facts.js';

export interface StorageFeature {
  id: 'ReadWriteOncePod' | 'VolumeAttributesClass' | 'StatefulSetAutoDeletePVC' | 'RecoverVolumeExpansionFailure';
  /** What a manifest writes to use it. */
  uses: string;
  alpha: string;
  /** First release where it is on by default (beta or GA); undefined when beta stayed off by default. */
  onByDefault: string;
  beta?: string;
  ga?: string;
  sources: readonly RuleReference[];
}

export const STORAGE_FEATURES: readonly StorageFeature[] = [
  {
    id: 'ReadWriteOncePod', uses: 'access mode ReadWriteOncePod', alpha: '1.22', beta: '1.27', onByDefault: '1.27', ga: '1.29',
    sources: [
      { title: 'Kubernetes blog: ReadWriteOncePod PersistentVolume access mode goes GA (1.29; alpha 1.22, beta 1.27)', url: 'https://kubernetes.io/blog/2023/12/18/read-write-once-pod-access-mode-ga/' },
      { title: 'KEP-2485: ReadWriteOncePod PersistentVolume access mode', url: 'https://github.com/kubernetes/enhancements/blob/master/keps/sig-storage/2485-read-write-once-pod-pv-access-mode/README.md' },
    ],
  },
  {
    id: 'VolumeAttributesClass', uses: 'VolumeAttributesClass objects and PersistentVolumeClaim spec.volumeAttributesClassName', alpha: '1.29', beta: '1.31', onByDefault: '1.34', ga: '1.34',
    sources: [
      { title: 'Kubernetes docs: Volume Attributes Classes (GA in v1.34; beta in v1.31 was disabled by default)', url: 'https://kubernetes.io/docs/concepts/storage/volume-attributes-classes/' },
      { title: 'Kubernetes CSI docs: Volume Attributes Classes (alpha 1.29, beta 1.31)', url: 'https://kubernetes-csi.github.io/docs/volume-attributes-class.html' },
    ],
  },
  {
    id: 'StatefulSetAutoDeletePVC', uses: 'StatefulSet spec.persistentVolumeClaimRetentionPolicy', alpha: '1.23', beta: '1.27', onByDefault: '1.27', ga: '1.32',
    sources: [{ title: 'KEP-1847 tracking issue: Auto remove PVCs created by StatefulSet (alpha 1.23, beta 1.27, stable 1.32)', url: 'https://github.com/kubernetes/enhancements/issues/1847' }],
  },
  {
    // Kept for the record: whether a claim recovers from a failed expansion is not visible in one state of a repository.
    id: 'RecoverVolumeExpansionFailure', uses: 'lowering a claim\'s request after a failed expansion', alpha: '1.23', onByDefault: '1.34', ga: '1.34',
    sources: [
      { title: 'external-resizer pkg/features (RecoverVolumeExpansionFailure alpha: v1.23)', url: 'https://pkg.go.dev/github.com/kubernetes-csi/external-resizer@v1.11.0/pkg/features' },
      { title: 'Kubernetes v1.34 release: Recovery From Volume Expansion Failure (GA)', url: 'https://kubernetes.io/blog/2025/09/19/kubernetes-v1-34-recover-expansion-failure/' },
    ],
  },
];

export function storageFeature(id: StorageFeature['id']): StorageFeature {
  return STORAGE_FEATURES.find((f) => f.id === id)!;
}

export type FeatureStatus = 'absent' | 'gated' | 'available';

function parts(version: string): [number, number] {
  const [major, minor] = version.split('.').map(Number);
  return [major, minor];
}

/** `absent` before alpha (the API does not know it), `gated` while it needs a feature gate, `available` once on by default. */
export function featureStatus(feature: StorageFeature, version: KubernetesVersion): FeatureStatus {
  if (compareVersion(version, ...parts(feature.alpha)) < 0) return 'absent';
  if (compareVersion(version, ...parts(feature.onByDefault)) < 0) return 'gated';
  return 'available';
}

/** The release an API version of VolumeAttributesClass first exists in (storage.k8s.io/v1alpha1, v1beta1, v1). */
export const VOLUME_ATTRIBUTES_CLASS_API: Readonly<Record<string, string>> = {
  'storage.k8s.io/v1alpha1': '1.29',
  'storage.k8s.io/v1beta1': '1.31',
  'storage.k8s.io/v1': '1.34',
};

export function versionAtLeast(version: KubernetesVersion, release: string): boolean {
  return compareVersion(version, ...parts(release)) >= 0;
}
