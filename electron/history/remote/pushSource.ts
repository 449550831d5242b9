import type { RecordedSnapshot } from '../remoteLayout/recordFormat.js';
import type { MachineIdentity } from './machineIdentity.js';

// What a push reads from the local history: this machine's line of snapshots and the blobs they
// name. Implemented over the project's store; the push itself never touches SQL or the disk.

export interface PushSource {
  /** The project's id on the remote. */
  projectId: string;
  name: string;
  root: string;
  machine: MachineIdentity;
  /** Where this machine's line starts (the snapshot it was cloned from), or null. */
  fork: { machine: string; origin: number } | null;
  /** This machine's snapshots after `origin` (its own ids), oldest first, with their versions. */
  snapshotsAfter(origin: number): RecordedSnapshot[];
  /** A blob's size as stored (undefined when the store does not hold it). */
  blobSize(hash: string): number | undefined;
  /**
   * A stored blob's bytes, hashed as they are read: BLOB_CORRUPT / BLOB_MISSING (naming `path`,
   * a file whose version holds the blob) instead of bytes that do not match.
   */
  readBlob(hash: string, size: number, path: string): Buffer;
  /**
   * A small blob's compressed form as the store keeps it (inflated and hash-checked first, like
   * readBlob), or undefined when it is not kept compressed: a push sends it as it is.
   */
  readCompressed(hash: string, size: number, path: string): Buffer | undefined;
  /**
   * A stored blob in pieces of at most `chunk` bytes (large blobs, never loaded whole), hashed
   * as they are read: after the last piece, bytes that do not match throw BLOB_CORRUPT.
   */
  blobChunks(hash: string, size: number, path: string, chunk: number): Iterable<Buffer>;
}
