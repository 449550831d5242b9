import { firstKeptAtOrAfter, spansOf, type PlanRow, type PlanSnapshot, type PrunePlan } from './planPrune.js';
import { appendAll } from '../../../shared/largeArrays.js';

// A plan cut into chunks the history process applies one transaction each (retention/prune.ts),
// so a recorded change or a first copy's commit never waits behind a whole prune for the write
// lock. A pure function, tested on its own (test/history/retention/pruneChunks.test.ts).
//
// Every chunk leaves a history that is consistent on its own: a process killed between two
// chunks leaves snapshots that each still restore exactly, and the next prune plans from there.
// A chunk removes a run of removed snapshots, oldest first, whole (a snapshot's rows are never
// split across chunks), with every version and folder-mode row that lies in them: a row no
// snapshot still there needs is removed, one still needed moves to the first snapshot after it
// that stays after this chunk. That snapshot is the plan's kept one, or, when the chunk ends in
// the middle of a removed run, the next removed snapshot: the row is parked there (an interim
// fold) and the chunk that removes that snapshot moves it on. Applied in order, the chunks end
// exactly where the plan ends. The blobs a chunk's removed versions named that the plan leaves
// unreferenced go with the chunk; the write marks those no version names anymore.

export interface PruneChunk {
  removedSnapshots: number[];
  removedVersions: number[];
  movedVersions: { id: number; snapshotId: number }[];
  removedFolderRows: { path: string; snapshotId: number }[];
  movedFolderRows: { path: string; from: number; to: number }[];
  /** The first snapshot left when this chunk removes the first one: it becomes the baseline. */
  newBaseline: number | undefined;
  /** Blobs the plan leaves unreferenced that this chunk's removed versions named. */
  unreferencedBlobs: string[];
}

export interface ChunkInput {
  /** Sorted by id (as planned). */
  snapshots: readonly PlanSnapshot[];
  /** Sorted by path, then snapshotId (as planned). */
  versions: readonly PlanRow[];
  folderRows?: readonly PlanRow[];
}

/** Cuts `plan` into chunks of about `maxRows` rows each (a removed snapshot counts one, and each row it holds one). */
export function pruneChunks(input: ChunkInput, plan: Pick<PrunePlan, 'decisions' | 'unreferencedBlobs'>, maxRows: number): PruneChunk[] {
  const { snapshots } = input;
  const count = snapshots.length;
  const kept = plan.decisions.map((d) => d.kept);
  const indexOf = new Map(snapshots.map((s, i) => [s.id, i]));
  const nextKept = firstKeptAtOrAfter(kept);
  const unreferenced = new Set(plan.unreferencedBlobs);
  const versions = parkedRows(input.versions, indexOf, kept);
  const folderRows = parkedRows(input.folderRows ?? [], indexOf, kept);
  const gone = new Uint8Array(count);
  let first = 0;
  const chunks: PruneChunk[] = [];
  let members: number[] = [];
  let rows = 0;
  const removed = kept.flatMap((k, i) => (k ? [] : [i]));
  removed.forEach((s, k) => {
    members.push(s);
    rows += 1 + versions.parked[s]!.length + folderRows.parked[s]!.length;
    if (rows < maxRows && k < removed.length - 1) return;
    const chunk = emptyChunk();
    // The first snapshot that stays after this chunk: rows needed beyond the chunk move there.
    const after = members[members.length - 1]! + 1;
    for (const at of members) {
      const to = Math.min(nextKept[at]!, after);
      const blobs = new Set<string>();
      for (const row of versions.parked[at]!) {
        const v = input.versions[row]!;
        if (versions.end[row]! <= to) {
          chunk.removedVersions.push(v.id);
          if (v.hash !== null && unreferenced.has(v.hash)) blobs.add(v.hash);
        } else {
          chunk.movedVersions.push({ id: v.id, snapshotId: snapshots[to]!.id });
          if (!kept[to]) versions.parked[to]!.push(row);
        }
      }
      for (const row of folderRows.parked[at]!) {
        const { path } = (input.folderRows ?? [])[row]!;
        if (folderRows.end[row]! <= to) chunk.removedFolderRows.push({ path, snapshotId: snapshots[at]!.id });
        else {
          chunk.movedFolderRows.push({ path, from: snapshots[at]!.id, to: snapshots[to]!.id });
          if (!kept[to]) folderRows.parked[to]!.push(row);
        }
      }
      appendAll(chunk.unreferencedBlobs, blobs);
      chunk.removedSnapshots.push(snapshots[at]!.id);
      gone[at] = 1;
    }
    if (gone[first]) {
      while (gone[first]) first++;
      chunk.newBaseline = snapshots[first]!.id;
    }
    chunk.unreferencedBlobs = [...new Set(chunk.unreferencedBlobs)].sort();
    chunks.push(chunk);
    members = [];
    rows = 0;
  });
  return chunks;
}

/** Each removed snapshot's rows (by position in `rows`), and where each row's span ends (a snapshot index). */
function parkedRows(rows: readonly PlanRow[], indexOf: ReadonlyMap<number, number>, kept: readonly boolean[]): { parked: number[][]; end: Int32Array } {
  const spans = spansOf(rows, indexOf, kept.length);
  const parked: number[][] = kept.map(() => []);
  for (let row = 0; row < rows.length; row++) if (!kept[spans.start[row]!]) parked[spans.start[row]!]!.push(row);
  return { parked, end: spans.end };
}

function emptyChunk(): PruneChunk {
  return {
    removedSnapshots: [],
    removedVersions: [],
    movedVersions: [],
    removedFolderRows: [],
    movedFolderRows: [],
    newBaseline: undefined,
    unreferencedBlobs: [],
  };
}
