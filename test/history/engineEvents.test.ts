import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineEvent, HindsightEvent } from '../../shared/contract.js';
import { SNAPSHOT_EFFECT_PATHS } from '../../shared/history.js';
import { HistoryIndex } from '../../electron/history/db/historyIndex.js';
import { SnapshotIndex } from '../../electron/history/db/snapshotIndex.js';
import { createDispatcher } from '../../electron/history/dispatcher/dispatcher.js';
import { HistoryEngine } from '../../electron/history/historyEngine.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';
import { notRacy } from './versions/versionsHelpers.js';

// The engine announces what it records, where it records it: every snapshot committed (a first
// copy, a rescan and its checkpoint, a restore and the capture before it, a named checkpoint) is
// one `snapshot` event carrying the row the index holds, and the dispatcher forwards the engine's
// events unchanged, rebuilding none from the index.

function engineWithEvents(): { engine: HistoryEngine; events: EngineEvent[] } {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(async () => {
    await engine.unwatchAll();
    engine.close();
  });
  const events: EngineEvent[] = [];
  engine.events.on((event) => events.push(event));
  return { engine, events };
}

function announced(events: EngineEvent[]) {
  return events.flatMap((e) => (e.event === 'snapshot' ? [e.payload] : []));
}

describe('the engine announces every snapshot where it is committed', () => {
  it('once per snapshot, with the very row the index holds, whoever wrote it', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`src/f${i}.txt`] = `file ${i}`;
    writeTree(root, { ...files, 'notes.md': 'first\n' });
    const { engine, events } = engineWithEvents();

    const { projectId } = await engine.open(root);
    const store = engine.store(projectId);
    notRacy(store);
    writeFileSync(join(root, 'notes.md'), 'second\n');
    const [baselineNotes] = engine.versions(projectId, 'notes.md');
    await engine.restoreFile(projectId, 'notes.md', baselineNotes!.versionId); // capture, then restore
    await engine.checkpoint(projectId, 'named');
    rmSync(join(root, 'src'), { recursive: true }); // a mass change: a checkpoint before the group
    await engine.rescan(projectId);
    await engine.restoreSnapshot(projectId, store.index.snapshotReads.baselineId()!); // the restore
    await engine.rescan(projectId); // nothing changed: nothing announced

    const log = engine.log(projectId);
    expect(log.map((s) => s.kind)).toEqual(['baseline', 'change', 'restore', 'checkpoint', 'checkpoint', 'change', 'restore']);
    // Each snapshot announced exactly once, in order, as the log lists it.
    expect(announced(events).map(({ projectId, snapshot }) => ({ projectId, snapshot }))).toEqual(log.map((snapshot) => ({ projectId, snapshot })));
  });

  it('with what it changed: the paths it recorded, whether one is a deletion, whether it was pinned', async () => {
    const root = tempDir();
    writeTree(root, { 'notes.md': 'first\n', 'src/a.txt': 'a\n', 'src/b.txt': 'b\n' });
    const { engine, events } = engineWithEvents();
    const { projectId } = await engine.open(root);
    notRacy(engine.store(projectId));
    writeFileSync(join(root, 'src/b.txt'), 'b again\n');
    rmSync(join(root, 'src/a.txt'));
    await engine.rescan(projectId);
    const [baselineNotes] = engine.versions(projectId, 'notes.md');
    writeFileSync(join(root, 'notes.md'), 'second\n');
    await engine.restoreFile(projectId, 'notes.md', baselineNotes!.versionId); // capture, then restore
    await engine.checkpoint(projectId, 'named');

    expect(announced(events).map((a) => [a.snapshot.kind, a.effect])).toEqual([
      ['baseline', { paths: ['notes.md', 'src/a.txt', 'src/b.txt'], removed: false, pinned: false }],
      ['change', { paths: ['src/a.txt', 'src/b.txt'], removed: true, pinned: false }],
      ['change', { paths: ['notes.md'], removed: false, pinned: false }],
      ['restore', { paths: ['notes.md'], removed: false, pinned: false }],
      ['checkpoint', { paths: [], removed: false, pinned: true }],
    ]);
  });

  it('names no path of a snapshot recording more than SNAPSHOT_EFFECT_PATHS, and tells nothing of another machine’s', async () => {
    const root = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i <= SNAPSHOT_EFFECT_PATHS; i++) files[`many/f${i}.txt`] = `file ${i}`;
    writeTree(root, files);
    const { engine, events } = engineWithEvents();
    await engine.open(root);
    expect(announced(events).map((a) => a.effect)).toEqual([{ paths: null, removed: false, pinned: false }]);

    const index = new HistoryIndex(join(tempDir(), 'history.db'), { onSnapshot: (snapshot, effect) => told.push(effect) });
    onTestFinished(() => index.close());
    const told: unknown[] = [];
    const version = { path: 'a.txt', hash: null, mode: 0o644, size: 0, type: null };
    index.commitSnapshot({ snapshot: { kind: 'change', machine: 'elsewhere', machineSnapshot: 7 }, versions: [version], blobs: [] });
    expect(told).toEqual([undefined]);
  });

  it('carries the progress of the work it was given an operationId for', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a' });
    const { engine, events } = engineWithEvents();
    const { projectId } = await engine.open(root, { operationId: 'open-1' });
    await engine.verify(projectId, { operationId: 'verify-1' });
    const done = events.flatMap((e) => (e.event === 'progress' && e.payload.phase === 'done' ? [[e.payload.operation, e.payload.operationId]] : []));
    expect(done).toEqual([
      ['first-copy', 'open-1'],
      ['verify', 'verify-1'],
    ]);
  });
});

describe('the dispatcher forwards the engine’s events', () => {
  it('unchanged and in order, and never lists the snapshots to find what was recorded', async () => {
    const root = tempDir();
    writeTree(root, { 'keep.txt': 'one\n', 'gone.txt': 'bye\n' });
    const { engine, events } = engineWithEvents();
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(() => dispatcher.close());
    const forwarded: HindsightEvent[] = [];
    dispatcher.subscribe((event) => forwarded.push(event));
    const call = async (name: string, args: unknown) => {
      const answer = await dispatcher.handle({ kind: 'call', id: 1, call: name, args });
      if (!answer.result.ok) throw new Error(JSON.stringify(answer.result.error));
      return answer.result.value as Record<string, unknown>;
    };

    const listing = vi.spyOn(SnapshotIndex.prototype, 'snapshots');
    const { projectId } = (await call('openProject', { path: root, operationId: 'open-1' })) as { projectId: string };
    writeFileSync(join(root, 'keep.txt'), 'two\n');
    rmSync(join(root, 'gone.txt'));
    await call('rescan', { projectId });
    await call('createCheckpoint', { projectId, label: 'mark' });
    await call('restoreSnapshot', { projectId, snapshotId: 1 });
    expect(listing).not.toHaveBeenCalled();
    listing.mockRestore();

    expect(forwarded).toEqual(events);
    expect(announced(events).map((a) => a.snapshot.kind)).toEqual(['baseline', 'change', 'checkpoint', 'restore']);
  });
});
