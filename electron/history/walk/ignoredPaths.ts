import type { TrackedPaths } from '../git/trackedPaths.js';
import { walkFolder } from './walkFolder.js';

// What ignore rules leave out of a folder now, as the first copy and every rescan leave it out:
// files, and folders never entered as one path ending in '/' (as `git status --ignored` shows
// them). Files git tracks are never among them.

export async function ignoredPaths(root: string, options: { exclude?: readonly string[]; tracked?: TrackedPaths; skip?: string }): Promise<string[]> {
  const ignored: string[] = [];
  await walkFolder(root, { ...options, ignored, unreadable: [] });
  return ignored;
}
