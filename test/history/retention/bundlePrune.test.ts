import Database from 'better-sqlite3';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { DEFAULT_RETENTION } from '../../../shared/retention.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Bundles and retention on real stores: an import pins the checkpoints a person made (a bundle
// carries no pins), and versions an import writes revive a blob a prune of the receiver marked.

const HOUR = 3_600_000;

function engineIn(dataDir = tempDir('hindsight-data-')): HistoryEngine {
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  return engine;
}

describe('bundles and retention', () => {
  it('pins the imported checkpoints a person made, and an import naming a marked blob clears its mark', async () => {
    const root = realpathSync(tempDir('hindsight-bundle-'));
    writeTree(root, { 'a.txt': 'first bytes', 'b.txt': 'b' });
    const source = engineIn();
    const { projectId } = await source.open(root);
    writeFileSync(join(root, 'a.txt'), 'second bytes');
    await source.rescan(projectId);
    const checkpoint = await source.checkpoint(projectId, 'before the experiment');
    const dir = tempDir();
    await source.exportHistory(projectId, { file: join(dir, 'full.hsb') });

    const receiver = engineIn();
    const moved = tempDir();
    const imported = await receiver.importHistory({ file: join(dir, 'full.hsb') }, { as: moved });
    expect(receiver.pins(imported.projectId)).toEqual({ snapshots: [checkpoint.snapshotId], versions: [] });

    // The receiver thins its copy (a policy that keeps only what is always kept): the first copy's
    // a.txt is no longer named, its blob marked, and the checkpoint, its newest, becomes the baseline.
    const firstBytes = receiver.versions(imported.projectId, 'a.txt')[0]!.hash!;
    const dbFile = historyDbPath(receiver.store(imported.projectId).storeDir);
    await receiver.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 0 }));
    receiver.setPin(imported.projectId, { snapshotId: checkpoint.snapshotId }, false);
    await receiver.prune(imported.projectId);
    expect(marks(dbFile)).toContain(firstBytes);

    // The source records those bytes again; the incremental bundle names the blob the receiver still holds.
    writeFileSync(join(root, 'a.txt'), 'first bytes');
    await source.rescan(projectId);
    const last = source.log(projectId).at(-2)!.snapshotId;
    await source.exportHistory(projectId, { file: join(dir, 'part.hsb') }, { since: last });
    const next = await receiver.importHistory({ file: join(dir, 'part.hsb') }, { as: moved });
    expect(next).toMatchObject({ added: 1, blobsWritten: 0 });
    expect(marks(dbFile)).not.toContain(firstBytes);
    const late = await receiver.prune(imported.projectId, { now: Date.now() + 2 * HOUR });
    expect(late.deletedBlobs).toBe(0);
    expect((await receiver.verify(imported.projectId)).ok).toBe(true);
  });
});

function marks(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT hash FROM blob_marks').all() as { hash: string }[]).map((r) => r.hash);
  } finally {
    db.close();
  }
}
