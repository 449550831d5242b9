import type { RestoreFileResult } from '../../../shared/contract/values.js';
import { HindsightError } from '../../../shared/errors.js';
import type { GitSource } from '../../../shared/history.js';
import { isUnderPrefix } from '../../../shared/projectPath.js';
import type { NewBlob, NewOrigin, NewSnapshot } from '../db/commitSnapshot.js';
import { gitFileAt } from '../git/gitFileAt.js';
import type { ProjectStore } from '../project/projectStore.js';
import { statPath } from '../walk/statPath.js';
import { undoesFileRestore } from './restoreOrigin.js';
import { safeTarget } from '../paths/safeTarget.js';
import { SpecialModes } from './specialModes.js';
import { planFileSteps, takeFileSteps, type Contents, type Modes } from './fileRestoreSteps.js';
import { assertOneSpelling } from './nameCollisions.js';
import { versionName } from '../db/versionOrdinal.js';

// Restores one file to one of its versions, or to git's committed (HEAD) or staged (INDEX)
// version. What the file holds now is recorded first when it is not already the latest version
// (a restore never loses data), and the restore itself is a snapshot of kind 'restore', so it is
// undone by restoring the version the file had just before (undoVersionId in the result). The
// snapshot says where the contents came from (its origin): a version, git, or the undo of the
// restore before it. Its steps are the snapshot restore's, on this one path (fileRestoreSteps.ts):
// planned before anything is written, journaled, put back on a failure, and completed or put back
// by the next open when the restore is killed midway. Where names fold, a restore that would land
// on a file under another spelling is refused (nameCollisions.ts).

/**
 * Records paths as they are on disk, as one snapshot (versions/recordPaths.ts, given by the
 * caller: restore/ sits below versions/ and never imports it).
 */
export type RecordBefore = (store: ProjectStore, paths: readonly string[], snapshot: NewSnapshot) => Promise<{ snapshotId: number | undefined }>;

/** What the restore snapshot records: its label, where it came from, and a blob it needs filed. */
export interface RestoreRecord {
  label: string;
  origin: NewOrigin;
  fromVersionId: number | null;
  /** A blob the index does not name yet (git's contents, filed just now). */
  blob?: NewBlob;
}

export async function restoreFile(
  store: ProjectStore,
  path: string,
  versionId: number,
  recordBefore: RecordBefore,
  options: { keepSpecialModes?: boolean } = {},
): Promise<RestoreFileResult> {
  checkTarget(store, path);
  const version = store.index.versions.version(versionId);
  // A version from before the file was renamed to this path restores here too (its contents at the new name).
  if (!version || !store.index.renames.inLineage(path, version)) {
    throw new HindsightError('VERSION_NOT_FOUND', `There is no version ${versionId} of ${path}.`, { path, versionId });
  }
  const undoing = undoesFileRestore(store, path, versionId);
  const modes = new SpecialModes(store.index, options.keepSpecialModes === true);
  const mode = version.hash === null ? version.mode : modes.versionMode(version);
  const contents: Contents = {
    hash: version.hash,
    size: version.size,
    mode,
    type: version.type,
    target: version.target,
    modesAt: version.snapshotId,
    versionId,
  };
  return putBack(store, path, contents, modes, recordBefore, (capturedNothing) =>
    undoing && capturedNothing
      ? { label: `Undid the restore of ${path}`, origin: { kind: 'undo' }, fromVersionId: versionId }
      : { label: `Restored ${path} to ${versionName(store.index, path, versionId)}`, origin: { kind: 'restore' }, fromVersionId: versionId },
  );
}

/** Restores a file to git's HEAD or INDEX version; the bytes are filed into the store first. */
export async function restoreFromGit(store: ProjectStore, path: string, source: GitSource, recordBefore: RecordBefore): Promise<RestoreFileResult> {
  checkTarget(store, path);
  const git = await gitFileAt(store.git, path, source);
  // Git's bytes repair a blob found damaged, like any other copy of them.
  const { hash, repaired, stored } = store.blobs.put(git.bytes, { rewrite: new Set(store.index.damage.damagedHashes()) });
  if (repaired) store.index.damage.clearDamaged([hash]);
  const target = git.type === 'symlink' ? git.bytes.toString('utf8') : null;
  const contents: Contents = {
    hash,
    size: git.bytes.length,
    mode: git.mode,
    type: git.type,
    target,
    modesAt: store.index.snapshotReads.latestSnapshotId() ?? 0,
  };
  const at = git.commit ? ` (${git.commit.slice(0, 7)})` : '';
  // Git's modes are this repository's own: kept as they are.
  return putBack(store, path, contents, new SpecialModes(store.index, true), recordBefore, () => ({
    label: `Restored ${path} to git ${source}${at}`,
    origin: { kind: 'restore', fromGit: source },
    fromVersionId: null,
    blob: { hash, size: git.bytes.length, ...(stored === undefined ? {} : { storedSize: stored }) },
  }));
}

export function checkTarget(store: ProjectStore, path: string): void {
  safeTarget(store.root, path);
  if (store.dataFolder !== undefined && isUnderPrefix(path, store.dataFolder)) {
    throw new HindsightError('PATH_INVALID', `Cannot restore ${path}: it is inside Hindsight's data folder.`, { path });
  }
}

export async function putBack(
  store: ProjectStore,
  path: string,
  contents: Contents,
  modes: Modes,
  recordBefore: RecordBefore,
  record: (capturedNothing: boolean) => RestoreRecord,
): Promise<RestoreFileResult> {
  safeTarget(store.root, path);
  assertOneSpelling(store.root, path);
  // The planner's check on this one path, before anything is recorded or written.
  planFileSteps(store, path, contents, modes);
  const captured = await recordBefore(store, [path], { kind: 'change', label: `Before restoring ${path}` });
  const how = record(captured.snapshotId === undefined);
  // What the file held just before, now recorded: a deletion when it did not exist.
  const undoVersionId = store.index.versions.latestVersion(path)?.versionId ?? null;
  // Planned again from the disk as the capture recorded it: what a rollback puts back.
  const steps = planFileSteps(store, path, contents, modes);
  const snapshotId = await takeFileSteps(store, path, steps, contents, modes, () => commitFileRestore(store, path, contents, how));
  const versionId = store.index.versions.latestVersion(path)?.versionId ?? 0;
  return {
    snapshotId,
    capturedSnapshotId: captured.snapshotId ?? null,
    path,
    versionId: how.fromVersionId ?? versionId,
    undoVersionId,
    fromGit: how.origin.fromGit ?? null,
    specialModesDropped: modes.dropped,
  };
}

/** The restore as one snapshot of kind 'restore', with the file's stat so the next rescan need not hash it. */
function commitFileRestore(store: ProjectStore, path: string, contents: Contents, how: RestoreRecord): number {
  const after = statPath(store.root, path);
  const { hash, mode, size, type, target } = contents;
  return store.index.commitSnapshot({
    snapshot: { kind: 'restore', label: how.label, origin: how.origin },
    versions: [{ path, hash, mode, size, type: type ?? null, target: target ?? null, fromVersionId: how.fromVersionId }],
    blobs: how.blob ? [how.blob] : [],
    stats:
      after && hash
        ? [
            {
              path,
              type: after.type,
              size: after.size,
              mode: after.mode,
              mtimeNs: after.mtimeNs,
              ctimeNs: after.ctimeNs,
              ino: after.ino,
              hash,
              target: after.target ?? null,
            },
          ]
        : [],
    removedStats: after ? [] : [path],
  });
}
