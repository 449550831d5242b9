import type { NewBlob, NewVersion } from '../db/commitSnapshot.js';
import { catFileBatch } from '../git/catFileBatch.js';
import { diffTree } from '../git/diffTree.js';
import type { HeadMove } from '../git/headLog.js';
import { entryKind } from '../git/treeEntry.js';
import type { ProjectStore } from '../project/projectStore.js';

// What one move of HEAD wrote into the working tree, taken from git's objects instead of the disk:
// the files that differ between the commit HEAD left and the one it reached (`git diff-tree`), each
// with the mode and bytes `to` holds (`git cat-file --batch`), a deletion where `to` holds nothing.
// It is how a move is recorded once the disk has moved on (a later checkout rewrote the files
// before this one's group was written): the objects hold exactly what the checkout wrote.

export interface MoveChanges {
  /** Sorted by path; only those that differ from the history's latest version. */
  versions: NewVersion[];
  blobs: NewBlob[];
  /** Every project path the move wrote or removed, recorded or not. */
  paths: string[];
}

export interface MoveRules {
  /** Whether a path is recorded at all (the user's exclude patterns, the data folder). */
  keep: (path: string) => boolean;
  /** New files larger than this are not recorded, as from the disk. */
  maxFileSize?: number | null;
}

/**
 * `committed`: the move is a commit, which writes no file: a path the history holds keeps the mode
 * the disk gave it (git keeps only the executable bit), unless the commit changed that bit.
 */
export async function moveChanges(store: ProjectStore, move: HeadMove, { keep, maxFileSize }: MoveRules, committed = false): Promise<MoveChanges> {
  const repo = store.git.repository();
  if (!repo) return { versions: [], blobs: [], paths: [] };
  const changes = (await diffTree(repo.workTree, move.from, move.to, repo.prefix)).filter((c) => c.path.startsWith(repo.prefix));
  const paths = changes.map((c) => c.path.slice(repo.prefix.length));
  const wanted = changes.filter((c, i) => keep(paths[i]!) && c.gitMode !== undefined && entryKind(c.gitMode) !== undefined);
  const bytes = await catFileBatch(
    repo.workTree,
    wanted.map((c) => c.oid!),
  );
  const damaged = new Set(store.index.damage.damagedHashes());
  const versions: NewVersion[] = [];
  const blobs: NewBlob[] = [];
  for (const [i, change] of changes.entries()) {
    const path = paths[i]!;
    if (!keep(path)) continue;
    const latest = store.index.versions.latestVersionOf(path);
    const kind = change.gitMode === undefined ? undefined : entryKind(change.gitMode);
    const content = change.oid === undefined ? undefined : bytes.get(change.oid);
    if (!kind || !content) {
      // Gone at `to` (or a submodule, which is not a file): a deletion of what the history holds.
      if (latest?.hash) versions.push({ path, hash: null, mode: 0, size: 0, type: null });
      continue;
    }
    if (maxFileSize != null && content.length > maxFileSize && !latest?.hash) continue;
    const { hash, repaired, stored } = store.blobs.put(content, { rewrite: damaged });
    if (repaired) store.index.damage.clearDamaged([hash]);
    const target = kind.type === 'symlink' ? content.toString('utf8') : null;
    const mode = committed && latest?.hash && (latest.mode & 0o111) === (kind.mode & 0o111) ? latest.mode : kind.mode;
    if (latest && latest.hash === hash && latest.mode === mode && (latest.type ?? null) === kind.type && (latest.target ?? null) === target) continue;
    versions.push({ path, hash, mode, size: content.length, type: kind.type, target });
    blobs.push({ hash, size: content.length, ...(stored === undefined ? {} : { storedSize: stored }) });
  }
  versions.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { versions, blobs, paths };
}
