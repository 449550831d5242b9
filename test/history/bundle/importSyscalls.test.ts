import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, type TreeSpec } from '../../helpers/writeTree.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { otherEngine } from './bundleHelpers.js';

// What an import costs per blob: which blobs a store holds comes from one listing of it, so a
// fresh store pays no stat per blob, and a store that holds them all writes nothing; a blob file
// of the wrong length is written again over it.

const FILES = 300;

/** Counters moved by `run`. */
async function counting<T>(names: string[], run: () => Promise<T>): Promise<{ result: T; by: Record<string, number> }> {
  const before = names.map((name) => counter(name));
  const result = await run();
  return { result, by: Object.fromEntries(names.map((name, i) => [name, counter(name) - before[i]!])) };
}

async function bundleOfSmallFiles(): Promise<{ bundle: string; spec: TreeSpec }> {
  const spec: TreeSpec = {};
  for (let i = 0; i < FILES; i++) spec[`d${i % 7}/f${i}.txt`] = `file ${i}\n`;
  const { engine, projectId } = await projectWithBaseline(spec);
  const bundle = join(tempDir(), 'history.hsb');
  await engine.exportHistory(projectId, { file: bundle });
  return { bundle, spec };
}

const COUNTERS = ['store.blobStats', 'store.blobListings', 'import.blobTemps'];

describe('import system calls per blob', () => {
  it('stats no blob of a fresh store, and writes nothing when the store holds every blob', async () => {
    const { bundle } = await bundleOfSmallFiles();
    const other = otherEngine();
    const as = tempDir();

    const first = await counting(COUNTERS, () => other.importHistory({ file: bundle }, { as }));
    expect(first.result).toMatchObject({ blobsWritten: FILES, blobsPresent: 0 });
    // One listing of blobs/ (it has no fan-out folder yet), no stat at all: not one per blob.
    expect(first.by).toEqual({ 'store.blobStats': 0, 'store.blobListings': 1, 'import.blobTemps': FILES });

    const again = await counting(COUNTERS, () => other.importHistory({ file: bundle }, { as }));
    expect(again.result).toMatchObject({ added: 0, blobsWritten: 0, blobsPresent: FILES });
    // Each held blob's length is checked once; at most blobs/ and its 256 fan-out folders are listed.
    expect(again.by['import.blobTemps']).toBe(0);
    expect(again.by['store.blobStats']).toBe(FILES);
    expect(again.by['store.blobListings']).toBeLessThanOrEqual(257);
  });

  it('writes its version, blob and folder-mode rows a hundred to a statement, not one statement a row', async () => {
    const { bundle } = await bundleOfSmallFiles();
    const other = otherEngine();
    const { by, result } = await counting(['db.rowStatements'], () => other.importHistory({ file: bundle }, { as: tempDir() }));
    expect(result).toMatchObject({ blobsWritten: FILES });
    // 300 blobs and 300 versions: three statements each; the seven folders' modes: one (a row a
    // statement ran 607).
    expect(by['db.rowStatements']).toBe(7);
    const verified = await other.verify(result.projectId);
    expect(verified).toMatchObject({ ok: true, blobs: FILES, missing: [], corrupt: [] });
    expect(other.files(result.projectId).length).toBe(FILES);
  });

  it('writes a stored blob of the wrong length again (kept when the run fails), and the history reads right', async () => {
    const { bundle, spec } = await bundleOfSmallFiles();
    const other = otherEngine();
    const as = tempDir();
    const { projectId } = await other.importHistory({ file: bundle }, { as });
    const store = other.store(projectId);
    const text = spec['d3/f3.txt'] as string;
    const file = blobPath(store.blobs.dir, sha256(text));
    writeFileSync(file, 'cut');

    // A run cut off before its end record still leaves the rewritten blob: it was there before the run.
    const cutOff = join(tempDir(), 'cut.hsb');
    writeFileSync(cutOff, readFileSync(bundle).subarray(0, -1));
    await expect(other.importHistory({ file: cutOff }, { as })).rejects.toMatchObject({ code: 'BUNDLE_CORRUPT' });
    expect(readFileSync(file, 'utf8')).toBe(text);
    writeFileSync(file, 'cut');

    const again = await counting(COUNTERS, () => other.importHistory({ file: bundle }, { as }));
    expect(again.result).toMatchObject({ added: 0, blobsWritten: 1, blobsPresent: FILES - 1 });
    expect(again.by['import.blobTemps']).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const verified = await other.verify(projectId);
    expect(verified).toMatchObject({ ok: true, blobs: FILES, missing: [], corrupt: [] });
    const out = tempDir();
    await other.materializeSnapshot(projectId, other.log(projectId).at(-1)!.snapshotId, out);
    expect(readFileSync(join(out, 'd3/f3.txt'), 'utf8')).toBe(text);
  });
});
