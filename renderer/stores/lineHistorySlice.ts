import type { LineVersion } from '../../shared/contract.js';
import type { HindsightErrorData } from '../../shared/errors.js';
import { asError, call } from '../api/hindsight.js';
import type { GetApp, SetApp, Slice } from './appState.js';
import { restoreLineChange } from './lineChangeRestore.js';

// "History for selection": the lines selected in a version's text (or the cursor's line), and the
// versions that changed them, asked of the engine once (the lineHistory call, as
// `log FOLDER PATH --lines A,B` prints them), each with its change limited to those lines.
// Restoring one of them is lineChangeRestore.ts.

/** Lines of one version's text, counted from 1, both included. */
export interface LineSelection {
  path: string;
  versionId: number;
  from: number;
  to: number;
}

export interface LineHistory extends LineSelection {
  projectId: string;
  status: 'loading' | 'ready' | 'error';
  /** The versions that changed the lines, newest first (as the version list reads). */
  entries: LineVersion[];
  error: HindsightErrorData | null;
}

export interface LineHistorySlice {
  /** What is selected in the shown version's text; null before anything is. */
  textSelection: LineSelection | null;
  /** The open "History for selection" panel; null when closed. */
  lineHistory: LineHistory | null;
  setTextSelection(selection: LineSelection | null): void;
  /** Opens the panel for the selected lines (default: textSelection); false when there are none to follow. */
  openLineHistory(selection?: LineSelection): Promise<boolean>;
  closeLineHistory(): void;
  /** Writes the lines as one listed version left them back into the current file ("Restore this change"). */
  restoreLineChange(versionId: number): Promise<void>;
}

export const createLineHistorySlice: Slice<LineHistorySlice> = (set, get) => ({
  textSelection: null,
  lineHistory: null,
  setTextSelection: (selection) => set({ textSelection: selection }),
  openLineHistory: (selection) => openLineHistory(set, get, selection ?? get().textSelection),
  closeLineHistory: () => set({ lineHistory: null }),
  restoreLineChange: (versionId) => restoreLineChange(set, get, versionId),
});

async function openLineHistory(set: SetApp, get: GetApp, selection: LineSelection | null): Promise<boolean> {
  const projectId = get().currentProjectId;
  // Only lines of the version shown now: a selection left from another file or version is not followed.
  if (!projectId || !selection || selection.path !== get().versionsPath || selection.versionId !== get().selectedVersionId) return false;
  const { path, versionId, from, to } = selection;
  const asked: LineHistory = { projectId, path, versionId, from, to, status: 'loading', entries: [], error: null };
  set({ lineHistory: asked });
  const stillAsked = () => get().lineHistory === asked;
  try {
    const found = await call('lineHistory', { projectId, path, from, to, versionId });
    if (stillAsked()) set({ lineHistory: { ...asked, status: 'ready', entries: found.reverse() } });
  } catch (error) {
    if (stillAsked()) set({ lineHistory: { ...asked, status: 'error', error: asError(error).toJSON() } });
  }
  return true;
}
