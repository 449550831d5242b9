import type { HindsightErrorData } from '../../../shared/errors.js';
import type { UnreadablePath } from '../../../shared/history.js';
import type { WalkEntry } from '../walk/walkFolder.js';
import type { CloneMode, FileOutcome } from './fileIntoStore.js';

// Messages between the history process and its copy workers.

export interface CopyJob {
  jobId: number;
  blobsDir: string;
  cloneMode: CloneMode;
  /** Paths on disk; a name that is not UTF-8 comes as its bytes (a Buffer arrives as a Uint8Array). */
  files: (string | Uint8Array)[];
  /** Hashes found missing or damaged: written again when their bytes come by. */
  rewrite?: string[];
  /**
   * The blobs already stored, trusted without a look at the disk (see KnownBlobs). `hashes` is
   * left out when the worker already holds the list of this `id` (the pool knows which it sent).
   */
  known?: { id: number; hashes?: readonly string[] };
  /** Shared with the pool: set to 1 when the operation is cancelled; the worker stops at the next file or piece. */
  cancel?: Int32Array;
}

/** The file was not copied: its operation was cancelled first. */
export interface CopyCancelledOutcome {
  kind: 'cancelled';
}

export interface CopyFailure {
  kind: 'failed';
  code: string;
  message: string;
}

export interface CopyJobResult {
  jobId: number;
  outcomes: (FileOutcome | CopyFailure | CopyCancelledOutcome)[];
  mkdirs: number;
  cloneFallbacks: number;
}

/**
 * A first copy's walk, run on a copy worker so the history process's main thread only commits
 * (walkInWorker.ts). The tracked paths cross as arrays (a Set does not survive a message as cheaply).
 */
export interface WalkJob {
  kind: 'walk';
  root: string;
  exclude?: readonly string[];
  skip?: string;
  maxFileSize?: number | null;
  tracked?: { files: string[]; folders: string[] };
  /** Shared with the pool: set to 1 to stop the walk at its next folder. */
  cancel: Int32Array;
}

/** Entries found so far, sent in groups of many folders: one message per WALK_ENTRIES_PER_MESSAGE entries, not per folder. */
export interface WalkedEntries {
  kind: 'entries';
  entries: WalkEntry[];
}

export interface WalkEnded {
  kind: 'walked';
  /** The entries in path order, as indexes into every entry sent (in the order they were sent). */
  order: Uint32Array;
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

export type WalkMessage = WalkedEntries | WalkEnded | WalkFailed;

export const WALK_ENTRIES_PER_MESSAGE = 512;
