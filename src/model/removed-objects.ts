// Objects the repository itself removes from an environment (an overlay's `$patch: delete`), as the renderer found
// them: a rule can then say "removed by this repository" instead of "not in the repository".
import type { Resource } from '../types.js';

export interface RemovedObject {
  /** The object as its source file declares it (name before prefixes), located in that file. */
  resource: Resource;
  /** The `$patch: delete` patch that removes it: a patch file's document or the kustomization's patch entry. */
  deletedBy?: Resource;
}
