import type { PruneResult } from '../../../shared/contract/values.js';
import type { RetentionPolicy } from '../../../shared/retention.js';
import type { ProjectStore } from '../project/projectStore.js';
import { faultPoint } from '../faultPoint.js';
import { count } from '../trace.js';
import { decodeChunk, type PlanSummary } from './pruneProtocol.js';
import { PrunePlanner, type Plan } from './prunePlanner.js';
import { archivable, archiveThinned, type ArchiveTarget } from './archiveThinned.js';

// A prune: the plan made off this thread (prunePlanner.ts: a worker reads the rows from its own
// connection and plans), then applied here in chunks (pruneChunks.ts), each one short transaction
// holding the write lock, with the event loop free between them: a recorded change or a first
// copy's commit waits at most one chunk. Each chunk checks first that the history is the one
// planned from (the fingerprint, carried from chunk to chunk); when a change was recorded or a pin
// set meanwhile, the worker plans again from the history as it now is, at most MAX_PLANS times in
// all: after that the prune stops where it is (consistent) and the next one goes on. Then the
// marked blobs whose grace period is over are collected, in small transactions that each delete
// their files before they commit. A process killed anywhere leaves a consistent history: a chunk
// is all or nothing and leaves every snapshot still there restoring exactly (pruneChunks.ts), and
// a marked blob whose file is gone is forgotten by the next collection.

export interface PruneOptions {
  policy: RetentionPolicy;
  budget: number | null;
  dryRun?: boolean;
  /** The time marks are stamped with and grace periods measured against (tests and benchmarks inject it). */
  now?: number;
  /** Move what the policy thins to this remote instead of removing it (archiveThinned.ts). */
  archive?: ArchiveTarget;
}

const DAY = 86_400_000;
/** Blobs collected per transaction: the write lock is never held long. */
const COLLECT_BATCH = 256;
/** A tombstone outlives any writer that filed the same bytes before the blob was collected. */
const TOMBSTONE_DAYS = 7;
/** Rows per chunk: a few milliseconds of writes (HINDSIGHT_PRUNE_CHUNK_ROWS: the kill tests cut a small history into several). */
const CHUNK_ROWS = 2_000;
/** Plans one prune makes at most when changes keep coming; the rest waits for the next prune. */
export const MAX_PLANS = 4;

export async function prune(store: ProjectStore, options: PruneOptions): Promise<PruneResult> {
  if (options.archive) return archivePrune(store, options, options.archive);
  const started = performance.now();
  const now = options.now ?? Date.now();
  const request = { policy: options.policy, budget: options.budget, decisions: options.dryRun === true, chunkRows: chunkRows() };
  const planner = new PrunePlanner(store);
  let plan: Plan;
  const removed = { versions: 0, snapshots: 0 };
  let deleted = { blobs: 0, bytes: 0 };
  let complete = true;
  try {
    plan = await planner.plan(request);
    if (!options.dryRun) {
      faultPoint('prune-planned');
      for (let plans = 1; !(complete = await applyChunks(store, plan, now, removed)) && plans < MAX_PLANS; plans++) {
        count('prune.replans');
        plan = await planner.plan(request);
      }
    }
  } finally {
    await planner.close();
  }
  if (!options.dryRun) {
    faultPoint('prune-marked');
    deleted = collect(store, now, options.policy.graceMinutes * 60_000);
    store.index.prune.reclaimSpace();
  }
  const waiting = store.index.prune.markedBlobs();
  // Versions and snapshots: every row this prune removed, over all its plans. Blobs, bytes and
  // folds: those of the last plan, which was applied whole (or none, when the prune stopped).
  const stoppedEarly = complete ? {} : { blobs: 0, bytesFreed: 0, folded: 0, newBaseline: undefined };
  const summary = options.dryRun ? plan.summary : { ...plan.summary, ...removed, ...stoppedEarly };
  return resultOf(store, summary, options, { deleted, waiting, archive: null, ms: Math.round(performance.now() - started) });
}

/**
 * A prune that archives: one plan, no row removed (the answer's versions, snapshots and blobs are
 * 0; the plan's decisions still say which snapshots are thinned), the thinned versions' blobs
 * moved to the remote. Blobs marked by earlier prunes are still collected.
 */
