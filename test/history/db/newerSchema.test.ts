import { describe, expect, it, onTestFinished } from 'vitest';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '../../../electron/history/db/migrations.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { historyDbPath, projectStoreDir } from '../../../electron/history/store/storeLayout.js';
import { runCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// A history store written by a newer Hindsight is refused with a typed error that says so and
// names its schema version, and nothing in it is touched: not history.db, not its WAL, not a temp
// a write of that newer version left behind. Checked byte for byte over the whole store folder.

function storeSnapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const st = statSync(path);
        out[path.slice(dir.length)] = `${st.size}:${st.mtimeMs}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
      }
    }
  };
  walk(dir);
  return out;
}

async function storeOfNewerVersion(): Promise<{ root: string; dataDir: string; storeDir: string }> {
  const root = tempDir();
  writeTree(root, { 'a.txt': 'a' });
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  const { projectId } = await engine.open(root);
  engine.close();
  const storeDir = projectStoreDir(dataDir, projectId);
  // A write of the newer version in progress: what a sweep on open would remove.
  writeFileSync(join(storeDir, 'blobs', 'incoming-left-by-a-newer-version'), 'half');
  return { root, dataDir, storeDir };
}

describe('a store written by a newer Hindsight', () => {
  it('is refused with STORE_TOO_NEW naming its schema, and nothing in it changes', async () => {
    const { root, dataDir, storeDir } = await storeOfNewerVersion();
    const newer = new Database(historyDbPath(storeDir));
    newer.pragma(`user_version = ${SCHEMA_VERSION + 6}`);
    newer.close();
    const before = storeSnapshot(storeDir);

    const engine = new HistoryEngine(dataDir);
    onTestFinished(() => engine.close());
    const error = await engine.open(root).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'STORE_TOO_NEW',
      details: { schemaVersion: SCHEMA_VERSION + 6, knownSchemaVersion: SCHEMA_VERSION },
    });
    expect((error as Error).message).toMatch(new RegExp(`newer version of Hindsight \\(schema ${SCHEMA_VERSION + 6};`));
    expect(storeSnapshot(storeDir)).toEqual(before);

    // The CLI says the same in one line, and exits 1.
    const cli = await runCli(['log', root, '--data-dir', dataDir]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(`written by a newer version of Hindsight (schema ${SCHEMA_VERSION + 6};`);
    expect(storeSnapshot(storeDir)).toEqual(before);
  });

  it('is refused too while the newer version still has it open, its change in the write-ahead log', async () => {
    const { root, dataDir, storeDir } = await storeOfNewerVersion();
    // The newer version migrated, and its change is still in the WAL: the file's header is old.
    const newer = new Database(historyDbPath(storeDir));
    onTestFinished(() => void newer.close());
    newer.pragma('journal_mode = WAL');
    newer.pragma('wal_autocheckpoint = 0');
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(readFileSync(historyDbPath(storeDir)).readUInt32BE(60)).toBe(SCHEMA_VERSION);
    const before = storeSnapshot(storeDir);

    const engine = new HistoryEngine(dataDir);
    onTestFinished(() => engine.close());
    await expect(engine.open(root)).rejects.toMatchObject({ code: 'STORE_TOO_NEW', details: { schemaVersion: SCHEMA_VERSION + 1 } });
    expect(storeSnapshot(storeDir)).toEqual(before);
  });
});
