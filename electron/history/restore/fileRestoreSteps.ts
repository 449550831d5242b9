import type { FileEntry } from '../../../shared/history.js';
import { faultPoint } from '../faultPoint.js';
import type { ProjectStore } from '../project/projectStore.js';
import { makeCloser } from './backgroundCloser.js';
import type { SpecialModes } from './specialModes.js';
import type { WritableVersion } from './writeVersion.js';
import { rollBack } from './restoreRollback.js';
import { planSteps, type RestoreStep } from './restoreSteps.js';
import { putBackError } from './restoreSnapshot.js';
import { RestoreTemps } from '../project/restoreTemps.js';
import { takeSteps } from './takeSteps.js';

// One file's restore through the snapshot restore's planner and runner: its steps (a folder in
// the way removed when it is empty, missing folders made with their recorded modes, the version
// written; or the file deleted and the folders that leaves empty), planned from the disk as it
// is, journaled in the store with the latest snapshot before them, then taken. A failure puts
// every step back; a restore killed midway leaves its journal, and the next writer completes it
// (it was recorded) or puts it back (restoreRecovery.ts), as it does a snapshot restore.

/** What goes back on disk (restoreFile.ts): a hash null removes the file. */
export interface Contents extends Omit<WritableVersion, 'hash'> {
  hash: string | null;
  /** Folders the restore recreates get their modes as of this snapshot. */
  modesAt: number;
}

/** The modes written: the version's and its folders', special bits from another history dropped unless kept. */
export type Modes = Pick<SpecialModes, 'folderMode' | 'dropped'>;

/** The steps restoring `path` to `contents` takes; what is in the way is refused (RESTORE_FAILED) before anything is written. */
export function planFileSteps(store: ProjectStore, path: string, contents: Contents, modes: Modes): RestoreStep[] {
  const current = (at: string): FileEntry | undefined => {
    const latest = store.index.versions.latestVersion(at);
    if (!latest || latest.hash === null || latest.type === null) return undefined;
    const { type, hash, mode, size, target } = latest;
    return { path: at, type, hash, mode, size, ...(target === null ? {} : { target }) };
  };
  const { hash, type, mode, size, target } = contents;
  const now = hash === null ? current(path) : undefined;
  return planSteps(store.root, {
    write: [],
    recreate: hash === null ? [] : [{ path, type: type ?? 'file', hash, mode, size, ...(target ? { target } : {}) }],
    emptyFolders: [],
    added: now ? [now] : [],
    current,
    deleteAdded: hash === null,
    clearedBy: 'hand',
    folderMode: (folder) => modes.folderMode(contents.modesAt, folder),
  });
}

/**
 * Takes the steps, journaled from before the first until `commit` has recorded the restore. A
 * failure (the commit's too) puts back every step taken and throws, saying so when anything had
 * changed.
 */
export async function takeFileSteps<T>(store: ProjectStore, path: string, steps: RestoreStep[], contents: Contents, modes: Modes, commit: () => T): Promise<T> {
  const temps = RestoreTemps.begin(
    store.storeDir,
    steps.map((s) => s.path),
    { steps, latestBefore: store.index.snapshotReads.latestSnapshotId() ?? null },
  );
  let committed: T;
  try {
    const versionIds = new Map(contents.versionId === undefined ? [] : [[path, contents.versionId]]);
    await takeSteps(store, { steps, snapshotId: contents.modesAt, modes, versionIds }, temps, { closer: makeCloser({ background: false }), onStep: () => {} });
    committed = commit();
    faultPoint('restore-committed');
  } catch (error) {
    const back = rollBack(store.root, store.blobs, steps, temps);
    temps.abandon(store.root);
    // Nothing had changed yet (the write itself failed): the failure as it is.
    throw back.putBack.length === 0 && back.leftAlone.length === 0 ? error : putBackError(error, back, path);
  }
  temps.end();
  return committed;
}
