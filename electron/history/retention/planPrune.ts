import type { KeepReason, RetentionPolicy } from '../../../shared/retention.js';
import { policyKeeps } from '../../../shared/retentionBuckets.js';
import { count } from '../trace.js';

// What a prune removes, decided from the history alone (no disk, no database): a pure function,
// so every rule is tested on its own (test/history/retention/planPrune.test.ts).
//
// The unit kept or removed is the snapshot. A version is one file from its snapshot until the next
// version of the same path: it is needed while a kept snapshot lies in that span. A needed version
// whose own snapshot goes is moved to the first kept snapshot of its span (a thinned range is
// folded into the snapshot after it), so every kept snapshot still restores exactly; when the
// baseline goes, the first kept snapshot then holds the state of every file and becomes the new
// baseline. A version no kept snapshot needs is removed, and a blob no remaining version names is
// unreferenced.
//
// Kept whatever the policy and the budget say: the newest snapshot (every present file's newest
// version is needed by it, so it stays, folded forward if its own snapshot goes) and the snapshot of the last contents of every deleted file (newest),
// pinned snapshots and the snapshots of pinned versions (pinned), and the snapshots of versions
// younger than the uncommitted window whose bytes git does not hold (uncommitted). Over the
// budget, the other kept snapshots are removed oldest first until the blobs still named fit.

export interface PlanSnapshot {
  id: number;
  at: number;
  kind: string;
}

/** A version, or a folder-mode row (hash null, size 0): a path's state from its snapshot on. */
export interface PlanRow {
  id: number;
  snapshotId: number;
  path: string;
  hash: string | null;
  size: number;
}

export interface PlanInput {
  /** Sorted by id. */
  snapshots: readonly PlanSnapshot[];
  /** Sorted by path, then snapshotId. */
  versions: readonly PlanRow[];
  /** Folder-mode rows, sorted by path, then snapshotId (folded like versions). */
  folderRows?: readonly PlanRow[];
  /** Each blob's bytes on disk (a compressed blob costs its compressed file): what the budget counts. */
  blobSizes: ReadonlyMap<string, number>;
  pinnedSnapshots: ReadonlySet<number>;
  pinnedVersions: ReadonlySet<number>;
  /** Snapshots kept because the history holds other machines' lines (every snapshot, then). */
  heldForLines?: ReadonlySet<number>;
  /** Versions younger than the uncommitted window whose bytes git's object database does not hold. */
  uncommittedVersions: ReadonlySet<number>;
  policy: RetentionPolicy;
  /** Bytes of blobs the kept history may name; null: no budget. */
  budget: number | null;
}

export type RemoveReason = 'thinned' | 'budget';

export interface SnapshotDecision {
  snapshotId: number;
  kept: boolean;
  why: KeepReason | RemoveReason;
}

export interface PrunePlan {
  decisions: SnapshotDecision[];
  removedSnapshots: number[];
  /** The first kept snapshot when the baseline goes: it becomes the baseline. */
  newBaseline: number | undefined;
  removedVersions: number[];
  movedVersions: { id: number; snapshotId: number }[];
  removedFolderRows: { path: string; snapshotId: number }[];
  movedFolderRows: { path: string; from: number; to: number }[];
  /** Blobs the kept versions no longer name. */
  unreferencedBlobs: string[];
  bytesFreed: number;
  /** Bytes of the blobs the kept history names. */
  keptBytes: number;
  budget: number | null;
  /** False when the budget cannot be met without what is always kept. */
  budgetMet: boolean;
  keptBecause: Record<KeepReason, number>;
  /** Where the policy's rules stop reaching, as times (for "one per hour from here"). */
  thinning: { everyVersionSince: number; hourlySince: number | null; dailySince: number | null };
}

