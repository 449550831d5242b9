import { asError, call, newOperationId } from '../api/hindsight.js';
import { snapshotName } from '../format/snapshotName.js';
import type { GetApp, SetApp } from './appState.js';
import type { TimelineSlice } from './timelineSlice.js';

// "Open as a new folder…": the selected snapshot written into a new or empty folder, its progress
// on a copy card with Cancel, then a toast saying what was written or why not.

type OpenAsFolder = Pick<TimelineSlice, 'setOpenAsFolderDialog' | 'openSnapshotAsFolder'>;

export function openAsFolder(set: SetApp, get: GetApp): OpenAsFolder {
  return {
    setOpenAsFolderDialog: (openAsFolderDialog) => set({ openAsFolderDialog }),
    openSnapshotAsFolder: (into) => openSnapshotAsFolder(set, get, into),
  };
}

async function openSnapshotAsFolder(set: SetApp, get: GetApp, into: string): Promise<boolean> {
  const { currentProjectId: projectId, selectedSnapshotId: snapshotId } = get();
  if (!projectId || snapshotId === null) return false;
  const operationId = newOperationId('open-as-folder');
  set({ openAsFolderDialog: false });
  get().beginCopy(operationId, into, false, 'materialize');
  try {
    const result = await call('materializeSnapshot', { projectId, snapshotId, into, operationId });
    const links = result.links > 0 ? ` and ${result.links} links` : '';
    const name = snapshotName(get().snapshots.find((s) => s.snapshotId === snapshotId));
    get().pushToast({ tone: 'info', message: `${name[0]!.toUpperCase()}${name.slice(1)} written into ${result.into}: ${result.files} files${links}.` });
    return true;
  } catch (error) {
    const failure = asError(error);
    get().pushToast({ tone: 'error', message: failure.code === 'CANCELLED' ? `Cancelled: nothing was written into ${into}.` : failure.message });
    return false;
  } finally {
    get().endCopy(operationId);
  }
}
