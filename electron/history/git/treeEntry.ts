// One entry of a git tree or of the index: its mode (as git writes it, e.g. "100644"), its object
// id, and whether it is a file, a link or something Hindsight does not keep (a submodule).

export interface TreeEntry {
  gitMode: string;
  oid: string;
  path: string;
}

export type GitEntryType = 'file' | 'symlink';

/** A git mode as Hindsight records modes (lstat's permission bits), or undefined for a submodule. */
export function entryKind(gitMode: string): { type: GitEntryType; mode: number } | undefined {
  if (gitMode === '100644') return { type: 'file', mode: 0o644 };
  if (gitMode === '100755') return { type: 'file', mode: 0o755 };
  if (gitMode === '120000') return { type: 'symlink', mode: 0o777 };
  return undefined;
}

/** Git reads paths in pathspecs literally with this: a '*' in a file name is not a pattern. */
export const LITERAL_PATHS = { GIT_LITERAL_PATHSPECS: '1' };
