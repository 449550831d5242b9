import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RestoreFileResult } from '../../../shared/contract/values.js';
import { HindsightError } from '../../../shared/errors.js';
import { isUnderPrefix } from '../../../shared/projectPath.js';
import { fsError } from '../fsErrors.js';
import type { ProjectStore } from '../project/projectStore.js';
import { recordPaths } from '../versions/recordPaths.js';
import { statPath } from '../versions/statPath.js';
import { FolderMaker } from './folderMaker.js';
import { withRestoreTemps } from './restoreTemps.js';
import { safeTarget } from './safeTarget.js';
import { writeVersion } from './writeVersion.js';

// Restores one file to one of its versions. What the file holds now is recorded first when it is
// not already the latest version (a restore never loses data), and the restore itself is a
// snapshot of kind 'restore', so it is undone by restoring the version the file had just before
// (undoVersionId in the result).

export async function restoreFile(store: ProjectStore, path: string, versionId: number): Promise<RestoreFileResult> {
  const absTarget = safeTarget(store.root, path);
  if (store.dataFolder !== undefined && isUnderPrefix(path, store.dataFolder)) {
    throw new HindsightError('PATH_INVALID', `Cannot restore ${path}: it is inside Hindsight's data folder.`, { path });
  }
  const version = store.index.version(versionId);
  if (!version || version.path !== path) {
    throw new HindsightError('VERSION_NOT_FOUND', `There is no version ${versionId} of ${path}.`, { path, versionId });
  }
  let folderFailures: { error: Error }[] = [];
  const captured = await recordPaths(store, [path], { kind: 'change', label: `Before restoring ${path}` });
  // What the file held just before, now recorded: a deletion when it did not exist.
  const undoVersionId = store.index.latestVersion(path)?.versionId ?? null;
  if (version.hash === null) {
    try {
      rmSync(absTarget, { force: true });
    } catch (error) {
      throw fsError('remove', path, error, 'RESTORE_FAILED');
    }
  } else {
    const folders = new FolderMaker(store.root, (folder) => store.index.folderModeAt(version.snapshotId, folder));
    try {
      folders.make(dirname(absTarget));
    } catch (error) {
      throw fsError('recreate the folder for', path, error, 'RESTORE_FAILED');
    }
    const written = { hash: version.hash, size: version.size, mode: version.mode, type: version.type, target: version.target, versionId };
    await withRestoreTemps(store, [path], async (temps) => writeVersion(store.blobsDir, written, absTarget, path, temps));
    folderFailures = folders.finish();
  }
  const after = statPath(store.root, path);
  const snapshotId = store.index.commitSnapshot({
    snapshot: { kind: 'restore', label: `Restored ${path} to version ${versionId}` },
    versions: [{ path, hash: version.hash, mode: version.mode, size: version.size, type: version.type, target: version.target }],
    blobs: [],
    stats: after && version.hash ? [{ path, type: after.type, size: after.size, mode: after.mode, mtimeNs: after.mtimeNs, ctimeNs: after.ctimeNs, ino: after.ino, hash: version.hash, target: after.target ?? null }] : [],
    removedStats: after ? [] : [path],
  });
  // Recorded first: the file is back even when a recreated folder's mode could not be set.
  if (folderFailures[0]) throw folderFailures[0].error;
  return { snapshotId, capturedSnapshotId: captured.snapshotId ?? null, path, versionId, undoVersionId };
}
