import type { OpenResult } from '../../shared/contract.js';
import type { Progress } from '../../shared/progress.js';
import { completionLine } from '../format/copyCompletion.js';
import { asError, call } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// First copies (and the rescans of folders opened again, snapshots being written into a new
// folder, histories exported or imported) in flight, one entry per operation, so several at once each show their own progress. Rate and time left come from
// the bytes done since the first progress event.

export interface CopyState {
  operationId: string;
  path: string;
  projectId: string | null;
  progress: Progress | null;
  /** A known project checked for changes (not a first copy), before its first progress event says so. */
  known: boolean;
  /** What the work is, when the starter knows it before the first progress event (an export, an import...). */
  operation: Progress['operation'] | null;
  startedAt: number;
  /** When the first progress event arrived, and the bytes done then. */
  firstAt: number | null;
  firstBytes: number;
  lastAt: number;
  cancelling: boolean;
}

/** A copy that is over: its card turns into this line instead of vanishing without a word. */
export interface FinishedCopy {
  operationId: string;
  path: string;
  projectId: string;
  firstCopy: boolean;
  line: string;
}

/** A card shows once its copy has run this long (a first copy's shows at once). */
export const SHOW_AFTER_MS = 300;
const MAX_FINISHED = 3;

export interface CopySlice {
  copies: Record<string, CopyState>;
  finished: FinishedCopy[];
  beginCopy(operationId: string, path: string, known?: boolean, operation?: Progress['operation']): void;
  copyProgress(operationId: string, progress: Progress): void;
  /** The open answered: a first copy (or a rescan long enough to have shown its card) leaves its completion line. */
  completeCopy(operationId: string, result: OpenResult): void;
  endCopy(operationId: string): void;
  dismissFinished(operationId: string): void;
  /** The project's completion line has been read: the user went on to work in it (a file opened, a tab changed). */
  settleFinished(projectId: string): void;
  cancelCopy(operationId: string): Promise<void>;
}

export const createCopySlice: Slice<CopySlice> = (set, get) => ({
  copies: {},
  finished: [],
  beginCopy: (operationId, path, known = false, operation) =>
    set((s) => ({
      copies: {
        ...s.copies,
        [operationId]: {
          operationId,
          path,
          projectId: null,
          progress: null,
          known,
          operation: operation ?? null,
          startedAt: Date.now(),
          firstAt: null,
          firstBytes: 0,
          lastAt: Date.now(),
          cancelling: false,
        },
      },
    })),
  copyProgress: (operationId, progress) => {
    // A first copy under way no longer needs the dialog that started it; its card takes over.
    if (get().dialogOperation === operationId && progress.operation === 'first-copy') set({ openDialogVisible: false, dialogOperation: null });
    set((s) => {
      const known = s.copies[operationId];
      if (!known) return s;
      const now = Date.now();
      // The rate counts from the first bytes copied (the copy starts while the walk still runs;
      // a snapshot written into a new folder counts from its write phase).
      const first =
        known.firstAt === null &&
        (progress.phase === 'copy' || progress.phase === 'write' || progress.phase === 'data' || (progress.phase === 'scan' && progress.bytesDone > 0));
      return {
        copies: {
          ...s.copies,
          [operationId]: {
            ...known,
            projectId: progress.projectId,
            progress,
            firstAt: first ? now : known.firstAt,
            firstBytes: first ? progress.bytesDone : known.firstBytes,
            lastAt: now,
          },
        },
      };
    });
  },
  completeCopy: (operationId, result) => {
    const known = get().copies[operationId];
    if (!known) return;
    if (!result.firstCopy && Date.now() - known.startedAt < SHOW_AFTER_MS) return; // its card never showed
    const done: FinishedCopy = { operationId, path: known.path, projectId: result.projectId, firstCopy: result.firstCopy, line: completionLine(result) };
    set((s) => ({ finished: [...s.finished.filter((f) => f.projectId !== result.projectId), done].slice(-MAX_FINISHED) }));
  },
  dismissFinished: (operationId) => set((s) => ({ finished: s.finished.filter((f) => f.operationId !== operationId) })),
  settleFinished: (projectId) => {
    if (get().finished.some((f) => f.projectId === projectId)) set((s) => ({ finished: s.finished.filter((f) => f.projectId !== projectId) }));
  },
  endCopy: (operationId) =>
    set((s) => {
      if (!s.copies[operationId]) return s;
      const copies = { ...s.copies };
      delete copies[operationId];
      return { copies };
    }),
  cancelCopy: async (operationId) => {
    const known = get().copies[operationId];
    if (!known) return;
    set((s) => ({ copies: { ...s.copies, [operationId]: { ...known, cancelling: true } } }));
    try {
      await call('cancel', { operationId });
    } catch (error) {
      get().pushToast({ tone: 'error', message: asError(error).message });
    }
  },
});

/** Bytes per second since copying began, or null before there is anything to measure. */
export function copyRate(copy: CopyState): number | null {
  if (copy.firstAt === null || !copy.progress) return null;
  const seconds = (copy.lastAt - copy.firstAt) / 1000;
  if (seconds < 0.25) return null;
  return (copy.progress.bytesDone - copy.firstBytes) / seconds;
}
