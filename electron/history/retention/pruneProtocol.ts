import type { RetentionPolicy } from '../../../shared/retention.js';
import type { PruneChunk } from './pruneChunks.js';
import type { PrunePlan } from './planPrune.js';

// Messages between the history process and its prune planner (pruneWorker.ts), carried by its
// WorkerHost (workerHost.ts): a PlanRequest, answered by a PlanMessage. The plan comes back
// compact, ready for the write: ids in typed arrays (moved, not copied), paths and hashes joined
// into one string per chunk (one copy, no string per row), and what the result reports.

export interface PlanRequest {
  type: 'plan';
  file: string;
  policy: RetentionPolicy;
  budget: number | null;
  /** Also send every snapshot's decision (a dry run lists them). */
  decisions: boolean;
  /** About this many rows per chunk (PruneChunk). */
  chunkRows: number;
  /** The project's git work tree (null: none) and its history store (its blobs), for the uncommitted rule. */
  workTree: string | null;
  storeDir: string;
}

/** What the result reports of a plan (PruneResult), without its rows. */
export interface PlanSummary {
  versions: number;
  snapshots: number;
  blobs: number;
  bytesFreed: number;
  folded: number;
  newBaseline: number | undefined;
  keptBytes: number;
  budget: number | null;
  budgetMet: boolean;
  keptBecause: PrunePlan['keptBecause'];
  thinning: PrunePlan['thinning'];
  decisions: PrunePlan['decisions'] | null;
}

export interface EncodedChunk {
  removedSnapshots: Float64Array;
  removedVersions: Float64Array;
  movedIds: Float64Array;
  movedTo: Float64Array;
  removedFolderPaths: string;
  removedFolderSnapshots: Float64Array;
  movedFolderPaths: string;
  movedFolderFrom: Float64Array;
  movedFolderTo: Float64Array;
  /** -1: none. */
  newBaseline: number;
  blobs: string;
}

export interface PlanMessage {
  type: 'plan';
  /** The state planned from (pruneFingerprint). */
  fingerprint: string;
  summary: PlanSummary;
  chunks: EncodedChunk[];
  /** git's ids the uncommitted rule computed (hashes and oids, each joined with '\n'), for history.db to remember. */
  gitOids: { hashes: string; oids: string };
}

const PATHS = '\0';
const HASHES = '\n';

const joined = (parts: readonly string[], by: string) => parts.join(by);
const split = (text: string, by: string) => (text === '' ? [] : text.split(by));

export function encodeOids(pairs: readonly { hash: string; oid: string }[]): PlanMessage['gitOids'] {
  return {
    hashes: joined(
      pairs.map((p) => p.hash),
      HASHES,
    ),
    oids: joined(
      pairs.map((p) => p.oid),
      HASHES,
    ),
  };
}

export function decodeOids(encoded: PlanMessage['gitOids']): { hash: string; oid: string }[] {
  const oids = split(encoded.oids, HASHES);
  return split(encoded.hashes, HASHES).map((hash, i) => ({ hash, oid: oids[i]! }));
}

export function encodeChunk(chunk: PruneChunk): EncodedChunk {
  return {
    removedSnapshots: Float64Array.from(chunk.removedSnapshots),
    removedVersions: Float64Array.from(chunk.removedVersions),
    movedIds: Float64Array.from(chunk.movedVersions, (m) => m.id),
    movedTo: Float64Array.from(chunk.movedVersions, (m) => m.snapshotId),
    removedFolderPaths: joined(
      chunk.removedFolderRows.map((r) => r.path),
      PATHS,
    ),
    removedFolderSnapshots: Float64Array.from(chunk.removedFolderRows, (r) => r.snapshotId),
    movedFolderPaths: joined(
      chunk.movedFolderRows.map((r) => r.path),
      PATHS,
    ),
    movedFolderFrom: Float64Array.from(chunk.movedFolderRows, (r) => r.from),
    movedFolderTo: Float64Array.from(chunk.movedFolderRows, (r) => r.to),
    newBaseline: chunk.newBaseline ?? -1,
    blobs: joined(chunk.unreferencedBlobs, HASHES),
  };
}

export function decodeChunk(chunk: EncodedChunk): PruneChunk {
  const removedFolderPaths = split(chunk.removedFolderPaths, PATHS);
  const movedFolderPaths = split(chunk.movedFolderPaths, PATHS);
  return {
    removedSnapshots: Array.from(chunk.removedSnapshots),
    removedVersions: Array.from(chunk.removedVersions),
    movedVersions: Array.from(chunk.movedIds, (id, i) => ({ id, snapshotId: chunk.movedTo[i]! })),
    removedFolderRows: removedFolderPaths.map((path, i) => ({ path, snapshotId: chunk.removedFolderSnapshots[i]! })),
    movedFolderRows: movedFolderPaths.map((path, i) => ({ path, from: chunk.movedFolderFrom[i]!, to: chunk.movedFolderTo[i]! })),
    newBaseline: chunk.newBaseline < 0 ? undefined : chunk.newBaseline,
    unreferencedBlobs: split(chunk.blobs, HASHES),
  };
}

/** The typed arrays of a plan, moved to the receiver instead of copied. */
export function transferables(chunks: readonly EncodedChunk[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const c of chunks) {
    for (const a of [c.removedSnapshots, c.removedVersions, c.movedIds, c.movedTo, c.removedFolderSnapshots, c.movedFolderFrom, c.movedFolderTo])
      buffers.push(a.buffer as ArrayBuffer);
  }
  return buffers;
}
