import { describe, expect, it, onTestFinished } from 'vitest';
import { chmodSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../../electron/history/db/migrations.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { DROP_AFTER_SCHEMA_2 } from '../db/olderSchema.js';
import { writeTree } from '../../helpers/writeTree.js';

// Folder modes are recorded like file modes and a folder a restore recreates comes back with the
// bits it had at the snapshot restored, whatever the umask: the bulk restore and the one-file
// restore alike, a mode changed later recorded by a rescan, a folder without write permission.

const FOLDERS: Record<string, number> = {
  secret: 0o750,
  'secret/deep': 0o700,
  pub: 0o755,
  ro: 0o555,
  shared: 0o2770,
};

function modeOf(root: string, path: string): string {
  return (statSync(join(root, path)).mode & 0o7777).toString(8);
}

function modes(root: string): Record<string, string> {
  return Object.fromEntries(Object.keys(FOLDERS).map((path) => [path, modeOf(root, path)]));
}

const expected = (changes: Record<string, number> = {}) =>
  Object.fromEntries(Object.entries({ ...FOLDERS, ...changes }).map(([path, mode]) => [path, mode.toString(8)]));

function removeFolders(root: string, paths: string[]): void {
  for (const path of paths) {
    chmodSync(join(root, path), 0o755); // a folder without write permission cannot be emptied
    rmSync(join(root, path), { recursive: true });
  }
}

function project(): string {
  const root = tempDir();
  writeTree(root, {
    'secret/deep/key.txt': 'key',
    'secret/notes.txt': 'notes',
    'pub/x.txt': 'x',
    'ro/r.txt': 'r',
    'shared/s.txt': 's',
  });
  for (const [path, mode] of Object.entries(FOLDERS).reverse()) chmodSync(join(root, path), mode);
  return root;
}

describe('folder modes', () => {
  for (const umask of [0o000, 0o077]) {
    it(`come back as recorded when a restore recreates them, under umask ${umask.toString(8).padStart(3, '0')}`, async () => {
      const root = project();
      const engine = new HistoryEngine(tempDir('hindsight-data-'));
      onTestFinished(() => engine.close());
      const { projectId } = await engine.open(root);
      const previous = process.umask(umask);
      onTestFinished(() => {
        process.umask(previous);
      });

      // The whole project.
      removeFolders(root, ['secret', 'pub', 'ro', 'shared']);
      await engine.restoreSnapshot(projectId, 1);
      expect(modes(root)).toEqual(expected());

      // One file, its folders gone.
      removeFolders(root, ['secret']);
      const [key] = engine.versions(projectId, 'secret/deep/key.txt');
      await engine.restoreFile(projectId, 'secret/deep/key.txt', key!.versionId);
      expect([modeOf(root, 'secret'), modeOf(root, 'secret/deep')]).toEqual(['750', '700']);

      // A mode changed later is recorded by the rescan; each snapshot brings back its own.
      chmodSync(join(root, 'pub'), 0o711);
      await engine.rescan(projectId);
      const later = engine.log(projectId).at(-1)!.snapshotId;
      removeFolders(root, ['pub']);
      await engine.restoreSnapshot(projectId, later);
      expect(modeOf(root, 'pub')).toBe('711');
      removeFolders(root, ['pub']);
      await engine.restoreSnapshot(projectId, 1);
      expect(modeOf(root, 'pub')).toBe('755');
    });
  }

  it('are recorded by the first rescan of a history made before they were (schema 1)', async () => {
    const root = project();
    const dataDir = tempDir('hindsight-data-');
    const before = new HistoryEngine(dataDir);
    const { projectId } = await before.open(root);
    const dbFile = historyDbPath(before.store(projectId).storeDir);
    before.close();
    // As an earlier Hindsight left it: the index only db/ code may write, changed from outside.
    const older = new Database(dbFile);
    older.exec(`${DROP_AFTER_SCHEMA_2} DROP TABLE folder_modes; PRAGMA user_version = 1;`);
    older.close();

    const engine = new HistoryEngine(dataDir);
    onTestFinished(() => engine.close());
    await engine.open(root);
    const migrated = new Database(dbFile, { readonly: true });
    expect(migrated.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    migrated.close();
    removeFolders(root, ['secret', 'pub', 'ro', 'shared']);
    await engine.restoreSnapshot(projectId, 1);
    expect(modes(root)).toEqual(expected());
  });
});
