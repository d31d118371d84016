// Where a (resource, path) finding lives in the repo: the renderer's locator for rendered output,
// else the node at the path in the resource's own file.
import { locateInNode } from './locate-node.js';
import type { JsonPath, Located, Resource } from '../types.js';

export function locate(resource: Resource, path: JsonPath): Located {
  if (resource.locate) return resource.locate(path);
  return locateInNode(resource.file, resource.node, path);
}
