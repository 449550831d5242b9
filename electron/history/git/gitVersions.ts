import { createHash } from 'node:crypto';
import type { GitFileVersion, GitVersions } from '../../../shared/git.js';
import { catFileBlob, catFileSize } from './catFileBlob.js';
import type { GitContext } from './gitContext.js';
import { GitOutputOverflow } from './gitErrors.js';
import { lsFilesStage } from './lsFilesStage.js';
import { lsTreeEntry } from './lsTree.js';
import { entryKind, type TreeEntry } from './treeEntry.js';

// The git versions of one file beside its Hindsight versions: the committed one (HEAD) as the
// comparison point, and the staged one when it differs from HEAD.

/** Blobs up to this size are read to hash them; larger ones are shown by size only. */
export const BLOB_ALLOWANCE = 64 * 1024 * 1024;
/** Contents up to this size that are UTF-8 text come with their text. */
export const TEXT_LIMIT = 1024 * 1024;

export async function gitVersions(git: GitContext, path: string, blobAllowance = BLOB_ALLOWANCE): Promise<GitVersions> {
  const repo = git.repository();
  if (!repo) return { repository: false, branch: null, commit: null };
  const { branch, head: commit } = await git.head();
  const full = repo.prefix + path;
  const [committed, staged] = await Promise.all([commit ? lsTreeEntry(repo.workTree, commit, full) : undefined, lsFilesStage(repo.workTree, full)]);
  const result: GitVersions = { repository: true, branch, commit };
  const headVersion = committed && (await fileVersion(repo.workTree, committed, blobAllowance));
  if (headVersion) result.head = headVersion;
  if (staged && (!committed || staged.oid !== committed.oid || staged.gitMode !== committed.gitMode)) {
    const indexVersion = await fileVersion(repo.workTree, staged, blobAllowance);
    if (indexVersion) result.index = indexVersion;
  }
  return result;
}

async function fileVersion(workTree: string, entry: TreeEntry, allowance: number): Promise<GitFileVersion | undefined> {
  const kind = entryKind(entry.gitMode);
  if (!kind) return undefined;
  let bytes: Buffer;
  try {
    bytes = await catFileBlob(workTree, entry.oid, allowance);
  } catch (error) {
    if (!(error instanceof GitOutputOverflow)) throw error;
    return { blob: entry.oid, hash: null, size: await catFileSize(workTree, entry.oid), ...kind };
  }
  const version: GitFileVersion = { blob: entry.oid, hash: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, ...kind };
  const text = asText(bytes);
  if (text !== undefined) version.text = text;
  return version;
}

function asText(bytes: Buffer): string | undefined {
  if (bytes.length > TEXT_LIMIT || bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
