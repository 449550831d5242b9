import { describe, expect, it } from 'vitest';
import { planPrune, type PlanRow, type PrunePlan } from '../../../electron/history/retention/planPrune.js';
import { DEFAULT_RETENTION } from '../../../shared/retention.js';
import { DAY, HOUR, MIN, START, history, input, randomHistory, stateAt, type Edit } from './planHistories.js';

// The retention plan on histories built in memory: buckets that count only where snapshots
// exist (a month powered off loses nothing), a clock that jumps back, what is always kept
// (newest, pinned, uncommitted), the budget thinned from the oldest, and folding: every kept
// snapshot restores exactly what it did before, checked on many random histories.

// Buckets follow local time: the expectations are written for UTC.
process.env.TZ = 'UTC';

/** The rows after a plan is applied, as the database would hold them. */
function applied(rows: readonly PlanRow[], plan: PrunePlan): PlanRow[] {
  const removed = new Set(plan.removedVersions);
  const moved = new Map(plan.movedVersions.map((m) => [m.id, m.snapshotId]));
  return rows.filter((r) => !removed.has(r.id)).map((r) => ({ ...r, snapshotId: moved.get(r.id) ?? r.snapshotId }));
}

function keptIds(plan: PrunePlan): number[] {
  return plan.decisions.filter((d) => d.kept).map((d) => d.snapshotId);
}

/** Edits of a few files every `every` ms during working hours (9-17) for `days` days from `from`. */
function workdays(from: number, days: number, every: number, files = 3): Edit[] {
  const edits: Edit[] = [];
  let n = 0;
  for (let d = 0; d < days; d++) {
    for (let t = from + d * DAY; t < from + d * DAY + 8 * HOUR; t += every) {
      n++;
      edits.push({ at: t, files: { [`f${n % files}.txt`]: `c${n}` } });
    }
  }
  return edits;
}

