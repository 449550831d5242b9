// What Hindsight knows of a folder's git repository, as data for the CLI and the viewer.

/** A folder in a git repository, with the branch and commit HEAD is on; false when it is not in one. */
export type GitFolderState = false | { repository: true; branch: string | null; head: string | null };

/** One git version of a file: committed (HEAD) or staged (index). */
export interface GitFileVersion {
  /** git's object id of the contents. */
  blob: string;
  /** SHA-256 of the contents, as Hindsight names blobs: equal hashes mean equal bytes. Null when too large to read. */
  hash: string | null;
  size: number;
  /** Permission bits as Hindsight records them (0o644, 0o755; 0o777 for a link). */
  mode: number;
  type: 'file' | 'symlink';
  /** The contents as text, when they are UTF-8 text of a readable size. */
  text?: string;
}

export interface GitVersions {
  repository: boolean;
  branch: string | null;
  /** The commit HEAD is on. */
  commit: string | null;
  /** The committed version, absent when the file is not in HEAD. */
  head?: GitFileVersion;
  /** The staged version, present only when it differs from the committed one. */
  index?: GitFileVersion;
}