async function archivePrune(store: ProjectStore, options: PruneOptions, target: ArchiveTarget): Promise<PruneResult> {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const planner = new PrunePlanner(store);
  let plan: Plan;
  try {
    plan = await planner.plan({ policy: options.policy, budget: options.budget, decisions: options.dryRun === true, chunkRows: chunkRows() });
  } finally {
    await planner.close();
  }
  let archive: PruneResult['archive'];
  let deleted = { blobs: 0, bytes: 0 };
  if (options.dryRun) {
    const found = archivable(store, plan);
    archive = { remote: target.remote, blobs: found.hashes.length, bytes: found.bytes, movedBlobs: 0, movedBytes: 0, error: null };
  } else {
    archive = await archiveThinned(store, plan, target);
    deleted = collect(store, now, options.policy.graceMinutes * 60_000);
  }
  const kept = { versions: 0, snapshots: 0, blobs: 0, bytesFreed: 0, folded: 0, newBaseline: undefined };
  return resultOf(store, { ...plan.summary, ...kept }, options, {
    deleted,
    waiting: store.index.prune.markedBlobs(),
    archive,
    ms: Math.round(performance.now() - started),
  });
}

/**
 * Applies a plan's chunks in order, yielding to the event loop between them; answers false when
 * the history changed since the plan (nothing of the stale rest applied). Adds what went to `removed`.
 */
async function applyChunks(store: ProjectStore, plan: Plan, now: number, removed: { versions: number; snapshots: number }): Promise<boolean> {
  let { fingerprint } = plan;
  for (const [i, encoded] of plan.chunks.entries()) {
    if (i > 0) {
      faultPoint('prune-between-chunks');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const chunk = decodeChunk(encoded);
    const applied = store.index.prune.applyPruneChunk(fingerprint, chunk, now, () => faultPoint('prune-transaction'));
    if (applied === undefined) return false;
    count('prune.chunks');
    fingerprint = applied.fingerprint;
    removed.versions += chunk.removedVersions.length;
    removed.snapshots += chunk.removedSnapshots.length;
  }
  return true;
}

function chunkRows(): number {
  const raw = process.env.HINDSIGHT_PRUNE_CHUNK_ROWS;
  return raw && /^[1-9]\d{0,6}$/.test(raw) ? Number(raw) : CHUNK_ROWS;
}

/** Deletes the marked blobs past their grace period, a batch per transaction; answers what went. */
function collect(store: ProjectStore, now: number, graceMs: number): { blobs: number; bytes: number } {
  const done = { blobs: 0, bytes: 0 };
  const unlink = (hash: string) => {
    store.blobs.remove(hash);
    faultPoint('prune-deleting');
  };
  for (;;) {
    const batch = store.index.prune.collectMarked(now - graceMs, now, COLLECT_BATCH, unlink);
    done.blobs += batch.blobs;
    done.bytes += batch.bytes;
    if (batch.looked < COLLECT_BATCH) break;
  }
  store.index.prune.dropTombstones(now - TOMBSTONE_DAYS * DAY);
  return done;
}

function resultOf(
  store: ProjectStore,
  plan: PlanSummary,
  options: PruneOptions,
  done: { deleted: { blobs: number; bytes: number }; waiting: { blobs: number; bytes: number }; archive: PruneResult['archive']; ms: number },
): PruneResult {
  const snapshots = options.dryRun ? store.index.snapshotReads.snapshots() : [];
  const info = new Map(snapshots.map((s) => [s.snapshotId, s]));
  return {
    dryRun: options.dryRun === true,
    versions: plan.versions,
    snapshots: plan.snapshots,
    blobs: plan.blobs,
    bytesFreed: plan.bytesFreed,
    keptBecause: plan.keptBecause,
    keptBytes: plan.keptBytes,
    budget: plan.budget,
    budgetMet: plan.budgetMet,
    foldedVersions: plan.folded,
    newBaseline: plan.newBaseline ?? null,
    deletedBlobs: done.deleted.blobs,
    deletedBytes: done.deleted.bytes,
    waitingBlobs: done.waiting.blobs,
    waitingBytes: done.waiting.bytes,
    thinning: plan.thinning,
    decisions: plan.decisions
      ? plan.decisions.map((d) => {
          const s = info.get(d.snapshotId);
          return { ...d, at: s?.at ?? 0, kind: s?.kind ?? 'change', label: s?.label ?? null, files: s?.files ?? 0, scope: s?.scope ?? null };
        })
      : null,
    archive: done.archive,
    ms: done.ms,
  };
}
