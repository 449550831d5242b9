import { describe, expect, it, onTestFinished } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { blobPath, historyDbPath, projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { counter } from '../../../electron/history/trace.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { sha256, writeTree, type TreeSpec } from '../../helpers/writeTree.js';

// Searching every version ever recorded, on real folders, a real store and a real SQLite index.

async function project(spec: TreeSpec) {
  const root = tempDir();
  writeTree(root, spec);
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  onTestFinished(() => engine.close());
  const { projectId } = await engine.open(root);
  const db = () => {
    const handle = new Database(historyDbPath(projectStoreDir(dataDir, projectId)), { readonly: true });
    onTestFinished(() => void handle.close());
    return handle;
  };
  return { root, engine, projectId, dataDir, db };
}

const query = (text: string, more: Partial<{ regex: boolean; caseSensitive: boolean; path: string; since: number; limit: number }> = {}) => ({
  query: text,
  regex: false,
  caseSensitive: false,
  limit: 500,
  ...more,
});

describe('search', () => {
  it('says when a text was first and last seen, and that a later version no longer holds it', async () => {
    const { root, engine, projectId } = await project({
      'src/config.ts': 'export const retries = 3;\nconst legacyTimeout = 250;\n',
      'notes.md': 'nothing here\n',
    });
    await engine.buildSearchIndex(projectId);
    writeFileSync(join(root, 'src/config.ts'), 'export const retries = 4;\nconst legacyTimeout = 250;\n');
    await engine.rescan(projectId);
    writeFileSync(join(root, 'src/config.ts'), 'export const retries = 5;\n');
    await engine.rescan(projectId);
    const versions = engine.versions(projectId, 'src/config.ts');
    expect(versions).toHaveLength(3);

    const result = await engine.search(projectId, query('legacyTimeout'));
    expect(result.indexed).toBe(true);
    expect(result.results.map((h) => h.path)).toEqual(['src/config.ts', 'src/config.ts']);
    const [newer, older] = result.results;
    // Newest first; each hit is one content, with the versions that held it.
    expect(newer!.versions).toEqual([{ versionId: versions[1]!.versionId, snapshotId: versions[1]!.snapshotId, at: versions[1]!.at }]);
    expect(older!.versions).toEqual([{ versionId: versions[0]!.versionId, snapshotId: versions[0]!.snapshotId, at: versions[0]!.at }]);
    expect(newer!.lastSeen).toBe(versions[1]!.at);
    expect(older!.firstSeen).toBe(versions[0]!.at);
    // The latest version dropped the line: every hit says it is gone.
    expect(result.results.every((h) => !h.stillPresent)).toBe(true);
    expect(newer!.matches).toEqual([{ line: 2, column: 7, length: 13, preview: 'const legacyTimeout = 250;', previewFrom: 6, previewTo: 19 }]);

    const still = await engine.search(projectId, query('export const'));
    expect(still.results).toHaveLength(3);
    expect(still.results.every((h) => h.stillPresent)).toBe(true);

    rmSync(join(root, 'src/config.ts'));
    await engine.rescan(projectId);
    const deleted = await engine.search(projectId, query('export const'));
    expect(deleted.results.every((h) => !h.stillPresent)).toBe(true);
  });

  it('indexes a blob shared by many versions once, and answers each file that holds it', async () => {
    const spec: TreeSpec = {};
    const shared = 'the same contents in fifty files\n';
    for (let i = 0; i < 50; i++) spec[`copies/f${i}.txt`] = shared;
    spec['other.txt'] = 'different\n';
    const { engine, projectId, db } = await project(spec);
    const built = await engine.buildSearchIndex(projectId);
    expect(built).toEqual({ indexedBlobs: 2, totalBlobs: 2, indexedNow: 2 });
    const handle = db();
    expect(handle.prepare('SELECT COUNT(*) AS n FROM search_blobs WHERE hash = ?').get(sha256(shared))).toEqual({ n: 1 });
    // One row of the index per text blob (search_text_docsize holds one per row).
    expect(handle.prepare('SELECT COUNT(*) AS n FROM search_text_docsize').get()).toEqual({ n: 2 });

    const result = await engine.search(projectId, query('fifty'));
    expect(result.results).toHaveLength(50);
    expect(new Set(result.results.map((h) => h.path)).size).toBe(50);
    // A second build finds nothing left to do.
    expect((await engine.buildSearchIndex(projectId)).indexedNow).toBe(0);
  });

  it('reads every candidate for a 2-character query and says it did not use the index', async () => {
    const { engine, projectId } = await project({ 'a.txt': 'x = qz + 1\n', 'b.txt': 'QZ upper\n', 'c.txt': 'none\n' });
    await engine.buildSearchIndex(projectId);
    const result = await engine.search(projectId, query('qz'));
    expect(result.indexed).toBe(false);
    expect(result.results.map((h) => h.path).sort()).toEqual(['a.txt', 'b.txt']);
    const cased = await engine.search(projectId, query('qz', { caseSensitive: true }));
    expect(cased.results.map((h) => h.path)).toEqual(['a.txt']);
    expect(cased.results[0]!.matches).toEqual([{ line: 1, column: 5, length: 2, preview: 'x = qz + 1', previewFrom: 4, previewTo: 6 }]);
  });

  it('narrows a regex by its literal through the index, reads everything for one without, and refuses a broken one', async () => {
    const { engine, projectId } = await project({
      'a.js': 'function loadUser(id) {}\nfunction loadOrder(id) {}\n',
      'b.js': 'const load = 1;\n',
    });
    await engine.buildSearchIndex(projectId);
    const withLiteral = await engine.search(projectId, query('function load[A-Z]\\w+', { regex: true }));
    expect(withLiteral.indexed).toBe(true);
    expect(withLiteral.results).toHaveLength(1);
    expect(withLiteral.results[0]!.matches.map((m) => [m.line, m.column])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    const noLiteral = await engine.search(projectId, query('\\d+', { regex: true }));
    expect(noLiteral.indexed).toBe(false);
    expect(noLiteral.results.map((h) => h.path)).toEqual(['b.js']);
    const alternation = await engine.search(projectId, query('loadUser|const', { regex: true }));
    expect(alternation.indexed).toBe(false);
    expect(alternation.results).toHaveLength(2);
    await expect(engine.search(projectId, query('(unclosed', { regex: true }))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('skips binary and non-UTF-8 contents without failing, and records why', async () => {
    const binary = Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2, 3]), Buffer.from('needle')]);
    const latin1 = Buffer.from('caf\xe9 needle\n', 'latin1');
    const { engine, projectId, db } = await project({ 'img.bin': binary, 'latin1.txt': latin1, 'ok.txt': 'a needle here\n' });
    // Before the build (read), then after it (index): the same answer.
    const read = await engine.search(projectId, query('needle'));
    expect(read.index.done).toBe(false);
    await engine.buildSearchIndex(projectId);
    const indexed = await engine.search(projectId, query('needle'));
    for (const result of [read, indexed]) expect(result.results.map((h) => h.path)).toEqual(['ok.txt']);
    expect(indexed.index).toEqual({ indexedBlobs: 3, totalBlobs: 3, done: true });
    const states = db().prepare('SELECT hash, state FROM search_blobs ORDER BY state').all();
    expect(states).toEqual([
      { hash: sha256(binary), state: 'binary' },
      { hash: sha256(latin1), state: 'encoding' },
      { hash: sha256('a needle here\n'), state: 'text' },
    ]);
    expect((await engine.search(projectId, query('ne'))).results.map((h) => h.path)).toEqual(['ok.txt']);
  });

  it('reads every blob the index names and answers only those that hold the text (the index keeps no positions)', async () => {
    // Both files hold every trigram of "abcdefgh"; only one holds it.
    const { engine, projectId } = await project({ 'apart.txt': 'fghx abcd cdefg\n', 'whole.txt': 'x abcdefgh y\n' });
    await engine.buildSearchIndex(projectId);
    expect(engine.store(projectId).index.search.blobsContaining('abcdefgh')).toHaveLength(2);
    const result = await engine.search(projectId, query('ABCDEFGH'));
    expect(result.indexed).toBe(true);
    expect(result.results.map((h) => h.path)).toEqual(['whole.txt']);
    expect(result.results[0]!.matches).toEqual([{ line: 1, column: 3, length: 8, preview: 'x abcdefgh y', previewFrom: 2, previewTo: 10 }]);
  });

  it('leaves contents over searchMaxFileSize out of the index and of the search', async () => {
    const { engine, projectId } = await project({ 'big.txt': `${'x'.repeat(2000)} needle\n`, 'small.txt': 'needle\n' });
    await engine.editConfig({ settings: { searchMaxFileSize: 1000 } });
    expect(await engine.buildSearchIndex(projectId)).toEqual({ indexedBlobs: 1, totalBlobs: 1, indexedNow: 1 });
    expect((await engine.search(projectId, query('needle'))).results.map((h) => h.path)).toEqual(['small.txt']);
    expect((await engine.search(projectId, query('ne'))).results.map((h) => h.path)).toEqual(['small.txt']);
  });

  it('filters by path glob and by time, and stops at the limit saying so', async () => {
    const { root, engine, projectId } = await project({ 'src/a.ts': 'marker one\n', 'src/deep/b.ts': 'marker two\n', 'docs/c.md': 'marker three\n' });
    expect((await engine.search(projectId, query('marker', { path: '*.ts' }))).results.map((h) => h.path).sort()).toEqual(['src/a.ts', 'src/deep/b.ts']);
    expect((await engine.search(projectId, query('marker', { path: 'src/*' }))).results.map((h) => h.path)).toEqual(['src/a.ts']);
    expect((await engine.search(projectId, query('marker', { path: 'docs/' }))).results.map((h) => h.path)).toEqual(['docs/c.md']);
    writeFileSync(join(root, 'src/a.ts'), 'marker four\n');
    await engine.rescan(projectId);
    const latest = engine.versions(projectId, 'src/a.ts')[1]!;
    const since = await engine.search(projectId, query('marker', { since: latest.at }));
    expect(since.results.map((h) => h.versions[0]!.versionId)).toEqual([latest.versionId]);
    const limited = await engine.search(projectId, query('marker', { limit: 2 }));
    expect(limited.results).toHaveLength(2);
    expect(limited.truncated).toBe(true);
    expect(limited.results[0]!.versions[0]!.versionId).toBe(latest.versionId);
    expect((await engine.search(projectId, query('marker', { limit: 4 }))).truncated).toBe(false);
  });

  it('reads and scans a blob once per search however many files name it, and makes its previews once', async () => {
    const spec: TreeSpec = {};
    const shared = 'one line with the marker in it\n';
    for (let i = 0; i < 20; i++) spec[`copies/f${i}.txt`] = shared;
    spec['other.txt'] = 'the marker elsewhere\n';
    const { engine, projectId } = await project(spec);
    await engine.buildSearchIndex(projectId);
    for (const indexed of [true, false]) {
      const reads = counter('search.blobReads');
      const scans = counter('search.blobScans');
      // "marker" through the index, "ma" (2 characters) by reading every version.
      const result = await engine.search(projectId, query(indexed ? 'marker' : 'ma'));
      expect(result.indexed).toBe(indexed);
      expect(result.results).toHaveLength(21);
      expect(counter('search.blobReads') - reads).toBe(2);
      expect(counter('search.blobScans') - scans).toBe(2);
      const copies = result.results.filter((h) => h.path.startsWith('copies/'));
      expect(copies.every((h) => h.matches === copies[0]!.matches)).toBe(true);
    }
  });

  it('asks for the blobs the build has not reached only while it is incomplete', async () => {
    const { engine, projectId } = await project({ 'a.txt': 'alpha marker\n', 'b.txt': 'beta\n' });
    let asked = counter('search.unindexedQueries');
    const before = await engine.search(projectId, query('marker'));
    expect(before.index.done).toBe(false);
    expect(before.results.map((h) => h.path)).toEqual(['a.txt']);
    expect(counter('search.unindexedQueries') - asked).toBe(1);
    await engine.buildSearchIndex(projectId);
    asked = counter('search.unindexedQueries');
    const after = await engine.search(projectId, query('marker'));
    expect(after.index).toEqual({ indexedBlobs: 2, totalBlobs: 2, done: true });
    expect(after.results.map((h) => h.path)).toEqual(['a.txt']);
    expect(counter('search.unindexedQueries') - asked).toBe(0);
  });

  it('does not read a latest version the index looked at and did not name to say the text is gone', async () => {
    const { root, engine, projectId } = await project({ 'a.txt': 'const legacyTimeout = 250;\n' });
    writeFileSync(join(root, 'a.txt'), 'const timeout = 300;\n');
    await engine.rescan(projectId);
    await engine.buildSearchIndex(projectId);
    const reads = counter('search.blobReads');
    const result = await engine.search(projectId, query('legacyTimeout'));
    expect(result.results.map((h) => [h.path, h.stillPresent])).toEqual([['a.txt', false]]);
    // The old version only: the latest is indexed and not a candidate.
    expect(counter('search.blobReads') - reads).toBe(1);
  });

  it('leaves out a blob whose bytes no longer match its hash, indexed or not', async () => {
    const { engine, projectId } = await project({ 'a.txt': 'a needle here\n', 'b.txt': 'another needle\n' });
    const file = blobPath(engine.store(projectId).blobs.dir, sha256('another needle\n'));
    // Same length, other bytes: only the hash tells.
    writeFileSync(file, readFileSync(file, 'utf8').replace('another', 'ANOTHER'));
    expect((await engine.search(projectId, query('needle'))).results.map((h) => h.path)).toEqual(['a.txt']);
    await engine.buildSearchIndex(projectId);
    expect((await engine.search(projectId, query('needle'))).results.map((h) => h.path)).toEqual(['a.txt']);
  });

  it('a removed blob leaves the index with its row', async () => {
    const { engine, projectId, db } = await project({ 'a.txt': 'gone soon\n', 'b.txt': 'stays\n' });
    await engine.buildSearchIndex(projectId);
    const index = engine.store(projectId).index;
    index.search.unindexBlob(sha256('gone soon\n'));
    const handle = db();
    expect(handle.prepare('SELECT COUNT(*) AS n FROM search_blobs').get()).toEqual({ n: 1 });
    expect(handle.prepare('SELECT COUNT(*) AS n FROM search_text_docsize').get()).toEqual({ n: 1 });
    expect(index.search.blobsContaining('gone')).toEqual([]);
    expect(index.search.blobsContaining('stays')).toEqual([sha256('stays\n')]);
  });
});
