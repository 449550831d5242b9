import { nulRecords } from './nulRecords.js';
import { runGit } from './runGit.js';
import { LITERAL_PATHS } from './treeEntry.js';

// The files git tracks under a folder (`git ls-files -z`, paths relative to that folder) and the
// folders holding them. git keeps tracking a file a .gitignore pattern matches (a committed
// `.env`, a vendored build): the history records it too, so ignore rules never hide a tracked file.

export interface TrackedPaths {
  files: ReadonlySet<string>;
  /** Every folder on the way to a tracked file: a walk enters them even when a pattern ignores them. */
  folders: ReadonlySet<string>;
}

export const NOTHING_TRACKED: TrackedPaths = { files: new Set(), folders: new Set() };

const MOST_BYTES = 256 * 1024 * 1024;

export async function trackedPaths(folder: string): Promise<TrackedPaths> {
  const result = await runGit(['ls-files', '-z', '--cached'], { cwd: folder, env: LITERAL_PATHS, allowance: MOST_BYTES, okCodes: [0, 128] });
  if (result.code !== 0) return NOTHING_TRACKED;
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const path of nulRecords(result.stdout)) {
    files.add(path);
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) folders.add(path.slice(0, slash));
  }
  return { files, folders };
}