describe('the retention plan', () => {
  it('keeps everything from the last 24 hours, one per hour for the hours before, and the newest always', () => {
    const edits = workdays(START, 3, 10 * MIN);
    const plan = planPrune(input(history(edits)));
    const h = history(edits);
    const newest = h.snapshots.at(-1)!;
    for (const d of plan.decisions) {
      const s = h.snapshots[d.snapshotId - 1]!;
      if (s.at >= newest.at - DAY) expect(d.kept, `snapshot ${s.id}`).toBe(true);
    }
    // Before the last 24 hours: one snapshot kept per hour (the newest in it), for the 8 working
    // hours of the first day and 7 of the second (its last hour's newest is within the 24 hours).
    const older = plan.decisions.filter((d) => h.snapshots[d.snapshotId - 1]!.at < newest.at - DAY);
    expect(older.filter((d) => d.kept)).toHaveLength(15);
    expect(older.filter((d) => !d.kept).every((d) => d.why === 'thinned')).toBe(true);
    expect(plan.keptBecause.newest).toBe(1);
  });

  it('loses nothing to a month powered off: buckets count where snapshots exist, not durations', () => {
    const before = workdays(START, 40, 20 * MIN);
    const last = before.at(-1)!.at;
    // The same next edit after the weekend (a new hour, day and week) or after a month with the machine off.
    const nextDay = planPrune(input(history([...before, { at: last + 3 * DAY + HOUR, files: { 'f0.txt': 'back' } }])));
    const monthOff = planPrune(input(history([...before, { at: last + 31 * DAY, files: { 'f0.txt': 'back' } }])));
    expect(keptIds(monthOff)).toEqual(keptIds(nextDay));
    // Hourly still reaches back 168 hours that had work (three weeks of working days), not a calendar week.
    const hourly = monthOff.decisions.filter((d, i) => d.kept && i < before.length);
    expect(hourly.length).toBeGreaterThanOrEqual(168);
    const oldestHourly = before[monthOff.decisions.findIndex((d, i) => d.kept && i < before.length && before[i]!.at >= monthOff.thinning.hourlySince!)]!.at;
    expect(last - oldestHourly).toBeGreaterThan(14 * DAY);
  });

  it('keeps what was recorded after the clock jumped back a year, and nothing recent turns old', () => {
    const edits = workdays(START, 2, 5 * MIN);
    const jumped = edits.slice(-40).map((e, i) => ({ at: START - 365 * DAY + i * 5 * MIN, files: { [`g${i % 2}.txt`]: `j${i}` } }));
    const all = [...edits, ...jumped];
    const plan = planPrune(input(history(all)));
    const decisions = plan.decisions;
    // Every snapshot after the jump, and every one within 24 hours of the last one before it, is kept.
    const jumpAt = edits.length;
    expect(decisions.slice(jumpAt).every((d) => d.kept)).toBe(true);
    const lastReal = edits.at(-1)!.at;
    edits.forEach((e, i) => {
      if (e.at >= lastReal - DAY) expect(decisions[i]!.kept, `snapshot ${i + 1}`).toBe(true);
    });
  });

  it('keeps the snapshot of the last contents of a deleted file, however old', () => {
    const edits: Edit[] = [{ at: START, files: { 'a.txt': 'a1', 'gone.txt': 'g1' } }];
    for (let i = 1; i < 60; i++)
      edits.push({
        at: START + i * 10 * MIN,
        files: { 'a.txt': `a${i + 1}`, ...(i === 5 ? { 'gone.txt': 'g2' } : {}), ...(i === 6 ? { 'gone.txt': null } : {}) },
      });
    edits.push({ at: START + 30 * DAY, files: { 'a.txt': 'late' } });
    const h = history(edits);
    const plan = planPrune(input(h, { policy: { ...DEFAULT_RETENTION, hourly: 0, daily: 0, weekly: 0 } }));
    expect(plan.decisions[5]).toMatchObject({ kept: true, why: 'newest' });
    expect(plan.unreferencedBlobs).not.toContain('g2');
    expect(plan.unreferencedBlobs).toContain('g1');
    // The newest version of the present file stays too (folded forward, never removed).
    expect(stateAt(applied(h.versions, plan), 61).get('a.txt')).toBe('late');
    expect(keptIds(plan)).toEqual([6, 61]);
  });

  it('never removes pinned snapshots, the snapshots of pinned versions, or uncommitted young versions, even over budget', () => {
    const edits = workdays(START, 20, 30 * MIN);
    const h = history(edits);
    const pinnedVersion = h.versions.find((v) => v.snapshotId === 40)!;
    const uncommitted = h.versions.find((v) => v.snapshotId === h.snapshots.length - 30)!;
    const plan = planPrune(
      input(h, { pinnedSnapshots: new Set([3]), pinnedVersions: new Set([pinnedVersion.id]), uncommittedVersions: new Set([uncommitted.id]), budget: 1 }),
    );
    expect(plan.decisions[2]).toMatchObject({ kept: true, why: 'pinned' });
    expect(plan.decisions[39]).toMatchObject({ kept: true, why: 'pinned' });
    expect(plan.decisions[uncommitted.snapshotId - 1]).toMatchObject({ kept: true, why: 'uncommitted' });
    expect(plan.budgetMet).toBe(false);
    expect(plan.keptBecause).toEqual({ newest: 1, pinned: 2, otherMachines: 0, uncommitted: 1, policy: 0 });
    expect(plan.decisions.filter((d) => d.why === 'budget').length).toBeGreaterThan(0);
  });

  it('gives Pinned as the reason for a pinned snapshot that is also the newest, and counts it as pinned', () => {
    const h = history(workdays(START, 3, 30 * MIN));
    const newest = h.snapshots.at(-1)!.id;
    const plan = planPrune(input(h, { pinnedSnapshots: new Set([newest, 2]), budget: 1 }));
    expect(plan.decisions.at(-1)).toMatchObject({ snapshotId: newest, kept: true, why: 'pinned' });
    expect(plan.keptBecause.pinned).toBe(2);
    expect(plan.keptBecause.newest).toBe(0);
  });

  it('over budget, thins from the oldest until the kept blobs fit', () => {
    const edits = workdays(START, 30, 15 * MIN);
    const h = history(edits, () => 1000);
    const free = planPrune(input(h));
    expect(free.budgetMet).toBe(true);
    const budget = Math.floor(free.keptBytes / 2);
    const plan = planPrune(input(h, { budget }));
    expect(plan.keptBytes).toBeLessThanOrEqual(budget);
    expect(plan.budgetMet).toBe(true);
    // What the budget removed is the oldest of what the policy kept, in one run from the start.
    const policyKept = free.decisions.filter((d) => d.kept && d.why === 'policy').map((d) => d.snapshotId);
    const byBudget = plan.decisions.filter((d) => d.why === 'budget').map((d) => d.snapshotId);
    expect(byBudget.length).toBeGreaterThan(0);
    expect(byBudget).toEqual(policyKept.slice(0, byBudget.length));
    // It stopped as soon as the budget was met: one snapshot fewer removed would be over it.
    expect(plan.keptBytes).toBeGreaterThan(budget - 3 * 1000 - 1);
  });

  it('makes the first kept snapshot the baseline when the baseline goes', () => {
    const edits = workdays(START, 10, HOUR);
    const plan = planPrune(input(history(edits), { policy: { ...DEFAULT_RETENTION, hourly: 0, daily: 2, weekly: 0 } }));
    expect(plan.decisions[0]!.kept).toBe(false);
    expect(plan.newBaseline).toBe(keptIds(plan)[0]);
  });

  it('folds: every kept snapshot restores exactly what it did before, on random histories, pins and budgets', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { h, policy, pinnedSnapshots, pinnedVersions, budget } = randomHistory(seed);
      const plan = planPrune(input(h, { policy, pinnedSnapshots, pinnedVersions, budget }));
      const after = applied(h.versions, plan);
      const kept = keptIds(plan);
      expect(kept, `seed ${seed}`).toContain(h.snapshots.at(-1)!.id);
      for (const id of kept) expect(stateAt(after, id), `seed ${seed} snapshot ${id}`).toEqual(stateAt(h.versions, id));
      for (const id of pinnedSnapshots) expect(kept).toContain(id);
      for (const v of h.versions) if (pinnedVersions.has(v.id)) expect(after.find((r) => r.id === v.id)?.snapshotId, `seed ${seed}`).toBe(v.snapshotId);
      // No row is left in a removed snapshot, a path has one row per snapshot, and the blobs named are the blobs kept.
      const keptSet = new Set(kept);
      expect(after.every((r) => keptSet.has(r.snapshotId))).toBe(true);
      expect(new Set(after.map((r) => `${r.path}@${r.snapshotId}`)).size).toBe(after.length);
      const named = new Set(after.flatMap((r) => (r.hash === null ? [] : [r.hash])));
      expect([...named].some((hash) => plan.unreferencedBlobs.includes(hash))).toBe(false);
      expect([...named].reduce((sum, hash) => sum + h.blobSizes.get(hash)!, 0)).toBe(plan.keptBytes);
      if (plan.budgetMet && budget !== null) expect(plan.keptBytes).toBeLessThanOrEqual(budget);
    }
  });
});
