import { describe, expect, it, onTestFinished, vi } from 'vitest';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryIndex, type NewVersion } from '../../../electron/history/db/historyIndex.js';
import { foldedFolderLevel } from '../../../electron/history/db/folderLevel.js';
import { deletedFiles } from '../../../electron/history/db/versionQueries.js';
import { Sql } from '../../../electron/history/db/sql.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import type { FolderLevel } from '../../../shared/contract/values.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';
import { DROP_AFTER_SCHEMA_10 } from './olderSchema.js';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { DEFAULT_RETENTION } from '../../../shared/retention.js';
import { ageHistory } from '../retention/pruneHelpers.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';

// The folder summaries (db/folderSummaries.ts) answer a level of the tree now without folding
// every newest version; they must never disagree with that fold (foldedFolderLevel, kept as the
// reference). Random histories: this machine's snapshots (kept up to date by commitSnapshot),
// another machine's (a pull), this line forked from it, versions deleted and moved and the
// baseline changed by another connection (what a prune does, from any process): after each step
// every folder's level from the summaries equals the fold's.

const OWN = 'machine-own';
const OTHER = 'machine-other';

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// Folders whose names sort beside each other ('a', 'a-b', 'a.b', 'a/b0'), nested, and not ASCII.
const FOLDERS = ['', 'a', 'a/b', 'a/b/c', 'a-b', 'a.b', 'a/b0', 'z', 'é', 'é/ü'];
const NAMES = ['x.txt', 'y', 'é.txt', 'a'];

function randomVersions(next: () => number, count: number): NewVersion[] {
  const byPath = new Map<string, NewVersion>();
  for (let i = 0; i < count; i++) {
    const folder = FOLDERS[Math.floor(next() * FOLDERS.length)]!;
    const path = (folder ? `${folder}/` : '') + NAMES[Math.floor(next() * NAMES.length)]!;
    const text = next() < 0.25 ? null : `v${Math.floor(next() * 3)}`;
    byPath.set(
      path,
      text === null
        ? { path, hash: null, mode: 0o644, size: 0, type: null, target: null }
        : { path, hash: sha(text), mode: 0o644, size: text.length, type: 'file', target: null },
    );
  }
  return [...byPath.values()];
}

function blobsOf(versions: readonly NewVersion[]) {
  return versions.filter((v) => v.hash !== null).map((v) => ({ hash: v.hash!, size: v.size }));
}

/** Every folder the fold shows now, from the top. */
function everyLevel(ref: Sql, baseline: number | undefined): FolderLevel[] {
  const levels: FolderLevel[] = [];
  const queue = [''];
  while (queue.length > 0) {
    const level = foldedFolderLevel(ref, queue.shift()!, undefined, baseline);
    levels.push(level);
    queue.push(...level.folders.map((f) => f.path));
  }
  return levels;
}

/** A second, read-only connection: the fold's reference, answered beside the engine's own. */
function readOnly(file: string): Sql {
  const db = new Database(file, { readonly: true });
  onTestFinished(() => void db.close());
  return new Sql(db, 'reference');
}

function fresh(ref: Sql): number {
  return ref.get<{ fresh: number }>('SELECT fresh FROM folder_summary_state')!.fresh;
}

