import { asError, call } from '../api/hindsight.js';
import type { GetApp, SetApp } from './appState.js';
import { holdRefresh } from './refresh.js';
import type { TimelineSlice } from './timelineSlice.js';

// A named checkpoint of the project as it is now: a write under holdRefresh, its row arriving as
// the engine's event like every other snapshot.

type Checkpoints = Pick<TimelineSlice, 'setCheckpointDialog' | 'createCheckpoint'>;

export function checkpoints(set: SetApp, get: GetApp): Checkpoints {
  return {
    setCheckpointDialog: (checkpointDialog) => set({ checkpointDialog }),
    createCheckpoint: async (label) => {
      const projectId = get().currentProjectId;
      if (!projectId) return false;
      try {
        const snapshot = await holdRefresh(() => call('createCheckpoint', { projectId, label }));
        set({ checkpointDialog: false });
        get().pushToast({ tone: 'info', message: `Checkpoint “${snapshot.label ?? label}” saved.` });
        return true;
      } catch (error) {
        get().pushToast({ tone: 'error', message: asError(error).message });
        return false;
      }
    },
  };
}
