import { afterEach, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Sql } from '../../../electron/history/db/sql.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { projectWithBaseline } from '../versions/versionsHelpers.js';

// The reads the viewer makes on every click walk an index, never a whole table: one snapshot by
// id (not the grouped list of them all), what one snapshot changed, one file's versions, the
// latest version of a path, on this machine's line or on another machine's (lines.ts). Each
// statement the index runs for them is captured and its plan read from SQLite itself.

afterEach(() => vi.restoreAllMocks());

function captured(): { texts: string[] } {
  const seen = { texts: [] as string[] };
  for (const method of ['get', 'all', 'rows'] as const) {
    const original = Sql.prototype[method];
    vi.spyOn(Sql.prototype, method).mockImplementation(function (this: Sql, text: string, ...params: unknown[]) {
      seen.texts.push(text);
      return (original as (this: Sql, text: string, ...params: unknown[]) => unknown).call(this, text, ...params);
    } as never);
  }
  return seen;
}

function plan(dbFile: string, text: string): string {
  const db = new Database(dbFile, { readonly: true });
  try {
    const params = Array.from(text.matchAll(/\?/g), () => 1);
    return (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
  } finally {
    db.close();
  }
}

describe('the index reads one thing with one indexed query', () => {
  it('never scans the snapshots or versions tables to answer about one snapshot, one file or one path', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`f${i}.txt`] = `file ${i}`;
    const { engine, root, projectId, store } = await projectWithBaseline(files);
    writeFileSync(join(root, 'f1.txt'), 'changed');
    const { snapshotId } = await engine.rescan(projectId);
    // Another machine's snapshot, as a pull writes it, on a line forked from the first copy.
    const [other] = store.index.importForeign(
      [
        {
          snapshot: { kind: 'change', machine: 'machine-b', machineSnapshot: 2 },
          versions: [{ path: 'f2.txt', hash: null, mode: 0o644, size: 0, type: null }],
          blobs: [],
        },
      ],
      () => store.index.remotes.setLineFork('machine-b', { machine: 'machine-a', origin: store.index.snapshotReads.baselineId()! }, 'machine-a'),
    );
    const dbFile = historyDbPath(store.storeDir);

    const reads: [string, () => unknown][] = [
      ['snapshot', () => store.index.snapshotReads.snapshot(snapshotId!)],
      ['snapshotChanges', () => store.index.versions.snapshotChanges(snapshotId!)],
      ['versionsOf', () => store.index.versions.versionsOf('f1.txt')],
      ['versionsPage', () => store.index.versions.versionsPage('f1.txt', snapshotId!, 50)],
      ['version', () => store.index.versions.version(1)],
      ['latestVersion', () => store.index.versions.latestVersion('f1.txt')],
      ['latestContents', () => store.index.versions.latestContents('f1.txt')],
      ['latestVersionOf', () => store.index.versions.latestVersionOf('f1.txt')],
      ['versionsNaming', () => store.index.versions.versionsNaming('0'.repeat(64))],
      ['versionBefore', () => store.index.versions.versionBefore('f1.txt', snapshotId!)],
      ['versionIdAt', () => store.index.versions.versionIdAt('f1.txt', snapshotId!)],
      ['previousSnapshotId', () => store.index.snapshotReads.previousSnapshotId(snapshotId!)],
      ['previousMark', () => store.index.snapshotReads.previousMark(snapshotId!)],
      ['pathsChangedBetween', () => store.index.snapshotReads.pathsChangedBetween(1, snapshotId!)],
      ['cachedStat', () => store.index.statCache.cachedStat('f1.txt')],
      ['latestSnapshotId', () => store.index.snapshotReads.latestSnapshotId()],
      ['ownVersionsOf', () => store.index.versions.ownVersionsOf('f1.txt')],
      ['pathDensity', () => store.index.density.pathDensity('f1.txt', 330 * 60_000)],
      ['snapshotChanges on another line', () => store.index.versions.snapshotChanges(other!)],
      ['versionBefore on another line', () => store.index.versions.versionBefore('f2.txt', other!)],
      ['versionIdAt on another line', () => store.index.versions.versionIdAt('f1.txt', other!)],
      ['previousSnapshotId on another line', () => store.index.snapshotReads.previousSnapshotId(other!)],
      ['previousMark on another line', () => store.index.snapshotReads.previousMark(other!)],
      ['folderModeAt on another line', () => store.index.folderModes.folderModeAt(other!, 'sub')],
    ];
    for (const [name, read] of reads) {
      const seen = captured();
      read();
      vi.restoreAllMocks();
      expect(seen.texts.length, name).toBeGreaterThan(0);
      for (const text of seen.texts) {
        const steps = plan(dbFile, text);
        // The lines table holds one row per machine: reading it whole is reading a handful of rows.
        expect(steps, `${name}: ${steps}`).not.toMatch(/\bSCAN (?!lines\b)/);
      }
    }
    expect(store.index.versions.snapshotChanges(snapshotId!)).toEqual([
      { path: 'f1.txt', change: 'modified', versionId: expect.any(Number), hash: expect.any(String), mode: 0o644, size: 7, type: 'file' },
    ]);
  });
});
