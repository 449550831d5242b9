import type { Progress } from '../../shared/progress.js';
import { asError, call } from '../api/hindsight.js';
import type { Slice } from './appState.js';

// First copies (and the rescans of folders opened again, and snapshots being written into a new
// folder) in flight, one entry per operation, so several at once each show their own progress. Rate and time left come from
// the bytes done since the first progress event.

export interface CopyState {
  operationId: string;
  path: string;
  projectId: string | null;
  progress: Progress | null;
  startedAt: number;
  /** When the first progress event arrived, and the bytes done then. */
  firstAt: number | null;
  firstBytes: number;
  lastAt: number;
  cancelling: boolean;
}

export interface CopySlice {
  copies: Record<string, CopyState>;
  beginCopy(operationId: string, path: string): void;
  copyProgress(operationId: string, progress: Progress): void;
  endCopy(operationId: string): void;
  cancelCopy(operationId: string): Promise<void>;
}

export const createCopySlice: Slice<CopySlice> = (set, get) => ({
  copies: {},
  beginCopy: (operationId, path) =>
    set((s) => ({
      copies: {
        ...s.copies,
        [operationId]: { operationId, path, projectId: null, progress: null, startedAt: Date.now(), firstAt: null, firstBytes: 0, lastAt: Date.now(), cancelling: false },
      },
    })),
  copyProgress: (operationId, progress) => {
    // A first copy under way no longer needs the dialog that started it; its card takes over.
    if (get().dialogOperation === operationId && progress.operation === 'first-copy') set({ openDialogVisible: false, dialogOperation: null });
    set((s) => {
      const known = s.copies[operationId];
      if (!known) return s;
      const now = Date.now();
      const first = known.firstAt === null && (progress.phase === 'copy' || progress.phase === 'write');
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
