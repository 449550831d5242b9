import { realpathSync } from 'node:fs';
import { engineWith } from '../../helpers/engineWithPool.js';
import { describe, expect, it, vi } from 'vitest';
import { COPY_WORKER_LIMITS, CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { counter, resetTrace } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, writeTree, type TreeSpec } from '../../helpers/writeTree.js';
import { BlobStore } from '../../../electron/history/store/blobStore.js';
import { fileEntries, startFiling } from '../../../electron/history/store/fileEntries.js';
import { walkFolder } from '../../../electron/history/walk/walkFolder.js';

// Copy workers are threads sized to the cores, started as jobs need them, counted (copy.workers),
// never timed: a folder that fits in one batch starts one worker whatever the slots; a large one
// never starts more than the pool's maxWorkers, and every file is still filed exactly.

function files(count: number): TreeSpec {
  const spec: TreeSpec = {};
  for (let i = 0; i < count; i++) spec[`d${i % 5}/f${i}.txt`] = seededBytes(i + 1, 100 + (i % 700));
  return spec;
}

describe('the copy workers', () => {
  it('a folder that fits in one batch is filed on one worker, whatever the slots', async () => {
    const pool = new CopyPool(new CopySlots(4), undefined, 4);
    const engine = engineWith(pool);
    const root = tempDir();
    writeTree(root, files(20));
    resetTrace();
    expect((await engine.open(root, { pool })).files).toBe(20);
    expect(counter('copy.workers')).toBe(1);
  });

  it('never starts more workers than its limit, with more slots than workers, and files every file', async () => {
    const pool = new CopyPool(new CopySlots(4), undefined, 2);
    const engine = engineWith(pool);
    const root = tempDir();
    const spec = files(600);
    writeTree(root, spec);
    resetTrace();
    const { projectId } = await engine.open(root, { pool });
    expect(counter('copy.workers')).toBe(2);
    expect(counter('copy.maxInFlight')).toBeGreaterThan(1);
    expect(engine.files(projectId).length).toBe(600);
  });

  it('ends a worker left idle, so an idle process holds no copy thread, and starts one again for the next job', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2, 20);
    const engine = engineWith(pool);
    const root = tempDir();
    writeTree(root, files(20));
    resetTrace();
    const { projectId } = await engine.open(root, { pool });
    await vi.waitFor(() => expect(pool.liveWorkers).toBe(0), { timeout: 10_000 });
    expect(counter('copy.workersRetired')).toBe(counter('copy.workers'));
    writeTree(root, { 'd0/new.txt': seededBytes(999, 300) });
    await engine.rescan(projectId, { pool });
    expect(engine.files(projectId).length).toBe(21);
    expect(counter('copy.workers')).toBeGreaterThan(counter('copy.workersRetired'));
  });
});

describe("a copy worker's heap", () => {
  it('runs with the small young generation of COPY_WORKER_LIMITS, not V8 default', async () => {
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    const engine = engineWith(pool);
    const root = tempDir();
    writeTree(root, files(20));
    resetTrace();
    expect((await engine.open(root, { pool })).files).toBe(20);
    expect(counter('copy.workers')).toBe(1);
    expect(counter('copy.workerYoungGenerationMb')).toBe(COPY_WORKER_LIMITS.maxYoungGenerationSizeMb);
  });
});

describe("a copy worker's messages", () => {
  // The workers are WorkerHosts (workerHost.ts, trace 'copy'): each batch crosses to a worker in
  // one message and comes back in one, packed (packedOutcomes.ts), whatever its files; each
  // worker adds one message at its start (its niceness).
  it('are one per batch each way, and one per worker at its start', async () => {
    const root = tempDir();
    writeTree(root, files(600));
    const entries = await walkFolder(realpathSync(root));
    const pool = new CopyPool(new CopySlots(2), undefined, 2);
    try {
      resetTrace();
      const filing = startFiling({ blobs: new BlobStore(tempDir('hindsight-blobs-')), pool, known: [] });
      filing.add(entries);
      const filed = await filing.finish(entries);
      expect(filed.versions.length).toBe(600);
      expect(filing.sent).toBeGreaterThan(2);
      expect(counter('copy.messagesOut')).toBe(filing.sent);
      expect(counter('copy.messagesIn')).toBe(filing.sent + counter('copy.workers'));
      // A second filing on the same workers: the known list is sent again with its batches, never alone.
      resetTrace();
      const again = await fileEntries(entries, { blobs: new BlobStore(tempDir('hindsight-blobs-')), pool, known: [] });
      expect(again.versions.length).toBe(600);
      expect(counter('copy.workers')).toBe(0);
      expect(counter('copy.messagesIn')).toBe(counter('copy.messagesOut'));
    } finally {
      await pool.close();
    }
  });
});
