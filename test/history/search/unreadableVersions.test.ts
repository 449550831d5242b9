import { describe, expect, it, onTestFinished } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { blobFile } from '../../helpers/storedBlob.js';
import { sha256, writeTree } from '../../helpers/writeTree.js';

// A search says what it could not read: the versions whose stored contents are missing or
// damaged are counted and named in its answer, whether the index had looked at them or not,
// on a real folder, store and index.

async function history() {
  const root = tempDir();
  writeTree(root, { 'src/app.ts': 'const needle = 1;\n', 'notes.md': 'a needle too\n', 'other.txt': 'nothing\n' });
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  writeFileSync(join(root, 'src/app.ts'), 'const needle = 2;\n');
  await engine.rescan(projectId);
  return { root, engine, projectId, blobsDir: engine.store(projectId).blobs.dir };
}

const query = (text: string) => ({ query: text, regex: false, caseSensitive: false, limit: 500 });

/** Same length, other bytes: only the hash tells. */
function damage(blobsDir: string, text: string): void {
  const file = blobFile(blobsDir, sha256(text));
  const bytes = readFileSync(file);
  bytes[bytes.length - 2] = bytes[bytes.length - 2]! ^ 0xff;
  writeFileSync(file, bytes);
}

describe('a search over versions it cannot read', () => {
  it('counts and names a damaged version, before and after the index is built, and a missing one', async () => {
    const { engine, projectId, blobsDir } = await history();
    const [, first] = engine
      .versions(projectId, 'src/app.ts')
      .slice()
      .sort((a, b) => b.snapshotId - a.snapshotId);
    damage(blobsDir, 'const needle = 1;\n');

    const unindexed = await engine.search(projectId, query('needle'));
    expect(unindexed.results.map((h) => h.path).sort()).toEqual(['notes.md', 'src/app.ts']);
    const named = { versions: 1, files: [{ path: 'src/app.ts', versions: [{ versionId: first!.versionId, snapshotId: first!.snapshotId, at: first!.at }] }] };
    expect(unindexed.unreadable).toEqual(named);

    // The build finds it damaged and indexes no text of it: the index names it for no literal,
    // yet the search still says it skipped it.
    await engine.buildSearchIndex(projectId);
    const indexed = await engine.search(projectId, query('needle'));
    expect(indexed.indexed).toBe(true);
    expect(indexed.unreadable).toEqual(named);
    expect((await engine.search(projectId, query('ne'))).unreadable).toEqual(named);

    rmSync(blobFile(blobsDir, sha256('a needle too\n')));
    const both = await engine.search(projectId, query('needle'));
    expect(both.results.map((h) => h.path)).toEqual(['src/app.ts']);
    expect(both.unreadable.versions).toBe(2);
    expect(both.unreadable.files.map((f) => f.path).sort()).toEqual(['notes.md', 'src/app.ts']);
  });

  it('says nothing was skipped in a healthy store, and leaves out files the --path glob leaves out', async () => {
    const { engine, projectId, blobsDir } = await history();
    expect((await engine.search(projectId, query('needle'))).unreadable).toEqual({ versions: 0, files: [] });
    damage(blobsDir, 'const needle = 1;\n');
    expect((await engine.search(projectId, { ...query('needle'), path: '*.md' })).unreadable).toEqual({ versions: 0, files: [] });
  });
});
