import type { PlanInput, PlanRow, PlanSnapshot } from '../../../electron/history/retention/planPrune.js';
import { DEFAULT_RETENTION, type RetentionPolicy } from '../../../shared/retention.js';

// Histories built in memory for the plan's tests (planPrune.test.ts, pruneChunks.test.ts): edits
// turned into snapshot and version rows, the state a snapshot restores, and random histories
// with pins, budgets and a clock that jumps back.

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const START = Date.UTC(2026, 0, 5, 9); // a Monday morning

export interface Edit {
  at: number;
  /** path -> contents name (a hash stand-in), null for a deletion. */
  files: Record<string, string | null>;
  kind?: string;
}

/** A history from edits: one snapshot per edit, versions only for paths whose contents changed. */
export function history(edits: readonly Edit[], sizes: (hash: string) => number = () => 100) {
  const snapshots: PlanSnapshot[] = [];
  const rows: PlanRow[] = [];
  const current = new Map<string, string | null>();
  edits.forEach((edit, i) => {
    const id = i + 1;
    snapshots.push({ id, at: edit.at, kind: edit.kind ?? (i === 0 ? 'baseline' : 'change') });
    for (const [path, hash] of Object.entries(edit.files)) {
      if (current.get(path) === hash) continue;
      current.set(path, hash);
      rows.push({ id: rows.length + 1, snapshotId: id, path, hash, size: hash === null ? 0 : sizes(hash) });
    }
  });
  rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.snapshotId - b.snapshotId));
  const blobSizes = new Map<string, number>();
  for (const r of rows) if (r.hash !== null) blobSizes.set(r.hash, r.size);
  return { snapshots, versions: rows, blobSizes };
}

export function input(h: ReturnType<typeof history>, extra: Partial<PlanInput> = {}): PlanInput {
  return {
    ...h,
    pinnedSnapshots: new Set(),
    pinnedVersions: new Set(),
    uncommittedVersions: new Set(),
    policy: DEFAULT_RETENTION,
    budget: null,
    ...extra,
  };
}

/** Each path's contents at a snapshot, from rows (the state a restore of that snapshot writes). */
export function stateAt(rows: readonly PlanRow[], snapshotId: number): Map<string, string | null> {
  const state = new Map<string, string | null>();
  const sorted = [...rows].sort((a, b) => a.snapshotId - b.snapshotId);
  for (const r of sorted) if (r.snapshotId <= snapshotId) state.set(r.path, r.hash);
  for (const [path, hash] of state) if (hash === null) state.delete(path);
  return state;
}

export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random history (seeded), with a random policy, pins and budget. */
export function randomHistory(seed: number) {
  const random = seeded(seed);
  const edits: Edit[] = [];
  let at = START;
  const paths = Array.from({ length: 2 + Math.floor(random() * 6) }, (_, i) => `p${i}`);
  for (let i = 0; i < 40 + Math.floor(random() * 200); i++) {
    at += random() < 0.05 ? Math.floor(random() * 20 * DAY) : Math.floor(random() * 3 * HOUR);
    if (random() < 0.03) at -= Math.floor(random() * 30 * DAY); // the clock jumps back
    const files: Record<string, string | null> = {};
    for (const p of paths) if (random() < 0.3) files[p] = random() < 0.15 ? null : `${p}-${Math.floor(random() * 30)}`;
    edits.push({ at, files: i === 0 ? Object.fromEntries(paths.map((p) => [p, `${p}-0`])) : files });
  }
  const h = history(edits, (hash) => 10 + ((hash.length * 37) % 500));
  const policy: RetentionPolicy = {
    ...DEFAULT_RETENTION,
    keepAllHours: Math.floor(random() * 30),
    hourly: Math.floor(random() * 20),
    daily: Math.floor(random() * 10),
    weekly: random() < 0.5 ? null : Math.floor(random() * 4),
  };
  const pinnedSnapshots = new Set(h.snapshots.filter(() => random() < 0.03).map((s) => s.id));
  const pinnedVersions = new Set(h.versions.filter(() => random() < 0.02).map((v) => v.id));
  const total = [...h.blobSizes.values()].reduce((a, b) => a + b, 0);
  const budget = random() < 0.5 ? null : Math.floor(total * random());
  return { h, policy, pinnedSnapshots, pinnedVersions, budget, random };
}
