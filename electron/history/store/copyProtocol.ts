import type { HindsightErrorData } from '../../../shared/errors.js';
import type { CloneMode } from './fileIntoStore.js';
import type { PackedOutcomes } from './packedOutcomes.js';
import type { WalkJob, WalkMessage } from '../walk/walkMessages.js';

// Messages between the history process and its copy workers (WorkerHosts: each request answered
// under its id, a walk's entries told as progress before its end).

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

// A file's outcomes are declared with their packing (packedOutcomes.ts), which this protocol carries.
export type { CopyCancelledOutcome, CopyFailure } from './packedOutcomes.js';

export interface CopyJobResult {
  jobId: number;
  /** One per file, in the batch's order, packed (packedOutcomes.ts): no object per file crosses. */
  outcomes: PackedOutcomes;
  mkdirs: number;
  cloneFallbacks: number;
}

/** What a copy worker does with one blob of a PlaceJob (bit PLACE_COMPRESSED set: its bytes are a compressed form). */
export const PLACE_CHECK = 0;
export const PLACE_WRITE = 1;
/** Written over a file of that name (found damaged, or of the wrong length). */
export const PLACE_REWRITE = 2;
export const PLACE_COMPRESSED = 4;

/**
 * Blobs whose hashes are claimed but not yet checked (an import's records), their bytes one
 * after another in `bytes` (transferred, not copied): each is hashed (a compressed form inflated
 * first, no further than its size), then checked only or written to a temp and renamed into
 * place. The worker stops at the first blob that fails.
 */
export interface PlaceJob {
  kind: 'place';
  jobId: number;
  blobsDir: string;
  bytes: Uint8Array;
  hashes: string[];
  /** Raw sizes. */
  sizes: number[];
  /** How many bytes of `bytes` each blob takes (a compressed form's length). */
  lengths: number[];
  /** PLACE_CHECK, PLACE_WRITE or PLACE_REWRITE, with PLACE_COMPRESSED. */
  modes: Uint8Array;
}

export interface PlaceFailure {
  /** The blob that failed: every blob before it was done. */
  index: number;
  /** mismatch: raw bytes that do not hash to their name; undecodable: a compressed form refused (`why`); failed: a file-system error. */
  kind: 'mismatch' | 'undecodable' | 'failed';
  why: string;
  code?: string;
}

export interface PlaceResult {
  kind: 'placed';
  jobId: number;
  /** Blobs handled, from the first: all of them unless `failure`. */
  done: number;
  temps: number;
  mkdirs: number;
  failure?: PlaceFailure;
  /** The job's bytes, transferred back for the next batch. */
  bytes: Uint8Array;
  /** The worker's trace counts of this batch (store.compressions, store.decompressions). */
  counts?: Record<string, number>;
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

/** What the pool asks a copy worker (store/copyPool.ts), and what the worker answers each. */
export type CopyRequest = CopyJob | WalkJob | PlaceJob | BackupJob;
export type CopyAnswer = CopyJobResult | WalkMessage | PlaceResult | BackupReply;
