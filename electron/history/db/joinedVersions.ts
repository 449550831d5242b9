// One file recorded under two spellings (`README.md` and `readme.md`, by a Hindsight that compared
// names exactly on a folder that folds them) has two version lists. Joined, they are one list in
// time order: at each snapshot the file is what any spelling recorded there, a version equal to
// the one before it is no change (an older Hindsight recorded each edit once per spelling), and a
// deletion of one spelling while another still holds the file (a case-only rename: the old name
// deleted, the new one added) is no deletion. Where two spellings held different contents at one
// time they were two files (a history made where names are exact): nothing of them is joined.

/** One version row of a spelling, in the order of its snapshot. */
export interface SpellingRow {
  id: number;
  snapshotId: number;
  path: string;
  /** null: a deletion. */
  hash: string | null;
  mode: number;
  type: string | null;
  target: string | null;
}

export type JoinPlan =
  | {
      /** The rows that stay, each now at the joined path. */
      kept: number[];
      /** Each row that goes, with the kept row holding the same contents (undefined: a deletion, nothing to point at). */
      dropped: Map<number, number | undefined>;
    }
  | { conflict: { snapshotId: number; paths: string[] } };

const DELETED = '';

function contentOf(row: SpellingRow): string {
  return row.hash === null ? DELETED : JSON.stringify([row.type, row.hash, row.mode, row.target]);
}

/** The joined list of `rows` (every spelling's, ordered by snapshot then id), `path` preferred where two rows say the same. */
export function joinVersions(rows: readonly SpellingRow[], path: string): JoinPlan {
  const kept: number[] = [];
  const dropped = new Map<number, number | undefined>();
  const alive = new Map<string, string>(); // spelling -> its contents now (absent: deleted or never there)
  let joined: string | undefined; // the joined path's contents now (DELETED, or undefined before its first row)
  let holder: number | undefined; // the kept row holding `joined`
  for (let start = 0; start < rows.length;) {
    let end = start;
    while (end < rows.length && rows[end]!.snapshotId === rows[start]!.snapshotId) end++;
    const here = rows.slice(start, end);
    start = end;
    for (const row of here) {
      if (row.hash === null) alive.delete(row.path);
      else alive.set(row.path, contentOf(row));
    }
    const contents = new Set(alive.values());
    if (contents.size > 1) return { conflict: { snapshotId: here[0]!.snapshotId, paths: [...alive.keys()].sort() } };
    const files = here.filter((row) => row.hash !== null);
    const now = files.length > 0 ? contentOf(files[0]!) : contents.size > 0 ? joined : DELETED;
    if (now === joined) {
      for (const row of here) dropped.set(row.id, row.hash === null ? undefined : holder);
      continue;
    }
    const candidates = files.length > 0 ? files : here;
    const keep = candidates.find((row) => row.path === path) ?? candidates[0]!;
    kept.push(keep.id);
    for (const row of here) if (row !== keep) dropped.set(row.id, row.hash === null ? undefined : keep.id);
    joined = now;
    holder = now === DELETED ? undefined : keep.id;
  }
  return { kept, dropped };
}
