import { dataDirWithin } from './dataDirPlace.js';
import { resolveFolder } from './projectStore.js';

/**
 * A folder given for a project (to open, relocate, clone or import into) as its real path; a
 * folder inside the data folder is refused before anything is registered for it.
 */
export function projectFolder(folder: string, dataDir: string): string {
  const root = resolveFolder(folder);
  dataDirWithin(root, dataDir);
  return root;
}
