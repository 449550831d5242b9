import { HindsightError } from '../../../shared/errors.js';
import type { GitSource } from '../../../shared/history.js';
import { catFileBlob } from './catFileBlob.js';
import type { GitContext } from './gitContext.js';
import { GitOutputOverflow } from './gitErrors.js';
import { lsFilesStage } from './lsFilesStage.js';
import { lsTreeEntry } from './lsTree.js';
import { entryKind } from './treeEntry.js';

// One file's whole bytes as git holds it: committed (HEAD) or staged (INDEX). What the CLI's
// `show --version HEAD` writes, the viewer compares with, and a restore from git writes back.

/** Contents larger than this are refused rather than held in memory. */
export const GIT_FILE_ALLOWANCE = 256 * 1024 * 1024;

export interface GitFile {
  source: GitSource;
  /** git's object id. */
  blob: string;
  type: 'file' | 'symlink';
  mode: number;
  /** The contents; a link's target. */
  bytes: Buffer;
  /** The commit HEAD is on (HEAD) or null (INDEX). */
  commit: string | null;
}

export async function gitFileAt(git: GitContext, path: string, source: GitSource, allowance = GIT_FILE_ALLOWANCE): Promise<GitFile> {
  const repo = git.repository();
  if (!repo) throw new HindsightError('NOT_FOUND', `${path} has no ${source} version: the project is not in a git repository.`, { path, source });
  const full = repo.prefix + path;
  const commit = source === 'HEAD' ? (await git.head()).head : null;
  if (source === 'HEAD' && !commit) throw new HindsightError('NOT_FOUND', `${path} has no HEAD version: the repository has no commit yet.`, { path, source });
  const entry = source === 'HEAD' ? await lsTreeEntry(repo.workTree, commit!, full) : await lsFilesStage(repo.workTree, full);
  const kind = entry && entryKind(entry.gitMode);
  if (!entry || !kind) {
    const where = source === 'HEAD' ? 'committed at HEAD' : 'staged (in the index)';
    throw new HindsightError('NOT_FOUND', `${path} is not ${where}.`, { path, source });
  }
  let bytes: Buffer;
  try {
    bytes = await catFileBlob(repo.workTree, entry.oid, allowance);
  } catch (error) {
    if (error instanceof GitOutputOverflow) {
      throw new HindsightError('GIT_OUTPUT_OVERFLOW', `The ${source} version of ${path} is larger than ${allowance} bytes.`, { path, source });
    }
    throw error;
  }
  return { source, blob: entry.oid, ...kind, bytes, commit };
}
