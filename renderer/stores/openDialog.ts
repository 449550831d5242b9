import type { GetApp, SetApp, Slice } from './appState.js';

// The open dialog: shown, why, for which project's new place (Locate…), and the copy it started,
// which it follows by operation id and closes for once the copy is under way.

export interface OpenDialog {
  openDialogVisible: boolean;
  openError: string | null;
  /** Why the open dialog was shown (a drop whose path the browser hides). */
  openHint: string | null;
  /** The copy the open dialog started: the dialog closes once it is under way. */
  dialogOperation: string | null;
  /** The open dialog is finding a moved project's folder (Locate…), not opening a new one. */
  locateFor: string | null;
  setOpenDialog(visible: boolean): void;
  showOpenHint(hint: string): void;
}

export const createOpenDialog: Slice<OpenDialog> = (set) => ({
  openDialogVisible: false,
  openError: null,
  openHint: null,
  dialogOperation: null,
  locateFor: null,
  setOpenDialog: (visible) => set({ openDialogVisible: visible, openError: null, openHint: null, locateFor: null }),
  showOpenHint: (hint) => set({ openDialogVisible: true, openError: null, openHint: hint }),
});

/** Runs a copy of `path` (an open or a locate) as the dialog's operation while the dialog is shown. */
export async function dialogCopy<T>(set: SetApp, get: GetApp, operationId: string, copy: { path: string; known?: boolean }, run: () => Promise<T>): Promise<T> {
  set({ openError: null, dialogOperation: get().openDialogVisible ? operationId : null });
  get().beginCopy(operationId, copy.path, copy.known);
  try {
    return await run();
  } finally {
    get().endCopy(operationId);
    if (get().dialogOperation === operationId) set({ dialogOperation: null });
  }
}

/** A failed open or locate: said in the dialog while it is shown, else in a toast (unless a banner says it). */
export function sayOpenFailed(set: SetApp, get: GetApp, message: string, bannerSaysIt = false): void {
  set({ openError: message });
  if (!get().openDialogVisible && !bannerSaysIt) get().pushToast({ tone: 'error', message });
}
