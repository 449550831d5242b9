import { describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { readBack } from '../versions/versionsHelpers.js';
import { olderStore, sourceText, storedSizes } from './olderStore.js';

// A project opened for recording whose store holds raw blobs where compression pays has them
// compressed in the background (setting compactInBackground, on by default), on the lowest
// priority thread; closing the project stops it, and the next open goes on. With the setting off,
// nothing is converted.

function texts(count: number): Record<string, string> {
  const spec: Record<string, string> = {};
  for (let i = 0; i < count; i++) spec[`f${i}.ts`] = sourceText(700 + i, 90);
  return spec;
}

function engineFor(dataDir: string): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(async () => {
    await engine.unwatchAll();
    engine.close();
  });
  return engine;
}

describe('background compaction', () => {
  it('converts the raw blobs of a store opened for recording, at the lowest priority, and recording goes on', async () => {
    const { root, dataDir, storeDir } = await olderStore(texts(10));
    const engine = engineFor(dataDir);
    resetTrace();
    const { projectId } = await engine.open(root, { watch: true });
    const compaction = engine.backgroundCompaction(projectId)!;
    expect(compaction).toBeDefined();
    await compaction.settled();
    expect(compaction.failure).toBeUndefined();
    expect(compaction.converted).toBe(10);
    expect(counter('compact.workerBatches')).toBeGreaterThan(0);
    expect(counter('compact.lowPriorityBatches')).toBe(counter('compact.workerBatches'));
    expect(Object.values(storedSizes(storeDir)).every((size) => size !== null)).toBe(true);
    writeFileSync(join(root, 'f0.ts'), 'edited\n');
    await engine.rescan(projectId);
    expect(await readBack(engine, projectId, 'f0.ts')).toBe('edited\n');
    expect((await engine.verify(projectId)).ok).toBe(true);
  });

  it('stops when the project closes, and the next open goes on', async () => {
    // Two batches at least: the close comes while the first is under way.
    const { root, dataDir, storeDir } = await olderStore(texts(70));
    const engine = engineFor(dataDir);
    const { projectId } = await engine.open(root, { watch: true });
    const running = engine.backgroundCompaction(projectId)!;
    await engine.closeProject(projectId);
    // Stopped, not failed on a store closed under it.
    await running.settled();
    expect(running.failure).toBeUndefined();
    const first = Object.values(storedSizes(storeDir)).filter((size) => size !== null).length;
    expect(first).toBeLessThan(70);

    await engine.open(root, { watch: true });
    await engine.backgroundCompaction(projectId)!.settled();
    expect(Object.values(storedSizes(storeDir)).filter((size) => size !== null).length).toBe(70);
  });

  it('runs as well where a project is watched after it was opened (watch --all, the recorder of every known project)', async () => {
    const { root, dataDir, storeDir } = await olderStore(texts(4));
    const engine = engineFor(dataDir);
    const projectId = engine.locate(root);
    expect(engine.backgroundCompaction(projectId)).toBeUndefined();
    await engine.watch(projectId);
    await engine.backgroundCompaction(projectId)!.settled();
    expect(engine.backgroundCompaction(projectId)!.converted).toBe(4);
    expect(Object.values(storedSizes(storeDir)).every((size) => size !== null)).toBe(true);
  });

  it('does nothing with the setting compactInBackground off', async () => {
    const { root, dataDir, storeDir } = await olderStore(texts(3));
    const engine = engineFor(dataDir);
    await engine.config.editConfig(setSetting('compactInBackground', false));
    const { projectId } = await engine.open(root, { watch: true });
    expect(engine.backgroundCompaction(projectId)).toBeUndefined();
    expect(Object.values(storedSizes(storeDir)).every((size) => size === null)).toBe(true);
  });
});
