import type { HindsightErrorData } from '../../../shared/errors.js';
import type { CloneMode } from './fileIntoStore.js';
import type { PackedOutcomes } from './packedOutcomes.js';

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
  /** One per file, in the batch's order, packed (packedOutcomes.ts): no object per file crosses. */
  outcomes: PackedOutcomes;
  mkdirs: number;
  cloneFallbacks: number;
}


/**
 * A consistent copy of a project's index (history.db) to `dest`, made on a copy worker from a
 * connection of its own (db/backupIndexFile.ts): SQLite's backup steps cost the history process's
 * main thread nothing, and a worker is already up after a copy.
 */
export interface BackupJob {
  kind: 'backup';
  file: string;
  dest: string;
}

export type BackupReply = { kind: 'backedUp' } | { kind: 'backupFailed'; error: HindsightErrorData };

export type { WalkEnded, WalkJob, WalkMessage } from '../walk/walkMessages.js';
