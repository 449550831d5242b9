import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexRepairResult } from '../../../shared/history.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A history.db that exists but cannot be read is never replaced by a fresh one (which would make
// the earlier history unreachable without a word): every command refuses with one line naming the
// file and `hindsight repair`, and leaves it byte for byte as it was. The index is backed up with
// SQLite's backup API after each first copy, and `repair` brings that backup back, keeps the
// damaged file, records what changed since and re-checks every blob.

async function projectWithHistory() {
  const root = tempDir();
  const dataDir = tempDir('hindsight-data-');
  const spec: Record<string, string> = {};
  // Enough rows that the index spans many pages.
  for (let i = 0; i < 400; i++) spec[`dir${i % 20}/file-${i}.txt`] = `contents of file ${i}\n`;
  writeTree(root, spec);
  const opened = await runCli(['open', root, '--data-dir', dataDir]);
  expect(opened.code).toBe(0);
  const storeDir = join(dataDir, 'projects', readdirSync(join(dataDir, 'projects'))[0]!);
  return { root, dataDir, storeDir, db: join(storeDir, 'history.db') };
}

const damages: Record<string, (db: string) => void> = {
  'emptied to 0 bytes': (db) => truncateSync(db, 0),
  garbage: (db) => writeFileSync(db, Buffer.alloc(statSync(db).size, 0x5a)),
  'damaged pages': (db) => {
    const bytes = readFileSync(db);
    // The header page stays; every page after the second is overwritten.
    bytes.fill(0xa5, 2 * 4096);
    writeFileSync(db, bytes);
  },
};

describe('an unreadable history index', () => {
  for (const [name, damage] of Object.entries(damages)) {
    it(`${name}: refused by every command with its path, left as it is, and brought back by repair`, async () => {
      const { root, dataDir, db, storeDir } = await projectWithHistory();
      const backup = join(storeDir, 'history.db.backup');
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      writeFileSync(join(root, 'dir0/file-0.txt'), 'changed after the backup\n');
      damage(db);
      const damagedBytes = readFileSync(db);

      for (const args of [
        ['log', root],
        ['open', root],
        ['files', root],
      ]) {
        const result = await runCli([...args, '--data-dir', dataDir]);
        expect(result.code).toBe(1);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toContain(db);
        expect(result.stderr).toContain('hindsight repair');
        expect(readFileSync(db).equals(damagedBytes)).toBe(true);
      }

      const repaired = await runCli(['repair', root, '--data-dir', dataDir, '--json']);
      expect([repaired.code, repaired.stderr]).toEqual([0, '']);
      const result = JSON.parse(repaired.stdout.toString('utf8')) as IndexRepairResult;
      expect(result.restoredFrom).toBe(backup);
      expect(readFileSync(result.damagedKeptAt!).equals(damagedBytes)).toBe(true);
      expect(result.verify).toMatchObject({ ok: true, blobs: 401, missing: [], corrupt: [] });

      // The history is back, and the change made after the backup was recorded by repair's rescan.
      const log = JSON.parse((await runCli(['log', root, '--data-dir', dataDir, '--json'])).stdout.toString('utf8')) as { kind: string }[];
      expect(log.map((s) => s.kind).sort()).toEqual(['baseline', 'change']);
      const shown = await runCli(['show', root, join(root, 'dir0/file-0.txt'), '--data-dir', dataDir]);
      expect(shown.stdout.toString('utf8')).toBe('changed after the backup\n');
    });
  }

  it('without a backup, repair refuses too and moves nothing', async () => {
    const { root, dataDir, db, storeDir } = await projectWithHistory();
    const { rmSync } = await import('node:fs');
    rmSync(join(storeDir, 'history.db.backup'));
    truncateSync(db, 0);
    // Blobs beside an empty index: a lost index, not a new one.
    const open = await runCli(['open', root, '--data-dir', dataDir]);
    expect(open.code).toBe(1);
    expect(open.stderr).toContain(db);
    const repair = await runCli(['repair', root, '--data-dir', dataDir]);
    expect(repair.code).toBe(1);
    expect(repair.stderr).toContain('no backup');
    expect(statSync(db).size).toBe(0);
    expect(existsSync(db)).toBe(true);
  });
});
