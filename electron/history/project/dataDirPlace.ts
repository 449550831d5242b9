import { realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import { diskSpelling } from '../paths/diskSpelling.js';
import { isInside } from '../paths/safeTarget.js';

// The data folder (config, every history) may lie inside a project: the default one does when the
// project is a home folder. It is then never recorded: walks and watchers skip it, and a restore
// never writes into it (a history that recorded its own database would record its own writes
// forever). A project that is the data folder, or lies inside it, is refused.

/** The data folder's path inside the project ('/'-separated), or undefined when it lies outside. */
export function dataDirWithin(root: string, dataDir: string): string | undefined {
  const data = realpathOrSelf(dataDir);
  if (isInside(data, root)) {
    throw new HindsightError(
      'FOLDER_IN_DATA_DIR',
      `${root} is ${root === data ? '' : 'inside '}Hindsight's data folder ${data}: its history cannot be kept in itself. Choose a folder outside it.`,
      { root, dataDir: data },
    );
  }
  if (!isInside(root, data)) return undefined;
  return relative(root, data).split(sep).join('/');
}

export function realpathOrSelf(path: string): string {
  try {
    return diskSpelling(realpathSync(path));
  } catch {
    return path;
  }
}
