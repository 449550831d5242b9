import { nulRecords } from './nulRecords.js';
import { runGit } from './runGit.js';
import { LITERAL_PATHS, type TreeEntry } from './treeEntry.js';

// The committed entry of one path: `git ls-tree -z --full-tree <commit> -- <path>`, each record
// "<mode> SP <type> SP <oid> TAB <path>". A folder or a submodule at the path is not a file entry.

export async function lsTreeEntry(workTree: string, commit: string, path: string): Promise<TreeEntry | undefined> {
  const result = await runGit(['ls-tree', '-z', '--full-tree', commit, '--', path], { cwd: workTree, env: LITERAL_PATHS, allowance: 1024 * 1024 });
  for (const record of nulRecords(result.stdout)) {
    const tab = record.indexOf('\t');
    const [gitMode, type, oid] = record.slice(0, tab).split(' ');
    if (tab !== -1 && record.slice(tab + 1) === path && type === 'blob' && gitMode && oid) return { gitMode, oid, path };
  }
  return undefined;
}
