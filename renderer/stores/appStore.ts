import { create } from 'zustand';
import type { AppState } from './appState.js';
import { createBackgroundSlice } from './backgroundSlice.js';
import { createCopySlice } from './copySlice.js';
import { createFileListSlice } from './fileListSlice.js';
import { createLineHistorySlice } from './lineHistorySlice.js';
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

export const useApp = create<AppState>()((set, get, store) => ({
  ...createProjectsSlice(set, get, store),
  ...createCopySlice(set, get, store),
  ...createTreeSlice(set, get, store),
  ...createFileListSlice(set, get, store),
  ...createVersionsSlice(set, get, store),
  ...createLineHistorySlice(set, get, store),
  ...createTimelineSlice(set, get, store),
  ...createStatsSlice(set, get, store),
  ...createRetentionSlice(set, get, store),
  ...createSearchSlice(set, get, store),
  ...createToastSlice(set, get, store),
  ...createTransferSlice(set, get, store),
  ...createBackgroundSlice(set, get, store),
}));

export type { AppState };
