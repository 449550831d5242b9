import { asError, call } from '../api/hindsight.js';
import type { GetApp, SetApp } from './appState.js';
import type { TimelineSlice } from './timelineSlice.js';

// The timeline's rows and the selected one: the log read once per project, each snapshot the
// engine announces added on top, and what the selected snapshot changed (and, for a checkpoint or
// the first copy, what it holds), asked of the engine.

type Log = Pick<TimelineSlice, 'loadTimeline' | 'snapshotRecorded' | 'resetTimeline' | 'selectSnapshot'>;

/** A timeline with nothing loaded or selected: the slice's start, and what a project switch goes back to. */
export const EMPTY_TIMELINE = {
  snapshots: [],
  timelineStatus: 'idle',
  timelineError: null,
  selectedSnapshotId: null,
  snapshotChanges: null,
  snapshotSummary: null,
  snapshotRestore: null,
  restoreUndo: null,
  checkpointDialog: false,
} as const satisfies Partial<TimelineSlice>;

export function timelineLog(set: SetApp, get: GetApp): Log {
  return {
    loadTimeline: () => loadTimeline(set, get),
    snapshotRecorded: (snapshot) => {
      // Before the first load, the log read then will hold it.
      if (get().timelineStatus !== 'ready') return;
      set((state) => (state.snapshots.some((x) => x.snapshotId === snapshot.snapshotId) ? state : { snapshots: [snapshot, ...state.snapshots] }));
    },
    resetTimeline: () => set({ ...EMPTY_TIMELINE, snapshots: [] }),
    selectSnapshot: (snapshotId) => selectSnapshot(set, get, snapshotId),
  };
}

async function loadTimeline(set: SetApp, get: GetApp): Promise<void> {
  const projectId = get().currentProjectId;
  if (!projectId) return;
  if (get().timelineStatus !== 'ready') set({ timelineStatus: 'loading' });
  try {
    const snapshots = (await call('log', { projectId })).slice().reverse();
    if (get().currentProjectId !== projectId) return;
    set({ snapshots, timelineStatus: 'ready', timelineError: null });
    if (get().selectedSnapshotId === null && snapshots[0]) void get().selectSnapshot(snapshots[0].snapshotId);
  } catch (error) {
    set({ timelineStatus: 'error', timelineError: asError(error).toJSON() });
  }
}

async function selectSnapshot(set: SetApp, get: GetApp, snapshotId: number): Promise<void> {
  const projectId = get().currentProjectId;
  if (!projectId) return;
  set({ selectedSnapshotId: snapshotId, snapshotChanges: null, snapshotSummary: null });
  // A checkpoint records no file of its own: what it holds is the question.
  const kind = get().snapshots.find((s) => s.snapshotId === snapshotId)?.kind;
  if (kind === 'checkpoint' || kind === 'baseline') void loadSummary(set, get, projectId, snapshotId);
  try {
    const changes = await call('snapshotChanges', { projectId, snapshotId });
    if (get().selectedSnapshotId === snapshotId) set({ snapshotChanges: changes });
  } catch (error) {
    if (get().selectedSnapshotId === snapshotId) {
      set({ snapshotChanges: [] });
      get().pushToast({ tone: 'error', message: asError(error).message });
    }
  }
}

async function loadSummary(set: SetApp, get: GetApp, projectId: string, snapshotId: number): Promise<void> {
  try {
    const summary = await call('snapshotSummary', { projectId, snapshotId });
    if (get().selectedSnapshotId === snapshotId) set({ snapshotSummary: summary });
  } catch {
    // The changes list still shows; the summary is only its heading.
  }
}
