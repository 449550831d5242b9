import { rmSync } from 'node:fs';
import type { PruneResult } from '../../../shared/contract/values.js';
import type { RetentionPolicy } from '../../../shared/retention.js';
import type { ProjectStore } from '../project/projectStore.js';
import { blobPath } from '../store/storeLayout.js';
import { planPrune, type PrunePlan } from './planPrune.js';
import { effectiveTimes } from '../../../shared/retentionBuckets.js';
import { faultPoint } from '../faultPoint.js';
import { uncommittedVersions, type YoungVersion } from './uncommitted.js';

// A prune: plan from the history as it is (planPrune.ts), apply the plan in one transaction
// (versions removed or folded, snapshots removed, the blobs it leaves unreferenced marked with
// the time), then collect the marked blobs whose grace period is over, in small transactions
// that each delete their files before they commit. The plan is made outside the transaction so a
// recorded change never waits for it; the transaction checks nothing changed meanwhile and plans
// again (inside it) when something did. A process killed anywhere leaves a consistent history:
// the plan's transaction is all or nothing, and a marked blob whose file is gone is forgotten by
// the next collection.

export interface PruneOptions {
  policy: RetentionPolicy;
  budget: number | null;
  dryRun?: boolean;
  /** The time marks are stamped with and grace periods measured against (tests and benchmarks inject it). */
  now?: number;
}

const DAY = 86_400_000;
/** Blobs collected per transaction: the write lock is never held long. */
const COLLECT_BATCH = 256;
/** A tombstone outlives any writer that filed the same bytes before the blob was collected. */
const TOMBSTONE_DAYS = 7;

export async function prune(store: ProjectStore, options: PruneOptions): Promise<PruneResult> {
  const started = performance.now();
  const now = options.now ?? Date.now();
  const { index } = store;
  const fingerprint = index.pruneFingerprint();
  const rows = index.pruneRows();
  const uncommitted = await uncommittedOf(store, rows, options.policy);
  const planOf = (r: typeof rows) =>
    planPrune({ ...r, uncommittedVersions: uncommitted, policy: options.policy, budget: options.budget });
  let plan = planOf(rows);
  let deleted = { blobs: 0, bytes: 0 };
  if (!options.dryRun) {
    ({ plan } = index.applyPrune(fingerprint, () => planOf(index.pruneRows()), plan, now, () => faultPoint('prune-transaction')));
    faultPoint('prune-marked');
    deleted = collect(store, now, options.policy.graceMinutes * 60_000);
    index.reclaimSpace();
  }
  const waiting = index.markedBlobs();
  return resultOf(store, plan, options, { deleted, waiting, ms: Math.round(performance.now() - started) });
}

/** The young versions (by the history's own times) whose bytes are in no git commit. */
async function uncommittedOf(store: ProjectStore, rows: ReturnType<ProjectStore['index']['pruneRows']>, policy: RetentionPolicy): Promise<Set<number>> {
  if (rows.snapshots.length === 0 || policy.uncommittedDays === 0) return new Set();
  const times = effectiveTimes(rows.snapshots);
  const since = times[times.length - 1]! - policy.uncommittedDays * DAY;
  const young = new Set(rows.snapshots.filter((_, i) => times[i]! >= since).map((s) => s.id));
  // The newest snapshot is kept anyway: its versions need no git call.
  young.delete(rows.snapshots[rows.snapshots.length - 1]!.id);
  const candidates: YoungVersion[] = [];
  for (const v of rows.versions) if (v.hash !== null && young.has(v.snapshotId)) candidates.push({ id: v.id, path: v.path, hash: v.hash, size: v.size });
  return uncommittedVersions(store, candidates, since);
}

/** Deletes the marked blobs past their grace period, a batch per transaction; answers what went. */
function collect(store: ProjectStore, now: number, graceMs: number): { blobs: number; bytes: number } {
  const done = { blobs: 0, bytes: 0 };
  const unlink = (hash: string) => {
    rmSync(blobPath(store.blobsDir, hash), { force: true });
    faultPoint('prune-deleting');
  };
  for (;;) {
    const batch = store.index.collectMarked(now - graceMs, now, COLLECT_BATCH, unlink);
    done.blobs += batch.blobs;
    done.bytes += batch.bytes;
    if (batch.looked < COLLECT_BATCH) break;
  }
  store.index.dropTombstones(now - TOMBSTONE_DAYS * DAY);
  return done;
}

function resultOf(
  store: ProjectStore,
  plan: PrunePlan,
  options: PruneOptions,
  done: { deleted: { blobs: number; bytes: number }; waiting: { blobs: number; bytes: number }; ms: number },
): PruneResult {
  const snapshots = options.dryRun ? store.index.snapshots() : [];
  const info = new Map(snapshots.map((s) => [s.snapshotId, s]));
  return {
    dryRun: options.dryRun === true,
    versions: plan.removedVersions.length,
    snapshots: plan.removedSnapshots.length,
    blobs: plan.unreferencedBlobs.length,
    bytesFreed: plan.bytesFreed,
    keptBecause: plan.keptBecause,
    keptBytes: plan.keptBytes,
    budget: plan.budget,
    budgetMet: plan.budgetMet,
    foldedVersions: plan.movedVersions.length,
    newBaseline: plan.newBaseline ?? null,
    deletedBlobs: done.deleted.blobs,
    deletedBytes: done.deleted.bytes,
    waitingBlobs: done.waiting.blobs,
    waitingBytes: done.waiting.bytes,
    thinning: plan.thinning,
    decisions: options.dryRun
      ? plan.decisions.map((d) => {
          const s = info.get(d.snapshotId);
          return { ...d, at: s?.at ?? 0, kind: s?.kind ?? 'change', label: s?.label ?? null, files: s?.files ?? 0, scope: s?.scope ?? null };
        })
      : null,
    ms: done.ms,
  };
}