describe('folder summaries', () => {
  it('never disagree with the fold of the newest versions, on random histories', () => {
    let compared = 0;
    let keptByCommit = 0;
    let staled = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const next = seededRandom(seed);
      const file = join(tempDir(), 'history.db');
      const index = new HistoryIndex(file);
      const other = new Database(file);
      const ref = new Sql(other, 'reference');
      let otherSnapshots = 0;
      try {
        index.commitSnapshot({ snapshot: { kind: 'baseline' }, versions: randomVersions(next, 12), blobs: [] });
        for (let step = 0; step < 40; step++) {
          const roll = next();
          const wasFresh = fresh(ref);
          if (roll < 0.55) {
            const versions = randomVersions(next, 1 + Math.floor(next() * 6));
            index.commitSnapshot({ snapshot: { kind: next() < 0.2 ? 'restore' : 'change' }, versions, blobs: blobsOf(versions) });
            // This machine's snapshot keeps fresh summaries fresh, with no fold.
            if (wasFresh === 1) {
              expect(fresh(ref)).toBe(1);
              keptByCommit++;
            }
          } else if (roll < 0.7) {
            const versions = randomVersions(next, 1 + Math.floor(next() * 5));
            otherSnapshots++;
            index.importForeign(
              [{ snapshot: { kind: 'checkpoint', machine: OTHER, machineSnapshot: otherSnapshots }, versions, blobs: blobsOf(versions) }],
              () => {},
            );
          } else if (roll < 0.75 && otherSnapshots > 0) {
            // This line starts from the other machine's line (a clone of it).
            index.remotes.setLineFork(null, { machine: OTHER, origin: 1 + Math.floor(next() * otherSnapshots) }, OWN);
          } else if (roll < 0.88) {
            // A prune from another connection: versions deleted, one moved to another snapshot.
            const ids = other.prepare('SELECT id FROM versions').all() as { id: number }[];
            const victim = ids[Math.floor(next() * ids.length)];
            if (victim) other.prepare('DELETE FROM versions WHERE id = ?').run(victim.id);
            const moved = ids[Math.floor(next() * ids.length)];
            if (moved && next() < 0.5)
              other.prepare('UPDATE versions SET snapshot_id = snapshot_id + 1 WHERE id = ? AND snapshot_id + 1 IN (SELECT id FROM snapshots)').run(moved.id);
          } else {
            // Another baseline: a prune promotes a later snapshot, or there is none.
            const ids = other.prepare('SELECT id FROM snapshots WHERE machine IS NULL').all() as { id: number }[];
            other.prepare("UPDATE snapshots SET kind = 'change' WHERE kind = 'baseline'").run();
            const promote = next();
            if (promote < 0.5) other.prepare("UPDATE snapshots SET kind = 'baseline' WHERE id = ?").run(ids[Math.floor(next() * ids.length)]!.id);
            else if (promote < 0.8) {
              // Or this machine records a new baseline, with or without versions.
              const versions = next() < 0.5 ? [] : randomVersions(next, 3);
              index.commitSnapshot({ snapshot: { kind: 'baseline' }, versions, blobs: blobsOf(versions) });
            }
          }
          if (wasFresh === 1 && fresh(ref) === 0) staled++;
          const baseline = index.snapshotReads.baselineId();
          for (const level of everyLevel(ref, baseline)) {
            expect(index.files.folderLevel(level.folder), `seed ${seed} step ${step} folder '${level.folder}'`).toEqual(level);
            compared++;
          }
          expect(index.files.deletedFiles(), `seed ${seed} step ${step} deleted files`).toEqual(deletedFiles(ref));
        }
      } finally {
        other.close();
        index.close();
      }
    }
    // The comparison ran on both mechanisms: summaries kept by commits, and made again after other writes.
    expect(compared).toBeGreaterThan(500);
    expect(keptByCommit).toBeGreaterThan(100);
    expect(staled).toBeGreaterThan(30);
  });

  it('answer the top of a big project reading its own files only, not every path', async () => {
    const files: Record<string, string> = { 'top1.txt': '1', 'top2.txt': '2' };
    for (let i = 0; i < 200; i++) files[`big/sub${i % 7}/f${i}.txt`] = `big ${i}`;
    for (let i = 0; i < 3; i++) files[`small/f${i}.txt`] = `small ${i}`;
    const { engine, projectId, root } = await projectWithBaseline(files);

    // Rows the history process reads from versions for the top level.
    let rows = 0;
    const all = Sql.prototype.all;
    const spy = vi.spyOn(Sql.prototype, 'all').mockImplementation(function (this: Sql, text: string, ...params: unknown[]) {
      const result = all.call(this, text, ...params) as unknown[];
      if (/FROM versions/.test(text)) rows += result.length;
      return result;
    } as never);
    let top: FolderLevel;
    try {
      top = engine.folderLevel(projectId, '');
    } finally {
      spy.mockRestore();
    }
    expect(top.folders.map((f) => [f.name, f.files, f.deleted, f.changed])).toEqual([
      ['big', 200, 0, false],
      ['small', 3, 0, false],
    ]);
    expect(top.files.map((f) => f.name)).toEqual(['top1.txt', 'top2.txt']);
    // Its two files, now and in the baseline: 4 rows, not 205 x 2.
    expect(rows).toBe(4);

    // The deleted files: only the folders holding a deletion are read (the top's 2 files, then small/'s 3).
    rmSync(join(root, 'small/f1.txt'));
    await engine.rescan(projectId);
    rows = 0;
    const again = vi.spyOn(Sql.prototype, 'all').mockImplementation(function (this: Sql, text: string, ...params: unknown[]) {
      const result = all.call(this, text, ...params) as unknown[];
      if (/FROM versions/.test(text)) rows += result.length;
      return result;
    } as never);
    try {
      expect(engine.deleted(projectId).map((d) => d.path)).toEqual(['small/f1.txt']);
    } finally {
      again.mockRestore();
    }
    expect(rows).toBe(5);
  });

  it('are filled by migration 11 from the history as it stands', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'a/b/x.txt': 'x', 'a/y.txt': 'y', 'c/z.txt': 'z', 'top.txt': 't' });
    const before = engine.folderLevel(projectId, 'a');
    const file = historyDbPath(store.storeDir);
    const engineDir = engine.dataDir;
    engine.close();
    const db = new Database(file);
    db.exec(DROP_AFTER_SCHEMA_10);
    db.pragma('user_version = 10');
    db.close();
    const again = new HistoryEngine(engineDir);
    try {
      again.store(projectId);
      // Filled by the migration itself, before any read asks.
      const check = new Database(file, { readonly: true });
      try {
        expect(check.prepare('SELECT fresh FROM folder_summary_state').get()).toEqual({ fresh: 1 });
        expect(check.prepare('SELECT folder, parent, files, deleted, changed FROM folder_summaries ORDER BY folder').all()).toEqual([
          { folder: 'a', parent: '', files: 2, deleted: 0, changed: 0 },
          { folder: 'a/b', parent: 'a', files: 1, deleted: 0, changed: 0 },
          { folder: 'c', parent: '', files: 1, deleted: 0, changed: 0 },
        ]);
      } finally {
        check.close();
      }
      expect(again.folderLevel(projectId, 'a')).toEqual(before);
    } finally {
      again.close();
    }
  });

  it("stay equal to the fold through the engine's own writers: saves, a restore, a prune, a bundle import", async () => {
    const { engine, projectId, root, store } = await projectWithBaseline({
      'src/a/x.txt': 'x0',
      'src/a/y.txt': 'y0',
      'src/b/z.txt': 'z0',
      'docs/r.md': 'r0',
      'top.txt': 't0',
    });
    const file = historyDbPath(store.storeDir);
    const ref = readOnly(file);
    const same = (engineOf: HistoryEngine, id: string, sql: Sql) => {
      const baseline = engineOf.store(id).index.snapshotReads.baselineId();
      for (const level of everyLevel(sql, baseline)) expect(engineOf.folderLevel(id, level.folder)).toEqual(level);
      expect(engineOf.deleted(id)).toEqual(deletedFiles(sql));
    };
    for (let i = 1; i <= 12; i++) {
      writeFileSync(join(root, i % 3 === 0 ? 'src/b/z.txt' : 'src/a/x.txt'), `edit ${i}`);
      if (i === 4) rmSync(join(root, 'docs/r.md'));
      if (i === 6) {
        mkdirSync(join(root, 'new/deep'), { recursive: true });
        writeFileSync(join(root, 'new/deep/n.txt'), 'n');
      }
      await engine.rescan(projectId);
    }
    expect(fresh(ref)).toBe(1);
    same(engine, projectId, ref);
    // A restore is a snapshot of this line: kept up to date by its commit.
    const first = engine.versions(projectId, 'src/a/x.txt')[0]!;
    await engine.restoreFile(projectId, 'src/a/x.txt', first.versionId);
    expect(fresh(ref)).toBe(1);
    same(engine, projectId, ref);
    // A prune deletes versions: stale until the next level read makes them again.
    ageHistory(file, (i, count) => Date.now() - (count - 1 - i) * 6 * 3_600_000);
    await engine.config.editConfig(setSetting('retention', { ...DEFAULT_RETENTION, hourly: 0, daily: 1, uncommittedDays: 0 }));
    const pruned = await engine.prune(projectId);
    expect(pruned.versions).toBeGreaterThan(0);
    expect(fresh(ref)).toBe(0);
    same(engine, projectId, ref);
    expect(fresh(ref)).toBe(1);
    // A bundle imported into another data folder: its rows come in without commitSnapshot.
    const bundle = join(tempDir(), 'history.hsb');
    await engine.exportHistory(projectId, { file: bundle });
    const other = new HistoryEngine(tempDir('hindsight-data-'));
    onTestFinished(() => other.close());
    const imported = await other.importHistory({ file: bundle }, { as: tempDir() });
    const otherRef = readOnly(historyDbPath(other.store(imported.projectId).storeDir));
    expect(fresh(otherRef)).toBe(0);
    same(other, imported.projectId, otherRef);
    expect(other.folderLevel(imported.projectId, '')).toEqual(engine.folderLevel(projectId, ''));
  });

  it('answer with the fold while another process holds the write lock, and are made again after', async () => {
    const { engine, projectId, store } = await projectWithBaseline({ 'a/x.txt': 'x', 'a/b/y.txt': 'y', 'top.txt': 't' });
    const file = historyDbPath(store.storeDir);
    const ref = readOnly(file);
    const writer = new Database(file);
    onTestFinished(() => void writer.close());
    // Another process's write: the summaries stale, and its transaction still open.
    writer.prepare("UPDATE snapshots SET kind = 'baseline' WHERE id = 1").run();
    expect(fresh(ref)).toBe(0);
    writer.exec('BEGIN IMMEDIATE');
    try {
      expect(engine.folderLevel(projectId, '')).toEqual(foldedFolderLevel(ref, '', undefined, store.index.snapshotReads.baselineId()));
      expect(engine.deleted(projectId)).toEqual([]);
      expect(fresh(ref)).toBe(0);
    } finally {
      writer.exec('COMMIT');
    }
    expect(engine.folderLevel(projectId, 'a')).toEqual(foldedFolderLevel(ref, 'a', undefined, store.index.snapshotReads.baselineId()));
    expect(fresh(ref)).toBe(1);
  });
});