export function planPrune(input: PlanInput): PrunePlan {
  // Per thread: a prune plans in its worker, so the history process's count stays 0.
  count('prune.plans');
  const { snapshots } = input;
  const indexOf = new Map(snapshots.map((s, i) => [s.id, i]));
  const marks = policyKeeps(snapshots, input.policy);
  const protectedWhy = protectedSnapshots(input, indexOf);
  const why: (KeepReason | RemoveReason)[] = snapshots.map((_, i) => protectedWhy[i] ?? (marks.kept[i] ? 'policy' : 'thinned'));
  const kept = why.map((w) => w !== 'thinned');

  const spans = spansOf(input.versions, indexOf, snapshots.length);
  const keptCount = countKept(spans, kept);
  const refs = new Map<string, number>();
  let keptBytes = 0;
  input.versions.forEach((v, i) => {
    if (v.hash === null || keptCount[i] === 0) return;
    const n = refs.get(v.hash) ?? 0;
    if (n === 0) keptBytes += input.blobSizes.get(v.hash) ?? v.size;
    refs.set(v.hash, n + 1);
  });

  if (input.budget !== null && keptBytes > input.budget) {
    keptBytes = thinForBudget(input, spans, kept, why, keptCount, refs, keptBytes, input.budget);
  }

  return outcome(input, marks, why, kept, spans, keptCount, refs, keptBytes);
}

/** The snapshots nothing removes, with the strongest reason (pinned, newest, uncommitted). */
function protectedSnapshots(input: PlanInput, indexOf: ReadonlyMap<number, number>): (KeepReason | undefined)[] {
  const why: (KeepReason | undefined)[] = input.snapshots.map(() => undefined);
  const mark = (snapshotId: number, reason: KeepReason) => {
    const i = indexOf.get(snapshotId);
    if (i !== undefined && why[i] === undefined) why[i] = reason;
  };
  const { versions } = input;
  // Pinned first: a pin is the user's own reason, and the one the preview and the counts give
  // even where the snapshot would also be kept as the newest.
  for (const v of versions) if (input.pinnedVersions.has(v.id)) mark(v.snapshotId, 'pinned');
  for (const id of input.pinnedSnapshots) mark(id, 'pinned');
  if (input.snapshots.length > 0) mark(input.snapshots.at(-1)!.id, 'newest');
  for (let i = 0; i < versions.length; i++) {
    const v = versions[i]!;
    const next = versions[i + 1];
    // The last contents of a deleted file: the version right before the path's final deletion.
    if (v.hash !== null && next !== undefined && next.path === v.path && next.hash === null) {
      const after = versions[i + 2];
      if (after === undefined || after.path !== v.path) mark(v.snapshotId, 'newest');
    }
  }
  for (const id of input.heldForLines ?? []) mark(id, 'otherMachines');
  for (const v of versions) if (input.uncommittedVersions.has(v.id)) mark(v.snapshotId, 'uncommitted');
  return why;
}

/** Each row's span as snapshot indexes: [start, end), end the index of the path's next row (or the count). */
export function spansOf(rows: readonly PlanRow[], indexOf: ReadonlyMap<number, number>, count: number): { start: Int32Array; end: Int32Array } {
  const start = new Int32Array(rows.length);
  const end = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    start[i] = indexOf.get(rows[i]!.snapshotId)!;
    const next = rows[i + 1];
    end[i] = next !== undefined && next.path === rows[i]!.path ? indexOf.get(next.snapshotId)! : count;
  }
  return { start, end };
}

/** How many kept snapshots lie in each span. */
function countKept(spans: { start: Int32Array; end: Int32Array }, kept: readonly boolean[]): Int32Array {
  const before = new Int32Array(kept.length + 1);
  for (let i = 0; i < kept.length; i++) before[i + 1] = before[i]! + (kept[i] ? 1 : 0);
  const counts = new Int32Array(spans.start.length);
  for (let i = 0; i < counts.length; i++) counts[i] = before[spans.end[i]!]! - before[spans.start[i]!]!;
  return counts;
}

/**
 * Removes kept snapshots that only the policy keeps, oldest first, until the blobs still named
 * fit the budget. Walks the snapshots in order holding the state at each (one row per path): the
 * rows a removed snapshot held lose one kept snapshot from their span, and a blob whose last
 * needed row goes frees its bytes.
 */
function thinForBudget(
  input: PlanInput,
  spans: { start: Int32Array; end: Int32Array },
  kept: boolean[],
  why: (KeepReason | RemoveReason)[],
  keptCount: Int32Array,
  refs: Map<string, number>,
  keptBytes: number,
  budget: number,
): number {
  const byStart = rowsByStart(spans.start, kept.length);
  const state = new Map<string, number>();
  let bytes = keptBytes;
  for (let s = 0; s < kept.length && bytes > budget; s++) {
    for (const row of byStart[s] ?? []) state.set(input.versions[row]!.path, row);
    if (!kept[s] || why[s] !== 'policy') continue;
    kept[s] = false;
    why[s] = 'budget';
    for (const row of state.values()) {
      if (--keptCount[row]! > 0) continue;
      const hash = input.versions[row]!.hash;
      if (hash === null) continue;
      const n = refs.get(hash)! - 1;
      refs.set(hash, n);
      if (n === 0) bytes -= input.blobSizes.get(hash) ?? input.versions[row]!.size;
    }
  }
  return bytes;
}

