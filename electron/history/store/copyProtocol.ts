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


export type { WalkEnded, WalkJob, WalkMessage } from '../walk/walkMessages.js';
