import type { StateCreator, StoreApi } from 'zustand';
import type { BackgroundSlice } from './backgroundSlice.js';
import type { CopySlice } from './copySlice.js';
import type { FileListSlice } from './fileListSlice.js';
import type { LineHistorySlice } from './lineHistorySlice.js';
import type { ProjectsSlice } from './projectsSlice.js';
import type { RetentionSlice } from './retentionSlice.js';
import type { SearchSlice } from './searchSlice.js';
import type { StatsSlice } from './statsSlice.js';
import type { TimelineSlice } from './timelineSlice.js';
import type { ToastSlice } from './toastSlice.js';
import type { TransferSlice } from './transferSlice.js';
import type { TreeSlice } from './treeSlice.js';
import type { VersionsSlice } from './versionsSlice.js';

// The whole store is the union of its slices; each slice may read and call the others' actions.

export type AppState = ProjectsSlice &
  CopySlice &
  TreeSlice &
  FileListSlice &
  VersionsSlice &
  LineHistorySlice &
  TimelineSlice &
  StatsSlice &
  RetentionSlice &
  SearchSlice &
  ToastSlice &
  TransferSlice &
  BackgroundSlice;

export type Slice<T> = StateCreator<AppState, [], [], T>;

/** What a part of a slice (a function of its own file) is given: the whole store's set and get. */
export type SetApp = StoreApi<AppState>['setState'];
export type GetApp = StoreApi<AppState>['getState'];