function rowsByStart(start: Int32Array, count: number): number[][] {
  const lists: number[][] = Array.from({ length: count }, () => []);
  for (let row = 0; row < start.length; row++) lists[start[row]!]!.push(row);
  return lists;
}

function outcome(
  input: PlanInput,
  marks: ReturnType<typeof policyKeeps>,
  why: (KeepReason | RemoveReason)[],
  kept: readonly boolean[],
  spans: { start: Int32Array; end: Int32Array },
  keptCount: Int32Array,
  refs: ReadonlyMap<string, number>,
  keptBytes: number,
): PrunePlan {
  const { snapshots } = input;
  const firstKeptFrom = firstKeptAtOrAfter(kept);
  const removedVersions: number[] = [];
  const movedVersions: { id: number; snapshotId: number }[] = [];
  input.versions.forEach((v, i) => {
    if (keptCount[i] === 0) removedVersions.push(v.id);
    else if (!kept[spans.start[i]!]) movedVersions.push({ id: v.id, snapshotId: snapshots[firstKeptFrom[spans.start[i]!]!]!.id });
  });
  const removedFolderRows: PrunePlan['removedFolderRows'] = [];
  const movedFolderRows: PrunePlan['movedFolderRows'] = [];
  const folderRows = input.folderRows ?? [];
  const indexOf = new Map(snapshots.map((s, i) => [s.id, i]));
  const folderSpans = spansOf(folderRows, indexOf, snapshots.length);
  const folderKept = countKept(folderSpans, kept);
  folderRows.forEach((r, i) => {
    if (folderKept[i] === 0) removedFolderRows.push({ path: r.path, snapshotId: r.snapshotId });
    else if (!kept[folderSpans.start[i]!]) movedFolderRows.push({ path: r.path, from: r.snapshotId, to: snapshots[firstKeptFrom[folderSpans.start[i]!]!]!.id });
  });
  const named = new Set<string>();
  for (const v of input.versions) if (v.hash !== null) named.add(v.hash);
  const unreferencedBlobs: string[] = [];
  let bytesFreed = 0;
  for (const hash of named) {
    if ((refs.get(hash) ?? 0) > 0) continue;
    unreferencedBlobs.push(hash);
    bytesFreed += input.blobSizes.get(hash) ?? 0;
  }
  unreferencedBlobs.sort();
  const keptBecause: Record<KeepReason, number> = { newest: 0, pinned: 0, otherMachines: 0, uncommitted: 0, policy: 0 };
  const decisions = snapshots.map((s, i): SnapshotDecision => {
    const w = why[i]!;
    if (kept[i]) keptBecause[w as KeepReason]++;
    return { snapshotId: s.id, kept: kept[i]!, why: w };
  });
  const removedSnapshots = decisions.filter((d) => !d.kept).map((d) => d.snapshotId);
  const firstKept = kept.indexOf(true);
  const newBaseline = snapshots.length > 0 && !kept[0] && firstKept >= 0 ? snapshots[firstKept]!.id : undefined;
  return {
    decisions,
    removedSnapshots,
    newBaseline,
    removedVersions,
    movedVersions,
    removedFolderRows,
    movedFolderRows,
    unreferencedBlobs,
    bytesFreed,
    keptBytes,
    budget: input.budget,
    budgetMet: input.budget === null || keptBytes <= input.budget,
    keptBecause,
    thinning: { everyVersionSince: marks.everyVersionSince, hourlySince: marks.hourlySince ?? null, dailySince: marks.dailySince ?? null },
  };
}

/** For each snapshot index, the index of the first kept one at or after it (-1: none). */
export function firstKeptAtOrAfter(kept: readonly boolean[]): Int32Array {
  const first = new Int32Array(kept.length);
  let next = -1;
  for (let i = kept.length - 1; i >= 0; i--) {
    if (kept[i]) next = i;
    first[i] = next;
  }
  return first;
}
