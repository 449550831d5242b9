import { describe, expect, it } from 'vitest';
import type { SnapshotInfo } from '../../../shared/contract.js';
import { DEFAULT_RETENTION } from '../../../shared/retention.js';
import { thinningMarks } from '../../../renderer/features/timeline/thinningMarks.js';

// Where the timeline says thinning starts: above the first snapshot past each rule's reach, in
// order (every version, then one per hour, one per day, one per week), and only where a rule
// reaches further than the one before it.

// Buckets follow local time: the expectations are written for UTC.
process.env.TZ = 'UTC';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 5, 10, 12);
const EDIT = { kind: 'edit', fromVersionId: null, fromSnapshotId: null, fromGit: null, gitOperation: null, gitWhen: null } as const;

function snapshots(hoursAgo: readonly number[]): SnapshotInfo[] {
  // Newest first, as the timeline lists them; ids grow with time.
  return [...hoursAgo]
    .sort((a, b) => a - b)
    .map((h, i, all) => ({
      snapshotId: all.length - i,
      kind: 'change',
      at: NOW - h * HOUR,
      label: null,
      files: 1,
      branch: null,
      head: null,
      origin: EDIT,
      scope: 'a.txt',
    }));
}

describe('thinning marks', () => {
  it('marks where one per hour, one per day and one per week start, newest first', () => {
    const list = snapshots([0, 5, 20, 30, 40, 60, 200, 400, 900]);
    const marks = thinningMarks(list, { ...DEFAULT_RETENTION, hourly: 6, daily: 4 });
    const shown = list.flatMap((s) => (marks.has(s.snapshotId) ? [[Math.round((NOW - s.at) / HOUR), marks.get(s.snapshotId)]] : []));
    expect(shown).toEqual([
      // Hourly keeps back to 60 hours ago; daily's fourth day with changes is 200 hours ago.
      [30, 'One per hour from here'],
      [200, 'One per day from here'],
      [400, 'One per week from here'],
    ]);
  });

  it('skips a rule that reaches no further than the one before it', () => {
    const list = snapshots([0, 2, 4, 30, 60]);
    const marks = thinningMarks(list, { ...DEFAULT_RETENTION, hourly: 2 });
    expect([...marks.values()]).toEqual(['One per day from here']);
  });
});
