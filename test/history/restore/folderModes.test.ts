import { describe, expect, it, onTestFinished } from 'vitest';
import { chmodSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { tempDir } from '../../helpers/tempDirs.js';
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
      await engine.open(root);
      const previous = process.umask(umask);
      onTestFinished(() => {
        process.umask(previous);
      });

      // The whole project.
      removeFolders(root, ['secret', 'pub', 'ro', 'shared']);
      await engine.restoreSnapshot(root, 1);
      expect(modes(root)).toEqual(expected());

      // One file, its folders gone.
      removeFolders(root, ['secret']);
      const [key] = engine.versions(root, 'secret/deep/key.txt');
      await engine.restoreFile(root, 'secret/deep/key.txt', key!.versionId);
      expect([modeOf(root, 'secret'), modeOf(root, 'secret/deep')]).toEqual(['750', '700']);

      // A mode changed later is recorded by the rescan; each snapshot brings back its own.
      chmodSync(join(root, 'pub'), 0o711);
      await engine.rescan(root);
      const later = engine.log(root).at(-1)!.snapshotId;
      removeFolders(root, ['pub']);
      await engine.restoreSnapshot(root, later);
      expect(modeOf(root, 'pub')).toBe('711');
      removeFolders(root, ['pub']);
      await engine.restoreSnapshot(root, 1);
      expect(modeOf(root, 'pub')).toBe('755');
    });
  }

  it('are recorded by the first rescan of a history made before they were (schema 1)', async () => {
    const root = project();
    const dataDir = tempDir('hindsight-data-');
    const before = new HistoryEngine(dataDir);
    await before.open(root);
    before.store(root).index.db.exec('DROP TABLE folder_modes; PRAGMA user_version = 1;');
    before.close();

    const engine = new HistoryEngine(dataDir);
    onTestFinished(() => engine.close());
    await engine.open(root);
    expect(engine.store(root).index.db.pragma('user_version', { simple: true })).toBe(2);
    removeFolders(root, ['secret', 'pub', 'ro', 'shared']);
    await engine.restoreSnapshot(root, 1);
    expect(modes(root)).toEqual(expected());
  });
});
