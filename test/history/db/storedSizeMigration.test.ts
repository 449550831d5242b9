import { describe, expect, it, onTestFinished } from 'vitest';
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { compressedBlobPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { sourceText, storedSizes } from '../compact/olderStore.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree } from '../../helpers/writeTree.js';
import { DROP_AFTER_SCHEMA_12 } from './olderSchema.js';

// Migration 13 adds each blob's bytes on disk (blobs.stored_size). A blob of a size never kept
// compressed (4 KiB or less, more than 1 MiB) is raw: its stored size is its size, filled by the
// migration without a look at the disk. Any other is left unmeasured (NULL, counted as its raw
// size), and a compaction measures it: a blob found compressed already is recorded as its file.

describe('migration 13', () => {
  it('fills the stored size of blobs of sizes never compressed, and leaves the rest to a compaction', async () => {
    const root = tempDir();
    const text = sourceText(1);
    const large = seededBytes(3, 1024 * 1024 + 10);
    writeTree(root, { 'small.txt': 'small\n', 'src.ts': text, 'large.bin': large });
    const dataDir = tempDir('hindsight-data-');
    let engine = new HistoryEngine(dataDir);
    const { projectId } = await engine.open(root);
    const store = engine.store(projectId);
    const { storeDir } = store;
    const blobsDir = store.blobs.dir;
    engine.close();
    const db = new Database(historyDbPath(storeDir));
    db.exec(DROP_AFTER_SCHEMA_12);
    db.pragma('user_version = 12');
    db.close();

    engine = new HistoryEngine(dataDir);
    onTestFinished(() => engine.close());
    expect(engine.storeStats(projectId, 1).density).toMatchObject({ blobsRaw: 2, blobsCompressed: 0, blobsUnmeasured: 1 });
    expect(storedSizes(storeDir)).toEqual({ [sha256('small\n')]: 6, [sha256(large)]: large.length, [sha256(text)]: null });

    // The large blob is looked at too (blobs up to 4 MiB may be kept compressed: a chunk's most), found not worth it, and kept raw.
    expect(await engine.compact(projectId)).toMatchObject({ candidates: 2, alreadyCompressed: 1, converted: 0 });
    expect(storedSizes(storeDir)[sha256(text)]).toBe(statSync(compressedBlobPath(blobsDir, sha256(text))).size);
    expect(engine.storeStats(projectId, 1).density).toMatchObject({ blobsRaw: 2, blobsCompressed: 1, blobsUnmeasured: 0, compactable: 0 });
  });
});
