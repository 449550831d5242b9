import type { SnapshotKind } from '../history.js';
import type { RetentionPolicy } from '../retention.js';

// What is pinned, what a prune keeps or removes and why, and a history against its budget.

/** What is pinned in a project's history: no prune removes these snapshots and versions. */
export interface Pins {
  snapshots: number[];
  versions: number[];
}

/** Why a prune keeps a snapshot (the strongest reason), or why it removes one. */
export type PruneWhy = 'newest' | 'pinned' | 'otherMachines' | 'uncommitted' | 'policy' | 'thinned' | 'budget';

export interface PruneDecision {
  snapshotId: number;
  at: number;
  kind: SnapshotKind;
  label: string | null;
  /** The snapshot's files and where they are, as SnapshotInfo says them (its title in the timeline). */
  files: number;
  scope: string | null;
  kept: boolean;
  why: PruneWhy;
}

/**
 * What a prune removed (or, with dryRun, would remove). `versions`, `snapshots`, `blobs` and
 * `bytesFreed` count what it leaves unreferenced; the blob files go once their grace period is
 * over (`deletedBlobs`/`deletedBytes`: the files this run deleted, from this or earlier prunes;
 * `waitingBlobs`/`waitingBytes`: those still in their grace period).
 */
export interface PruneResult {
  dryRun: boolean;
  versions: number;
  snapshots: number;
  blobs: number;
  bytesFreed: number;
  /** Kept snapshots by their strongest reason. */
  keptBecause: { newest: number; pinned: number; otherMachines: number; uncommitted: number; policy: number };
  /** Bytes of the blobs the kept history names, against the budget (null: none). */
  keptBytes: number;
  budget: number | null;
  /** False when what is always kept (newest, pinned, uncommitted) alone is over the budget. */
  budgetMet: boolean;
  /** Versions moved forward into the next kept snapshot (a thinned range folded). */
  foldedVersions: number;
  /** The snapshot that became the baseline when the old one was removed. */
  newBaseline: number | null;
  deletedBlobs: number;
  deletedBytes: number;
  waitingBlobs: number;
  waitingBytes: number;
  /** Where the policy's rules stop reaching (times): every version since, one per hour since, one per day since. */
  thinning: { everyVersionSince: number; hourlySince: number | null; dailySince: number | null };
  /** With dryRun: every snapshot, kept or removed, and why. */
  decisions: PruneDecision[] | null;
  /** With retention.archiveToRemote (or --archive-to): what moved to the remote instead; null: none. */
  archive: PruneArchive | null;
  ms: number;
}

/**
 * A prune that archives: the thinned versions stay (rows), the blobs only they name go to the
 * remote and leave this disk. `blobs`/`bytes`: those found on this disk (what a dry run would
 * move); `movedBlobs`/`movedBytes`: removed from this disk after the remote had them.
 */
export interface PruneArchive {
  remote: string;
  blobs: number;
  bytes: number;
  movedBlobs: number;
  movedBytes: number;
  /** Why nothing moved (the push failed); every version is still on this disk. */
  error: string | null;
}

/** A file whose versions hold the most bytes of the store. */
export interface SpaceHolder {
  path: string;
  versions: number;
  /** Bytes of the distinct blobs its versions name. */
  bytes: number;
}

/** A project's history against its budget: what the Store tab shows. */
export interface RetentionStatus {
  projectId: string;
  /** Bytes of every stored blob, including those waiting for their grace period. */
  usedBytes: number;
  waitingBytes: number;
  budget: number | null;
  policy: RetentionPolicy;
  spaceHolders: SpaceHolder[];
  pins: Pins;
}
