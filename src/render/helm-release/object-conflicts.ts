// A storage object a HelmRelease renders that the environment already has from elsewhere (a Flux Kustomization, or
// another release): Helm creates the objects of a release only when they do not exist, or when they carry that
// release's ownership metadata, so the install or upgrade fails ("... exists and cannot be imported into the current
// release: invalid ownership metadata"; helm pkg/action/validate.go existingResourceConflict). The classic case is an
// app-template release whose single PVC is named after the release, next to a claim of the same name that a backup
// component (VolSync, Kopiur) creates.
import { diagnostic } from '../../engine/diagnostic.js';
import { CLUSTER_SCOPED } from '../../model/storage-model.js';
import type { Finding, LocateAt, Resource } from '../../types.js';

export const HELM_OWNERSHIP_CONFLICT = 'pvlint/helm-ownership-conflict';

const STORAGE_KINDS = new Set(['PersistentVolumeClaim', 'PersistentVolume', 'StorageClass', 'VolumeSnapshotClass']);

export interface RenderedRelease {
  release: Resource;
  /** `namespace/name` of the HelmRelease, for messages. */
  label: string;
  /** The Helm release name and namespace (what `meta.helm.sh/release-*` must say for Helm to adopt an object). */
  releaseName: string;
  releaseNamespace: string;
  resources: readonly Resource[];
}

function key(resource: Resource): string {
  return `${resource.kind}\0${CLUSTER_SCOPED.has(resource.kind) ? '' : resource.namespace ?? ''}\0${resource.name}`;
}

/** Whether Helm would adopt the object into this release: both ownership annotations name it. */
function adoptable(object: any, release: RenderedRelease): boolean {
  const annotations = object?.metadata?.annotations ?? {};
  return annotations['meta.helm.sh/release-name'] === release.releaseName && annotations['meta.helm.sh/release-namespace'] === release.releaseNamespace;
}

function describe(resource: Resource): string {
  return `${resource.kind} "${resource.name}"${CLUSTER_SCOPED.has(resource.kind) || !resource.namespace ? '' : ` in namespace "${resource.namespace}"`}`;
}

/**
 * One finding per storage object a release renders that the environment's own objects, or a release before it,
 * already hold under the same kind, namespace and name.
 */
export function ownershipConflicts(existing: readonly Resource[], releases: readonly RenderedRelease[], locateAt: LocateAt, environment: string): Finding[] {
  const findings: Finding[] = [];
  const holders = new Map<string, { resource: Resource; by?: RenderedRelease }>();
  for (const resource of existing) if (STORAGE_KINDS.has(resource.kind)) holders.set(key(resource), { resource });
  for (const release of releases) {
    const own = new Set<string>();
    for (const resource of release.resources) {
      if (!STORAGE_KINDS.has(resource.kind)) continue;
      const k = key(resource);
      const holder = holders.get(k);
      if (holder && !own.has(k) && !adoptable(holder.resource.object, release)) {
        const other = holder.by ? `HelmRelease ${holder.by.label} renders it too` : 'the environment also applies it from the repository';
        const message =
          `${describe(resource)} is rendered by HelmRelease ${release.label}, and ${other}: Helm installs or upgrades the release ` +
          `only if the object does not exist or carries its ownership annotations (meta.helm.sh/release-name: ${release.releaseName}), ` +
          'so the release fails with "exists and cannot be imported into the current release: invalid ownership metadata".';
        // A chart rarely takes a claim's name from one value, but its access mode and size come from the values entry
        // that renders it (`persistence.<id>`), which is where a rename goes.
        const at = locateAt(resource, resource.kind === 'PersistentVolumeClaim' ? ['spec', 'accessModes'] : ['metadata', 'name']);
        const finding = diagnostic(HELM_OWNERSHIP_CONFLICT, message, at.location, 'error', [environment]);
        finding.related = [{ message: `the other ${resource.kind} "${resource.name}"`, location: locateAt(holder.resource, ['metadata', 'name']).location }];
        finding.resource = { apiVersion: resource.apiVersion, kind: resource.kind, ...(resource.namespace ? { namespace: resource.namespace } : {}), name: resource.name };
        finding.path = ['metadata', 'name'];
        if (resource.kind === 'PersistentVolumeClaim') finding.note = 'the line is in the values entry that renders the claim (found by its access mode)';
        findings.push(finding);
      }
      own.add(k);
      if (!holder) holders.set(k, { resource, by: release });
    }
  }
  return findings;
}
