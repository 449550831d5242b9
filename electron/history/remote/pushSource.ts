import type { RecordedSnapshot } from './layout/recordFormat.js';
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
  /** A stored blob's bytes, checked against its hash (BLOB_CORRUPT / BLOB_MISSING otherwise). */
  readBlob(hash: string): Promise<Buffer>;
  /** The file holding a stored blob, for large blobs sent without loading them whole. */
  blobFile(hash: string): string;
}
