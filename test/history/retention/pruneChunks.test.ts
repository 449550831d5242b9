import { describe, expect, it } from 'vitest';
import { planPrune, type PlanRow } from '../../../electron/history/retention/planPrune.js';
import { pruneChunks, type PruneChunk } from '../../../electron/history/retention/pruneChunks.js';
import { decodeChunk, encodeChunk } from '../../../electron/history/retention/pruneProtocol.js';
import { input, randomHistory, stateAt } from './planHistories.js';

// The plan cut into chunks, each applied as the history process applies it (one transaction per
// chunk), on many random histories and chunk sizes: after every chunk each snapshot still there
// restores exactly what it did before (a process killed between two chunks leaves a consistent
// history), every row sits in a snapshot still there, and the last chunk ends exactly where the
// whole plan ends, with the blobs it left unreferenced marked.

process.env.TZ = 'UTC';

/** Folder-mode rows at random snapshots of two folders, sorted as the plan reads them. */
function folderRows(snapshots: readonly { id: number }[], random: () => number): PlanRow[] {
  const rows: PlanRow[] = [];
  for (const path of ['d0', 'd1']) {
    for (const s of snapshots) if (s === snapshots[0] || random() < 0.1) rows.push({ id: rows.length, snapshotId: s.id, path, hash: null, size: 0 });
  }
  return rows;
}

interface Model {
  snapshots: Set<number>;
  versions: Map<number, PlanRow>;
  /** Folder rows by their position in the input: where each sits now. */
  folders: Map<number, { path: string; snapshotId: number }>;
  marked: Set<string>;
  baseline: number;
}

/** Applies one chunk to the model as pruneQueries.applyPrune applies it to history.db. */
function apply(model: Model, chunk: PruneChunk): void {
  for (const id of chunk.removedVersions) expect(model.versions.delete(id)).toBe(true);
  for (const move of chunk.movedVersions) model.versions.set(move.id, { ...model.versions.get(move.id)!, snapshotId: move.snapshotId });
  const folderAt = (path: string, snapshotId: number) => [...model.folders].find(([, r]) => r.path === path && r.snapshotId === snapshotId)![0];
  for (const r of chunk.removedFolderRows) model.folders.delete(folderAt(r.path, r.snapshotId));
  for (const r of chunk.movedFolderRows) model.folders.set(folderAt(r.path, r.from), { path: r.path, snapshotId: r.to });
  for (const id of chunk.removedSnapshots) expect(model.snapshots.delete(id)).toBe(true);
  if (chunk.newBaseline !== undefined) model.baseline = chunk.newBaseline;
  const named = new Set([...model.versions.values()].map((v) => v.hash));
  for (const hash of chunk.unreferencedBlobs) if (!named.has(hash)) model.marked.add(hash);
}

/** Which folder row (by its position in the input) each folder's mode comes from at a snapshot. */
function foldersAt(rows: readonly { i: number; path: string; snapshotId: number }[], snapshotId: number): Map<string, number> {
  const state = new Map<string, { at: number; i: number }>();
  for (const r of rows) {
    const seen = state.get(r.path);
    if (r.snapshotId <= snapshotId && (!seen || seen.at < r.snapshotId)) state.set(r.path, { at: r.snapshotId, i: r.i });
  }
  return new Map([...state].map(([path, s]) => [path, s.i]));
}

describe('a prune applied in chunks', () => {
  it('leaves a consistent history after every chunk and ends where the whole plan ends, on random histories', () => {
    let split = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const { h, policy, pinnedSnapshots, pinnedVersions, budget, random } = randomHistory(seed);
      const folders = folderRows(h.snapshots, random);
      const plan = planPrune(input(h, { folderRows: folders, policy, pinnedSnapshots, pinnedVersions, budget }));
      for (const maxRows of [2, 9, 1_000_000]) {
        const at = `seed ${seed}, ${maxRows} rows`;
        // Through the worker's encoding, as the history process receives them.
        const chunks = pruneChunks({ ...h, folderRows: folders }, plan, maxRows).map((c) => decodeChunk(encodeChunk(c)));
        if (chunks.length > 1) split++;
        const model: Model = {
          snapshots: new Set(h.snapshots.map((s) => s.id)),
          versions: new Map(h.versions.map((v) => [v.id, v])),
          folders: new Map(folders.map((r, i) => [i, { path: r.path, snapshotId: r.snapshotId }])),
          marked: new Set(),
          baseline: h.snapshots[0]!.id,
        };
        const foldersBefore = folders.map((r, i) => ({ ...r, i }));
        for (const chunk of chunks) {
          apply(model, chunk);
          expect(Math.min(...model.snapshots), at).toBe(model.baseline);
          const rows = [...model.versions.values()];
          expect(
            rows.every((r) => model.snapshots.has(r.snapshotId)),
            at,
          ).toBe(true);
          expect(
            [...model.folders.values()].every((r) => model.snapshots.has(r.snapshotId)),
            at,
          ).toBe(true);
          expect(new Set(rows.map((r) => `${r.path}@${r.snapshotId}`)).size, at).toBe(rows.length);
          for (const id of model.snapshots) {
            expect(stateAt(rows, id), `${at} snapshot ${id}`).toEqual(stateAt(h.versions, id));
            expect(
              foldersAt(
                [...model.folders].map(([i, r]) => ({ ...r, i })),
                id,
              ),
              `${at} snapshot ${id}`,
            ).toEqual(foldersAt(foldersBefore, id));
          }
        }
        // Where the whole plan ends.
        expect(
          [...model.snapshots].sort((a, b) => a - b),
          at,
        ).toEqual(plan.decisions.filter((d) => d.kept).map((d) => d.snapshotId));
        const removed = new Set(plan.removedVersions);
        const moved = new Map(plan.movedVersions.map((m) => [m.id, m.snapshotId]));
        const expected = h.versions.filter((v) => !removed.has(v.id)).map((v) => [v.id, moved.get(v.id) ?? v.snapshotId]);
        expect(
          [...model.versions.values()].map((v) => [v.id, v.snapshotId]),
          at,
        ).toEqual(expect.arrayContaining(expected));
        expect(model.versions.size, at).toBe(expected.length);
        expect([...model.marked].sort(), at).toEqual(plan.unreferencedBlobs);
        expect(model.baseline, at).toBe(plan.newBaseline ?? h.snapshots[0]!.id);
      }
    }
    // The small sizes did cut plans into several chunks.
    expect(split).toBeGreaterThan(30);
  });
});
