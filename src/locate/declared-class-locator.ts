// A StorageClass declared in the configuration (`cluster.storageClasses`): every field is its config entry's.
import { locateInNode } from '../load/locate-node.js';
import type { DeclaredClassSource } from '../model/cluster-facts.js';
import type { JsonPath, Located } from '../types.js';

/** The entry's key for a path of the StorageClass object: its name, its `default:`, or the field of the same name. */
function configPath(path: JsonPath): JsonPath {
  if (path[0] === 'metadata') return path[1] === 'annotations' ? ['default'] : ['name'];
  return path.length > 0 ? [path[0]] : [];
}

export function locateDeclaredClass(origin: DeclaredClassSource, path: JsonPath): Located {
  const located = locateInNode(origin.file, origin.node, configPath(path));
  return { location: located.location, note: `StorageClass "${origin.name}" is declared in the pvlint configuration (cluster.storageClasses)` };
}
