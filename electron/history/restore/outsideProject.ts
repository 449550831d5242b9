import { HindsightError } from '../../../shared/errors.js';
import { deepestReal } from '../project/userPath.js';
import { isInside } from '../paths/safeTarget.js';

// `restore --into` promises the project is not touched: a target inside it (named directly, or
// through a link or a parent that is one) would write the snapshot's files into the folder the
// history records. The target may not exist yet, so its deepest existing ancestor is resolved.
// A target that contains the project cannot be new or empty, so it is refused as not empty.

/** Throws FOLDER_IN_PROJECT when `target` is the project folder `root` (a real path) or lies inside it. */
export function assertOutsideProject(root: string, target: string): void {
  if (isInside(root, deepestReal(target))) {
    throw new HindsightError(
      'FOLDER_IN_PROJECT',
      `${target} is inside the project folder ${root}, which restore --into never touches; choose a folder outside it.`,
      { into: target, root },
    );
  }
}
