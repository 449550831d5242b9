import { create } from 'zustand';
import type { AppState } from './appState.js';
import { createCopySlice } from './copySlice.js';
import { createFileListSlice } from './fileListSlice.js';
import { createProjectsSlice } from './projectsSlice.js';
import { createRetentionSlice } from './retentionSlice.js';
import { createSearchSlice } from './searchSlice.js';
import { createStatsSlice } from './statsSlice.js';
import { createTimelineSlice } from './timelineSlice.js';
import { createToastSlice } from './toastSlice.js';
import { createTransferSlice } from './transferSlice.js';
import { createTreeSlice } from './treeSlice.js';
import { createVersionsSlice } from './versionsSlice.js';

// One store made of slices (zustand's documented pattern). Read single fields with selectors:
// `useApp((s) => s.filter)`; a component then re-renders only when that field changes.

export const useApp = create<AppState>()((...a) => ({
  ...createProjectsSlice(...a),
  ...createCopySlice(...a),
  ...createTreeSlice(...a),
  ...createFileListSlice(...a),
  ...createVersionsSlice(...a),
  ...createTimelineSlice(...a),
  ...createStatsSlice(...a),
  ...createRetentionSlice(...a),
  ...createSearchSlice(...a),
  ...createToastSlice(...a),
  ...createTransferSlice(...a),
}));

export type { AppState };
