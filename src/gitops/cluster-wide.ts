// Cluster-wide objects defined in another environment: a claim's StorageClass (or a snapshot's
// VolumeSnapshotClass) that is not in the claim's environment but is defined elsewhere in the repository is
// used for the capability checks as a stated assumption, located at its definition with a note saying so.
import { deriveResource, derivedFrom } from '../load/parse-resources.js';
import type { LocateAt, Resource } from '../types.js';
import type { NotInterpreted } from './not-interpreted.js';

interface ScopeLike {
  name: string;
  resources: readonly Resource[];
}

const REFERENCES: Record<string, (object: any) => string[]> = {
  StorageClass: (object) => {
    const names: string[] = [];
    if (object?.kind === 'PersistentVolumeClaim') {
      names.push(object.spec?.storageClassName, object.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class']);
    }
    const templates = object?.spec?.volumeClaimTemplates ?? object?.spec?.template?.spec?.volumeClaimTemplates;
    if (Array.isArray(templates)) for (const t of templates) names.push(t?.spec?.storageClassName);
    const volumes = object?.spec?.template?.spec?.volumes ?? object?.spec?.jobTemplate?.spec?.template?.spec?.volumes ?? object?.spec?.volumes;
    if (Array.isArray(volumes)) for (const v of volumes) names.push(v?.ephemeral?.volumeClaimTemplate?.spec?.storageClassName);
    return names.filter((n): n is string => typeof n === 'string' && n !== '' && !n.includes('${'));
  },
  VolumeSnapshotClass: (object) => (object?.kind === 'VolumeSnapshot' && typeof object.spec?.volumeSnapshotClassName === 'string' ? [object.spec.volumeSnapshotClassName] : []),
};

/** What decides a class's behaviour; two definitions that differ in it are not one cluster-wide object. */
function behaviour(resource: Resource): string {
  const { provisioner, driver, parameters, volumeBindingMode, allowVolumeExpansion, deletionPolicy } = resource.object ?? {};
  return JSON.stringify([provisioner, driver, parameters, volumeBindingMode, allowVolumeExpansion, deletionPolicy]);
}

/**
 * For each environment, the classes it names but does not define that exactly one definition elsewhere in the
 * repository provides (several that disagree: none is assumed), and the assumption stated as an entry.
 * `declared` are the classes the configuration declares as cluster facts: they win.
 */
export function borrowClusterWide(scopes: readonly ScopeLike[], declared: ReadonlySet<string>, locate: LocateAt): Map<string, { resources: Resource[]; assumptions: NotInterpreted[] }> {
  const borrowed = new Map<string, { resources: Resource[]; assumptions: NotInterpreted[] }>();
  for (const kind of Object.keys(REFERENCES)) {
    const definitions = new Map<string, { resource: Resource; scope: string }[]>();
    for (const scope of scopes) {
      for (const resource of scope.resources) {
        if (resource.kind !== kind) continue;
        const list = definitions.get(resource.name) ?? [];
        list.push({ resource, scope: scope.name });
        definitions.set(resource.name, list);
      }
    }
    if (definitions.size === 0) continue;
    for (const scope of scopes) {
      const own = new Set(scope.resources.filter((r) => r.kind === kind).map((r) => r.name));
      const wanted = new Set(scope.resources.flatMap((r) => REFERENCES[kind](r.object)).filter((name) => !own.has(name) && !(kind === 'StorageClass' && declared.has(name))));
      for (const name of wanted) {
        const found = (definitions.get(name) ?? []).filter((d) => d.scope !== scope.name);
        if (found.length === 0 || new Set(found.map((d) => behaviour(d.resource))).size > 1) continue;
        const source = found[0].resource;
        const where = locate(source, ['metadata', 'name']).location;
        const why = `${kind} "${name}" is defined in ${where.file}, which no environment containing this object includes (it is in ${found.map((d) => d.scope).join(', ')}); assumed to exist in this cluster`;
        const assumed = deriveResource(source, { sourceOrigin: derivedFrom(source, why) });
        const entry = borrowed.get(scope.name) ?? { resources: [], assumptions: [] };
        entry.resources.push(assumed);
        entry.assumptions.push({ environment: scope.name, file: where.file, line: where.region.startLine, kind, name, reason: `assumption: ${why}` });
        borrowed.set(scope.name, entry);
      }
    }
  }
  return borrowed;
}
