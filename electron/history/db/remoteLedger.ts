import type { PackIndex } from '../remoteLayout/indexFormat.js';
import type { RemoteHead } from '../remoteLayout/headFormat.js';
import type { PackEntry } from '../remoteLayout/packFormat.js';

// What this data folder knows about one remote of one project, kept in the project's history.db
// so a push resumes where the last one stopped (docs/REMOTE.md, "What a push knows"). Each
// note is written right after the request that made it true succeeded.

export type BlobLocation = { pack: string; entry: PackEntry } | { alone: string; size: number };

export interface SentPack {
  pack: string;
  size: number;
  blobs: PackEntry[];
}

export interface RemoteLink {
  /** The project's id on the remote. */
  projectId: string;
  /** This data folder's machine id. */
  machineId: string;
  /** The newest snapshot of this machine's line that a record on the remote holds (0: none). */
  pushedOrigin: number;
  /** How many of this machine's snapshots the remote's records hold. */
  pushedSnapshots: number;
  /** The ETag of this machine's head as last written or read; null before the first push. */
  headEtag: string | null;
  records: string[];
  indexes: string[];
  /** A push started and did not finish: the next one lists packs/ and blobs/ before sending. */
  pushInProgress: boolean;
}

export interface ForeignHead {
  machineId: string;
  etag: string;
  head: RemoteHead;
  /** Index keys of that head already read (their blobs are located). */
  indexesRead: Set<string>;
  /** Record keys of that head already imported. */
  recordsRead: Set<string>;
}

export interface RemoteLedger {
  link(): RemoteLink;
  /** Where a blob is on the remote, if any index (or an unfinished push of ours) put it there. */
  locate(hash: string): BlobLocation | undefined;
  /** Data this machine sent that no index of the remote names yet. */
  unindexed(): { packs: SentPack[]; standalone: [string, number][] };
  noteSentPack(pack: SentPack): void;
  noteSentAlone(hash: string, size: number): void;
  /** The index `key` now names every unindexed blob. */
  noteIndexed(key: string): void;
  noteRecord(key: string, lastOrigin: number, snapshots: number): void;
  noteHead(etag: string): void;
  /** Takes the lists of this machine's head found on the remote (a push killed after writing it). */
  adoptHead(head: RemoteHead, etag: string): void;
  setPushInProgress(running: boolean): void;
  /** The remote lost everything this machine wrote (emptied, replaced): start again from nothing. */
  forgetSent(): void;
  foreignHeads(): Map<string, ForeignHead>;
  noteForeignHead(machineId: string, etag: string, head: RemoteHead): void;
  noteForeignIndex(machineId: string, key: string, index: PackIndex): void;
  /** Records of another machine whose snapshots are imported (a pull). */
  noteForeignRecords(machineId: string, keys: readonly string[]): void;
}
