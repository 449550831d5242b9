import { describe, expect, it, onTestFinished } from 'vitest';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { CopyPool } from '../../../electron/history/store/copyPool.js';
import { CopySlots } from '../../../electron/history/store/copySlots.js';
import { blobBytes } from '../../helpers/storedBlob.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256, writeTree } from '../../helpers/writeTree.js';
import { until } from '../../helpers/until.js';

// A writer in another process rewrites files over and over while they are copied: whatever bytes
// a blob holds, its name is their hash, and the version names exactly that blob.
const WRITER = `
const fs = require('node:fs');
const [big, small] = process.argv.slice(1);
let n = 0;
for (;;) {
  n++;
  fs.writeFileSync(big, Buffer.alloc(4 * 1024 * 1024 + (n % 7) * 1000, n % 251));
  fs.writeFileSync(small, Buffer.alloc(20000 + (n % 13), n % 241));
}
`;

describe('a file changing during the copy', () => {
  it('is never filed under a wrong hash', async () => {
    const root = tempDir();
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 200; i++) files[`calm/f${i}.txt`] = seededBytes(i + 3, 500);
    files['busy/big.bin'] = Buffer.alloc(4 * 1024 * 1024, 1);
    files['busy/small.bin'] = Buffer.alloc(20000, 1);
    writeTree(root, files);
    const written = statSync(join(root, 'busy/small.bin')).mtimeMs;
    const writer = spawn(process.execPath, ['-e', WRITER, join(root, 'busy/big.bin'), join(root, 'busy/small.bin')], {
      stdio: 'ignore',
    });
    onTestFinished(() => {
      writer.kill('SIGKILL');
    });
    // The copy starts once the writer is under way.
    await until(() => statSync(join(root, 'busy/small.bin')).mtimeMs !== written);

    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const pool = new CopyPool(new CopySlots(2));
    onTestFinished(async () => {
      engine.close();
      await pool.close();
    });
    const { projectId } = await engine.open(root, { pool, cloneMode: 'never' });
    writer.kill('SIGKILL');
    const blobsDir = engine.store(projectId).blobs.dir;
    for (const file of engine.files(projectId)) {
      const bytes = blobBytes(blobsDir, file.hash);
      expect(sha256(bytes), file.path).toBe(file.hash);
      expect(bytes.length, file.path).toBe(file.size);
    }
    expect((await engine.verify(projectId)).ok).toBe(true);
  });
});
