import { describe, expect, it, onTestFinished } from 'vitest';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobFile } from '../../helpers/storedBlob.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';
import { sourceText } from '../compact/olderStore.js';
import { notRacy } from '../versions/versionsHelpers.js';

// The budget counts bytes on disk: a compressed blob costs its compressed file, not the bytes of
// the file it holds. A history whose files add up to more than the budget but whose store fits
// keeps every snapshot; the prune's preview, the retention status and the Store tab's figures
// say the same number, the sum of the blob files' sizes.

/** One compressible file in `count` versions, each a snapshot. */
async function compressedHistory(count: number) {
  const root = tempDir();
  const texts = Array.from({ length: count }, (_, i) => sourceText(300 + i));
  writeTree(root, { 'src.ts': texts[0]! });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  const store = engine.store(projectId);
  for (const text of texts.slice(1)) {
    writeFileSync(join(root, 'src.ts'), text);
    notRacy(store);
    await engine.rescan(projectId);
  }
  const onDisk = texts.reduce((sum, t) => sum + statSync(blobFile(store.blobs.dir, sha256(t))).size, 0);
  const raw = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  return { engine, projectId, onDisk, raw };
}

describe('the budget', () => {
  it('counts compressed blobs as their files on disk: a history whose raw bytes exceed it but whose store fits keeps every snapshot', async () => {
    const { engine, projectId, onDisk, raw } = await compressedHistory(6);
    expect(onDisk).toBeLessThan(raw / 2);
    await engine.config.editConfig(setSetting('historyBudget', Math.round((onDisk + raw) / 2)));

    const preview = await engine.prune(projectId, { dryRun: true });
    expect(preview).toMatchObject({ keptBytes: onDisk, budgetMet: true, snapshots: 0 });
    expect(preview.decisions!.every((d) => d.kept)).toBe(true);
    expect(engine.retentionStatus(projectId).usedBytes).toBe(onDisk);
    expect(engine.storeStats(projectId, 1).density).toMatchObject({ storedBytes: onDisk, rawBytes: raw, savedBytes: raw - onDisk, blobsCompressed: 6 });
  });

  it('thins by bytes on disk when the store itself is over it', async () => {
    const { engine, projectId, onDisk } = await compressedHistory(6);
    await engine.config.editConfig(setSetting('historyBudget', Math.round(onDisk / 2)));
    const preview = await engine.prune(projectId, { dryRun: true });
    expect(preview.snapshots).toBeGreaterThan(0);
    expect(preview.decisions!.filter((d) => !d.kept).every((d) => d.why === 'budget')).toBe(true);
    expect(preview.keptBytes).toBeLessThanOrEqual(Math.round(onDisk / 2));
    // What a prune frees is counted the same way.
    const pruned = await engine.prune(projectId);
    expect(pruned.keptBytes).toBe(preview.keptBytes);
    // Blobs left unreferenced wait out their grace period on disk: counted apart, in the same bytes.
    const status = engine.retentionStatus(projectId);
    expect(status.usedBytes - status.waitingBytes).toBe(preview.keptBytes);
    expect(status.usedBytes).toBe(onDisk);
  });
});
