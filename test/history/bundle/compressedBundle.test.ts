import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blobPath, compressedBlobPath } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, sha256 } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { otherEngine } from './bundleHelpers.js';

// A bundle carries raw bytes whatever form the exporting store keeps them in; the importing store
// keeps each blob in its own form for it (compressed when that saves a tenth), and knows the
// compressed blobs it holds by their recorded raw length when the same bundle comes again.

const TEXT = Array.from({ length: 300 }, (_, i) => `line ${i}: the same words again and again\n`).join('');
const NOISE = seededBytes(11, 30_000);

describe('a bundle of a store holding compressed blobs', () => {
  it('carries raw bytes, is imported compressed where that pays, and again writes nothing', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'text.txt': TEXT, 'noise.bin': NOISE });
    expect(existsSync(compressedBlobPath(store.blobsDir, sha256(TEXT)))).toBe(true);
    const bundle = join(tempDir(), 'history.hsb');
    await engine.exportHistory(projectId, { file: bundle });
    // The raw bytes are in the bundle as they are.
    expect(readFileSync(bundle).includes(Buffer.from(TEXT))).toBe(true);

    const other = otherEngine();
    const as = tempDir();
    const imported = await other.importHistory({ file: bundle }, { as });
    expect(imported).toMatchObject({ blobsWritten: 2, blobsPresent: 0 });
    const blobsDir = other.store(imported.projectId).blobsDir;
    expect(existsSync(compressedBlobPath(blobsDir, sha256(TEXT)))).toBe(true);
    expect(existsSync(blobPath(blobsDir, sha256(TEXT)))).toBe(false);
    expect(readFileSync(blobPath(blobsDir, sha256(NOISE))).equals(NOISE)).toBe(true);
    const out = join(tempDir(), 'out');
    await other.materializeSnapshot(imported.projectId, other.log(imported.projectId).at(-1)!.snapshotId, out);
    expect(readFileSync(join(out, 'text.txt'), 'utf8')).toBe(TEXT);
    expect(readFileSync(join(out, 'noise.bin')).equals(NOISE)).toBe(true);

    const again = await other.importHistory({ file: bundle }, { as });
    expect(again).toMatchObject({ added: 0, blobsWritten: 0, blobsPresent: 2 });
    expect((await other.verify(imported.projectId)).ok).toBe(true);
  });
});
