import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catchUpLabel, catchUpTitle, lastSeenAt, markRunning, markWatched } from '../../../electron/history/recorder/catchUp.js';
import { RunningMark } from '../../../electron/history/recorder/runningMark.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// The span a catch-up covers: from the project's last sign of life (the recorder's mark in
// history.db meta, the last rescan, the last snapshot), whichever is latest.

describe('the catch-up span', () => {
  it('starts at the latest of the running mark, the last rescan and the last snapshot', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'one' });
    const baselineAt = store.index.snapshotReads.snapshot(store.index.snapshotReads.baselineId()!)!.at;
    // The helper moved the last scan into the far future (no racy files): back to the first copy.
    store.index.setMeta('lastScanAt', String(baselineAt));
    expect(lastSeenAt(store)).toBeGreaterThanOrEqual(baselineAt);
    const later = Date.now() + 3_600_000;
    markRunning(store, later);
    expect(lastSeenAt(store)).toBe(later);
    // A mark is kept across connections: it is in history.db.
    await engine.closeProject(projectId);
    expect(lastSeenAt(engine.store(projectId))).toBe(later);

    writeFileSync(join(root, 'a.txt'), 'two');
    const caught = await engine.rescan(projectId, { label: () => catchUpLabel(lastSeenAt(engine.store(projectId)), later + 60_000) });
    expect(engine.store(projectId).index.snapshotReads.snapshot(caught.snapshotId!)!.label).toBe(catchUpLabel(later, later + 60_000));
  });

  it("takes the data folder's running mark only for a project the run that wrote it was watching", async () => {
    const { engine, store } = await projectWithBaseline({ 'a.txt': 'one' });
    const baselineAt = store.index.snapshotReads.snapshot(store.index.snapshotReads.baselineId()!)!.at;
    store.index.setMeta('lastScanAt', String(baselineAt));
    const mark = new RunningMark(engine.dataDir);
    mark.begin();
    const watchedAt = baselineAt + 1000;
    markWatched(store, mark.run, watchedAt);
    // Whole seconds: the mark is an mtime.
    const beatAt = Math.ceil(Date.now() / 1000) * 1000 + 3_600_000;
    mark.beat(beatAt);
    expect(RunningMark.read(engine.dataDir)).toEqual({ run: mark.run, at: beatAt });
    expect(lastSeenAt(store, RunningMark.read(engine.dataDir))).toBe(beatAt);
    // Without the mark (a store from before it, or a clean stop), the project's own marks.
    expect(lastSeenAt(store)).toBe(watchedAt);

    // Another run's beats say nothing of a project it did not watch.
    const other = new RunningMark(engine.dataDir);
    other.begin();
    other.beat(beatAt + 60_000);
    expect(lastSeenAt(store, RunningMark.read(engine.dataDir))).toBe(watchedAt);

    // A project the run stopped watching (its folder gone) keeps the time it stopped, whatever the run's later beats.
    markWatched(store, other.run, watchedAt);
    markRunning(store, watchedAt + 5000);
    expect(lastSeenAt(store, RunningMark.read(engine.dataDir))).toBe(watchedAt + 5000);
    // A clean stop removes the run's mark.
    other.end();
    expect(RunningMark.read(engine.dataDir)).toBeUndefined();
  });

  it('titles the span in local minutes, and says only its end for a history never seen', () => {
    const at = new Date(2026, 0, 2, 3, 4, 59).getTime();
    expect(catchUpLabel(at, at + 2 * 3_600_000)).toBe('Changed while Hindsight was not running from 2026-01-02 03:04 to 2026-01-02 05:04');
    expect(catchUpLabel(undefined, at)).toBe('Changed while Hindsight was not running to 2026-01-02 03:04');
    expect(catchUpLabel(at, at + 60_000, 'paused')).toBe('Changed while recording was paused from 2026-01-02 03:04 to 2026-01-02 03:05');
    // Both ends in one minute: the minute is said once.
    const sameMinute = new Date(2026, 0, 2, 3, 4, 1).getTime();
    expect(catchUpLabel(sameMinute, at)).toBe('Changed while Hindsight was not running at 2026-01-02 03:04');
  });

  it('is given only when a file changed after the last sign of life: one changed while a recorder ran is not titled so', () => {
    const since = new Date(2026, 0, 2, 3, 4, 30).getTime();
    const title = catchUpTitle(since, since + 3_600_000);
    expect(title(since - 5000)).toBeNull();
    // File times lag the clock a little: a change just before the mark may have come after it.
    expect(title(since - 10)).not.toBeNull();
    expect(title(since + 1000)).toBe('Changed while Hindsight was not running from 2026-01-02 03:04 to 2026-01-02 04:04');
    // A deletion has no time: made while nothing recorded.
    expect(title(undefined)).toBe(catchUpLabel(since, since + 3_600_000));
  });

  it('a catch-up of a file changed before a recorder last ran is not titled as changed while nothing ran; one changed after is', async () => {
    const { engine, root, projectId, store } = await projectWithBaseline({ 'a.txt': 'one', 'b.txt': 'b' });
    writeFileSync(join(root, 'a.txt'), 'changed, then a recorder ran without seeing it');
    markRunning(store, Date.now() + 60_000);
    const missed = await engine.rescan(projectId, { label: catchUpTitle(lastSeenAt(store), Date.now() + 120_000) });
    expect(store.index.snapshotReads.snapshot(missed.snapshotId!)!.label).toBeNull();

    markRunning(store, Date.now() - 60_000);
    writeFileSync(join(root, 'b.txt'), 'changed while nothing ran');
    const since = lastSeenAt(store);
    const until = Date.now();
    const caught = await engine.rescan(projectId, { label: catchUpTitle(since, until) });
    expect(store.index.snapshotReads.snapshot(caught.snapshotId!)!.label).toBe(catchUpLabel(since, until));
  });

  it('gives a rescan that finds nothing no snapshot, whatever its title', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'a.txt': 'one' });
    const before = store.index.snapshotReads.latestSnapshotId();
    let asked = 0;
    const result = await engine.rescan(projectId, { label: () => `asked ${++asked}` });
    expect([result.snapshotId, store.index.snapshotReads.latestSnapshotId(), asked]).toEqual([null, before, 0]);
  });
});
