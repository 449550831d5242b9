import { describe, expect, it } from 'vitest';
import { joinVersions, type SpellingRow } from '../../../electron/history/db/joinedVersions.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';

// The join checked against the file's own story: generated timelines of one file on a folder whose
// names fold (edits, case-only renames, deletions, a file made again), recorded the way an older
// Hindsight did (a new spelling added beside the old one, every later change under each spelling
// it had), the spellings the disk no longer has later ended as deletions, or the way a rename is
// recorded now (the old spelling deleted, the new one added, in one snapshot). Joined, the path's
// state at every snapshot must be the file's, and no version may repeat the one before it. Fixed
// seed: the same cases every run.

const SPELLINGS = ['README.md', 'readme.md', 'ReadMe.md', 'Readme.md'];

/** A timeline of one file: its rows as recorded, and its contents after each snapshot (null: not there). */
function timeline(next: () => number, snapshots: number): { rows: SpellingRow[]; truth: (string | null)[] } {
  const rows: SpellingRow[] = [];
  const truth: (string | null)[] = [null];
  const recorded = new Set<string>(); // spellings an older Hindsight goes on recording
  let spelling = SPELLINGS[0]!;
  let content: string | null = 'c0';
  let id = 0;
  const row = (snapshotId: number, path: string, hash: string | null) =>
    rows.push({ id: ++id, snapshotId, path, hash, mode: 0o644, type: hash === null ? null : 'file', target: null });
  row(1, spelling, content);
  recorded.add(spelling);
  truth.push(content);
  for (let s = 2; s <= snapshots; s++) {
    const pick = next();
    if (content === null) {
      spelling = SPELLINGS[Math.floor(next() * SPELLINGS.length)]!;
      content = `c${s}`;
      recorded.clear();
      recorded.add(spelling);
      row(s, spelling, content);
    } else if (pick < 0.4) {
      content = `c${s}`;
      for (const path of recorded) row(s, path, content);
    } else if (pick < 0.7) {
      const to = SPELLINGS.filter((p) => p !== spelling)[Math.floor(next() * (SPELLINGS.length - 1))]!;
      if (next() < 0.5) {
        // An older Hindsight: the new spelling beside the old ones, which stay.
        if (!recorded.has(to)) row(s, to, content);
        recorded.add(to);
      } else {
        // As a rename is recorded now: every recorded spelling deleted, the new one added.
        for (const path of recorded) row(s, path, null);
        recorded.clear();
        recorded.add(to);
        row(s, to, content);
      }
      spelling = to;
    } else if (pick < 0.85) {
      content = null;
      for (const path of recorded) row(s, path, null);
    } else if (pick < 0.93 && recorded.size > 1) {
      // A rescan that knows the folder's spelling: the spellings the disk does not have end as deletions.
      for (const path of recorded) if (path !== spelling) row(s, path, null);
      recorded.clear();
      recorded.add(spelling);
    } else {
      continue; // a snapshot of other files
    }
    truth[s] = content;
    for (let t = truth.length; t < s; t++) truth[t] = truth[t - 1] ?? null;
  }
  for (let t = 1; t <= snapshots; t++) if (truth[t] === undefined) truth[t] = truth[t - 1] ?? null;
  rows.sort((a, b) => a.snapshotId - b.snapshotId || a.id - b.id);
  return { rows, truth };
}

describe('versions of one file under several spellings, joined', () => {
  it('say at every snapshot what the file held, and never repeat themselves (2,000 generated timelines)', () => {
    const next = seededRandom(40);
    for (let n = 0; n < 2000; n++) {
      const snapshots = 2 + Math.floor(next() * 20);
      const { rows, truth } = timeline(next, snapshots);
      const plan = joinVersions(rows, 'readme.md');
      if ('conflict' in plan) throw new Error(`case ${n}: one file taken for two: ${JSON.stringify(plan.conflict)}`);
      const kept = rows.filter((r) => plan.kept.includes(r.id));
      expect(kept.length + plan.dropped.size, `case ${n}: every row kept or dropped`).toBe(rows.length);
      let state: string | null = null;
      for (let s = 1, k = 0; s <= snapshots; s++) {
        while (k < kept.length && kept[k]!.snapshotId === s) state = kept[k++]!.hash;
        expect(state, `case ${n}, snapshot ${s}`).toBe(truth[s]);
      }
      for (let k = 1; k < kept.length; k++) expect(kept[k]!.hash, `case ${n}: a repeat`).not.toBe(kept[k - 1]!.hash);
      for (const [id, holder] of plan.dropped) {
        const dropped = rows.find((r) => r.id === id)!;
        if (holder !== undefined) expect(rows.find((r) => r.id === holder)!.hash, `case ${n}: a pin handed to other contents`).toBe(dropped.hash);
      }
    }
  });
});
