// A scope's model input as plain data, for a custom rule that runs in a worker thread (isolated-rule.ts): the
// resources (objects, ids, kinds, names, namespaces, files by path), the StorageClasses only the configuration
// declares, the objects the repository removes, and the model's options and cluster facts. YAML nodes, source
// texts and locators stay on the main thread: a report names a resource by its index here, and the main thread
// issues it with its own resource, so every finding is located exactly as an in-process rule's would be.
import { makeSourceFile } from '../load/source-file.js';
import type { DeclaredStorageClass, DriverOverride } from '../model/cluster-facts.js';
import type { MeshDefaults } from '../model/mesh.js';
import type { RemovedObject } from '../model/removed-objects.js';
import { StorageModel, type ModelOptions } from '../model/storage-model.js';
import type { Resource, RenderOrigin } from '../types.js';

interface FileData {
  absPath: string;
  path: string;
}

export interface ResourceData {
  id: string;
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | undefined;
  object: unknown;
  docIndex: number;
  file: FileData;
  origin?: { renderer: RenderOrigin['renderer']; file?: FileData; docIndex?: number; note?: string };
}

export interface ModelSnapshot {
  /** The model's resources, then the objects removed objects name (`removed` points into this list). */
  resources: ResourceData[];
  /** How many of `resources` are the model's own; the rest only stand in `removed`. */
  own: number;
  removed: { resource: number; deletedBy?: number }[];
  declaredClasses: Omit<DeclaredStorageClass, 'declaredAt'>[];
  options: {
    scope: string;
    defaultNamespace: string;
    bundleComplete: boolean;
    wholeCluster: boolean;
    meshDefaults: MeshDefaults;
    kubernetesVersion?: string;
    drivers: Omit<DriverOverride, 'declaredAt'>[];
  };
}

/** How a report names a resource: an index into the snapshot's resources, or a declared class by name. */
export type ResourceRef = number | { declaredClass: string };

const DEFAULT_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

const fileData = (file: { absPath: string; path: string }): FileData => ({ absPath: file.absPath, path: file.path });

function resourceData(resource: Resource): ResourceData {
  const origin = resource.origin;
  return {
    id: resource.id,
    apiVersion: resource.apiVersion,
    kind: resource.kind,
    name: resource.name,
    namespace: resource.namespace,
    object: resource.object,
    docIndex: resource.docIndex,
    file: fileData(resource.file),
    ...(origin
      ? { origin: { renderer: origin.renderer, ...(origin.file ? { file: fileData(origin.file) } : {}), ...(origin.docIndex !== undefined ? { docIndex: origin.docIndex } : {}), ...(origin.note !== undefined ? { note: origin.note } : {}) } }
      : {}),
  };
}

function declaredClassOf(resource: Resource): Omit<DeclaredStorageClass, 'declaredAt'> {
  const object = resource.object ?? {};
  return {
    name: resource.name,
    provisioner: object.provisioner,
    ...(object.volumeBindingMode !== undefined ? { volumeBindingMode: object.volumeBindingMode } : {}),
    ...(object.metadata?.annotations?.[DEFAULT_ANNOTATION] === 'true' ? { default: true } : {}),
    ...(object.allowVolumeExpansion !== undefined ? { allowVolumeExpansion: object.allowVolumeExpansion } : {}),
    ...(object.reclaimPolicy !== undefined ? { reclaimPolicy: object.reclaimPolicy } : {}),
    ...(object.parameters !== undefined ? { parameters: object.parameters } : {}),
  };
}

/** The snapshot of `model`, and the main thread's resource behind each reference a report can make. */
export function takeSnapshot(model: StorageModel): { snapshot: ModelSnapshot; resolve: (ref: ResourceRef) => Resource | undefined } {
  const resources = [...model.resources];
  const own = resources.length;
  const indexOf = new Map<Resource, number>();
  resources.forEach((resource, i) => indexOf.set(resource, i));
  const refer = (resource: Resource): number => {
    let index = indexOf.get(resource);
    if (index === undefined) {
      index = resources.push(resource) - 1;
      indexOf.set(resource, index);
    }
    return index;
  };
  const removed = model.removed.map((r) => ({ resource: refer(r.resource), ...(r.deletedBy ? { deletedBy: refer(r.deletedBy) } : {}) }));
  const declared = model.declaredClasses();
  const declaredByName = new Map(declared.map((resource) => [resource.name, resource]));
  const snapshot: ModelSnapshot = {
    resources: resources.map(resourceData),
    own,
    removed,
    declaredClasses: declared.map(declaredClassOf),
    options: {
      scope: model.scope,
      defaultNamespace: model.defaultNamespace,
      bundleComplete: model.bundleComplete,
      wholeCluster: model.wholeCluster,
      meshDefaults: model.meshDefaults,
      ...(model.kubernetesVersion ? { kubernetesVersion: model.kubernetesVersion.text } : {}),
      drivers: model.driverOverrides.map(({ declaredAt: _declaredAt, ...driver }) => driver),
    },
  };
  return { snapshot, resolve: (ref) => (typeof ref === 'number' ? resources[ref] : declaredByName.get(ref.declaredClass)) };
}

/** The model a worker builds from a snapshot, and the reference of each of its resources. */
export function modelFromSnapshot(snapshot: ModelSnapshot): { model: StorageModel; refer: (resource: unknown) => ResourceRef | undefined } {
  const files = new Map<string, ReturnType<typeof makeSourceFile>>();
  const fileOf = (data: FileData) => {
    const key = `${data.absPath}\u0000${data.path}`;
    let file = files.get(key);
    if (!file) files.set(key, (file = makeSourceFile(data.absPath, data.path, '')));
    return file;
  };
  const resources: Resource[] = snapshot.resources.map((data) => ({
    id: data.id,
    apiVersion: data.apiVersion,
    kind: data.kind,
    name: data.name,
    namespace: data.namespace,
    object: data.object,
    docIndex: data.docIndex,
    file: fileOf(data.file),
    // Nodes stay with the main thread, which locates every report.
    node: undefined as unknown as Resource['node'],
    ...(data.origin
      ? { origin: { renderer: data.origin.renderer, ...(data.origin.file ? { file: fileOf(data.origin.file) } : {}), ...(data.origin.docIndex !== undefined ? { docIndex: data.origin.docIndex } : {}), ...(data.origin.note !== undefined ? { note: data.origin.note } : {}) } }
      : {}),
  }));
  const removed: RemovedObject[] = snapshot.removed.map((r) => ({ resource: resources[r.resource], ...(r.deletedBy !== undefined ? { deletedBy: resources[r.deletedBy] } : {}) }));
  const options: ModelOptions = {
    scope: snapshot.options.scope,
    defaultNamespace: snapshot.options.defaultNamespace,
    bundleComplete: snapshot.options.bundleComplete,
    wholeCluster: snapshot.options.wholeCluster,
    meshDefaults: snapshot.options.meshDefaults,
    cluster: {
      storageClasses: snapshot.declaredClasses,
      drivers: snapshot.options.drivers,
      ...(snapshot.options.kubernetesVersion !== undefined ? { kubernetesVersion: snapshot.options.kubernetesVersion } : {}),
    },
    removed,
  };
  const model = new StorageModel(resources.slice(0, snapshot.own), options);
  const indexOf = new Map<unknown, ResourceRef>();
  resources.forEach((resource, i) => indexOf.set(resource, i));
  for (const declared of model.declaredClasses()) indexOf.set(declared, { declaredClass: declared.name });
  return { model, refer: (resource) => indexOf.get(resource) };
}
