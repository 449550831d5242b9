import { count } from '../trace.js';
import { nulRecords } from './nulRecords.js';
import { runGit } from './runGit.js';
import { LITERAL_PATHS } from './treeEntry.js';

// The files git tracks under a folder (`git ls-files -z`, paths relative to that folder) and the
// folders holding them. git keeps tracking a file a .gitignore pattern matches (a committed
// `.env`, a vendored build): the history records it too, so ignore rules never hide a tracked file.
// Callers go through trackedPathsCache.ts, which runs this only when git's index changed.

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
  count('git.trackedLists');
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const path of nulRecords(result.stdout)) {
    files.add(path);
    addFoldersOf(path, folders);
  }
  return { files, folders };
}

/** git lists paths sorted, so a file's folders are nearly always known already: stop at the first one seen. */
function addFoldersOf(path: string, folders: Set<string>): void {
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    const folder = path.slice(0, slash);
    if (folders.has(folder)) return;
    folders.add(folder);
  }
}
