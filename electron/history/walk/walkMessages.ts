import type { HindsightErrorData } from '../../../shared/errors.js';
import type { UnreadablePath } from '../../../shared/history.js';

// Messages between the history process and the copy worker that walks a first copy's folder
// (walkJob.ts on the worker, store/copyPool.ts walk on the history process's side).

/**
 * A first copy's walk, run on a copy worker so the history process's main thread only commits
 * (copy/walkInWorker.ts). The tracked paths cross as arrays (a Set does not survive a message as cheaply).
 */
export interface WalkJob {
  kind: 'walk';
  root: string;
  exclude?: readonly string[];
  skip?: string;
  maxFileSize?: number | null;
  tracked?: { files: string[]; folders: string[] };
  /**
   * Shared with the pool: [0] set to 1 stops the walk at its next folder; [1] counts the entry
   * messages the pool has handled, so the walk runs at most WALK_MESSAGES_AHEAD messages ahead
   * of it (a stop is seen within a bounded number of entries, and unread messages never pile up).
   */
  cancel: Int32Array;
}

/** How many entry messages the walk may send before the pool has handled the earlier ones. */
export const WALK_MESSAGES_AHEAD = 2;

export interface WalkEnded {
  kind: 'walked';
  ignored: string[];
  folderModes: [string, number][];
  unreadable: UnreadablePath[];
  /** The walk's counters (walk.lstat, walk.overSizeLimit): the pool adds them to this thread's. */
  counts: Record<string, number>;
}

export interface WalkFailed {
  kind: 'walkFailed';
  cancelled: boolean;
  error?: HindsightErrorData;
}

/** How a walk ends: its answer. Its entries come before it as progress (see WALK_ENTRIES_PER_MESSAGE). */
export type WalkMessage = WalkEnded | WalkFailed;

/**
 * Entries found so far go back in groups of many folders: one message per this many entries, not
 * per folder. A regular file's mtimeNs, ctimeNs and ino are '' (not sent: the copy worker's fstat
 * gives the stamp recorded).
 */
export const WALK_ENTRIES_PER_MESSAGE = 512;
