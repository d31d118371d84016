// Where a (resource, path) finding lives in the repo: the renderer's locator for rendered output,
// else the node at the path in the resource's own file.
import { locateInNode } from './locate-node.js';
import type { JsonPath, Located, Resource } from '../types.js';

/** Remembers where paths of one resource are (`--cache`: positions found in an earlier run, without parsing). */
export interface PositionMemo {
  get(path: JsonPath): Located | undefined;
  set(path: JsonPath, located: Located): void;
}

const memos = new WeakMap<Resource, PositionMemo>();

export function setPositionMemo(resource: Resource, memo: PositionMemo): void {
  memos.set(resource, memo);
}

export function locate(resource: Resource, path: JsonPath): Located {
  if (resource.locate) return resource.locate(path);
  const memo = memos.get(resource);
  const known = memo?.get(path);
  if (known) return known;
  const located = locateInNode(resource.file, resource.node, path);
  memo?.set(path, located);
  return located;
}
