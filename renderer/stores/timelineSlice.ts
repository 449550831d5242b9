import type { RestorePreview, SnapshotChange, SnapshotInfo, SnapshotSummary } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import type { Slice } from './appState.js';
import { checkpoints } from './checkpoints.js';
import { openAsFolder } from './openAsFolder.js';
import { restoreUndoActions } from './restoreUndo.js';
import { snapshotRestoreActions } from './snapshotRestore.js';
import { EMPTY_TIMELINE, timelineLog } from './timelineLog.js';

// Every snapshot of the project (newest first), what each one changed (asked of the engine),
// restoring the project or a folder to one (preview first, from the engine) and named
// checkpoints. New snapshots arrive as the engine's events (snapshotRecorded), never by reading
// the whole log again. Each part is a file of its own: the rows and the selection
// (timelineLog.ts), the restore (snapshotRestore.ts), the undo of a restore from its entry
// (restoreUndo.ts), "Open as a new folder…" (openAsFolder.ts) and checkpoints (checkpoints.ts).

export interface SnapshotRestoreDraft {
  snapshot: SnapshotInfo;
  /** A folder restore waits for its folder before asking for a preview. */
  scope: 'project' | 'folder';
  pathPrefix: string;
  deleteAdded: boolean;
  preview: RestorePreview | null;
  previewError: HindsightErrorData | null;
  running: boolean;
  /** The folders the snapshot holds, to pick from (null while they load). */
  folders: string[] | null;
}

/** "Undo this restore": the restore's entry, and the engine's preview of what the undo puts back. */
export interface RestoreUndoDraft {
  snapshot: SnapshotInfo;
  preview: RestorePreview | null;
  previewError: HindsightErrorData | null;
  running: boolean;
}

export interface TimelineSlice {
  snapshots: SnapshotInfo[];
  timelineStatus: 'idle' | 'loading' | 'ready' | 'error';
  timelineError: HindsightErrorData | null;
  selectedSnapshotId: number | null;
  snapshotChanges: SnapshotChange[] | null;
  /** What the selected checkpoint or first copy holds (null until known, and for other snapshots). */
  snapshotSummary: SnapshotSummary | null;
  snapshotRestore: SnapshotRestoreDraft | null;
  checkpointDialog: boolean;
  loadTimeline(): Promise<void>;
  resetTimeline(): void;
  /** A snapshot the engine announced for the shown project. */
  snapshotRecorded(snapshot: SnapshotInfo): void;
  selectSnapshot(snapshotId: number): Promise<void>;
  beginSnapshotRestore(scope: 'project' | 'folder', pathPrefix?: string): void;
  editSnapshotRestore(change: { pathPrefix?: string; deleteAdded?: boolean }): void;
  cancelSnapshotRestore(): void;
  confirmSnapshotRestore(): Promise<void>;
  restoreUndo: RestoreUndoDraft | null;
  /** Asks the engine what undoing the selected restore would put back, for the preview. */
  beginRestoreUndo(): void;
  cancelRestoreUndo(): void;
  confirmRestoreUndo(): Promise<void>;
  setCheckpointDialog(open: boolean): void;
  /** "Open as a new folder…": the dialog asking where, for the selected snapshot. */
  openAsFolderDialog: boolean;
  setOpenAsFolderDialog(open: boolean): void;
  /** Writes the selected snapshot into a new or empty folder, its progress on a card with Cancel. */
  openSnapshotAsFolder(into: string): Promise<boolean>;
  createCheckpoint(label: string): Promise<boolean>;
}

export const createTimelineSlice: Slice<TimelineSlice> = (set, get) => ({
  ...EMPTY_TIMELINE,
  snapshots: [],
  openAsFolderDialog: false,
  ...timelineLog(set, get),
  ...snapshotRestoreActions(set, get),
  ...restoreUndoActions(set, get),
  ...openAsFolder(set, get),
  ...checkpoints(set, get),
});
