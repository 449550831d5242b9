import Database from 'better-sqlite3';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setSetting } from '../../../electron/history/config/projectEdits.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { blobPath, historyDbPath } from '../../../electron/history/store/storeLayout.js';
import { DEFAULT_RETENTION } from '../../../shared/retention.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Helpers of the prune tests: moving a recorded history back in time (history.db is the only
// place a test can get a month of history from), and the blobs versions name that are missing.

const HOUR = 3_600_000;
/** A policy that thins everything but what is always kept (each file's newest version). */
export const THIN_ALL = { ...DEFAULT_RETENTION, keepAllHours: 0, hourly: 0, daily: 0, weekly: 0, uncommittedDays: 0, graceMinutes: 0 };

/**
 * Four files edited into `edits` versions (`contents(i)` the bytes of the i-th), one snapshot
 * every 30 hours back from now, and the THIN_ALL policy set; the engine is closed again.
 */
export async function thinnableHistory(
  prefix: string,
  edits: number,
  contents: (i: number) => string,
): Promise<{ root: string; dataDir: string; storeDir: string }> {
  const root = realpathSync(tempDir(prefix));
  writeTree(root, { 'x0.txt': contents(0), 'x1.txt': contents(1), 'x2.txt': contents(2), 'x3.txt': contents(3) });
  const dataDir = tempDir('hindsight-data-');
  const engine = new HistoryEngine(dataDir);
  const { projectId } = await engine.open(root);
  for (let i = 4; i < edits; i++) {
    writeFileSync(join(root, `x${i % 4}.txt`), contents(i));
    await engine.rescan(projectId);
  }
  const storeDir = engine.store(projectId).storeDir;
  ageHistory(historyDbPath(storeDir), (i, count) => Date.now() - (count - i) * 30 * HOUR);
  await engine.config.editConfig(setSetting('retention', THIN_ALL));
  engine.close();
  return { root, dataDir, storeDir };
}

/** Sets each snapshot's time (in id order) to `at(i, count)`. */
export function ageHistory(dbFile: string, at: (i: number, count: number) => number): void {
  const db = new Database(dbFile);
  try {
    const ids = (db.prepare('SELECT id FROM snapshots ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    const set = db.prepare('UPDATE snapshots SET at = ? WHERE id = ?');
    db.transaction(() => ids.forEach((id, i) => set.run(Math.round(at(i, ids.length)), id)))();
  } finally {
    db.close();
  }
}

/** What each snapshot restores (path -> blob hash, deleted files left out), by snapshot id: what a prune must not change for any snapshot it leaves. */
export function snapshotStates(dbFile: string): Map<number, string> {
  const db = new Database(dbFile, { readonly: true });
  try {
    const ids = (db.prepare('SELECT id FROM snapshots ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    const rows = db.prepare('SELECT path, hash, snapshot_id AS at FROM versions ORDER BY snapshot_id').all() as {
      path: string;
      hash: string | null;
      at: number;
    }[];
    const states = new Map<number, string>();
    for (const id of ids) {
      const state = new Map<string, string | null>();
      for (const r of rows) if (r.at <= id) state.set(r.path, r.hash);
      states.set(id, JSON.stringify([...state].filter(([, hash]) => hash !== null).sort()));
    }
    return states;
  } finally {
    db.close();
  }
}

/** The blobs some version names whose file is not in the store (should always be none). */
export function referencedBlobsPresent(dataDir: string, root: string): string[] {
  const storeDir = join(dataDir, 'projects', projectIdOf(root));
  const db = new Database(join(storeDir, 'history.db'), { readonly: true });
  try {
    const hashes = (db.prepare('SELECT DISTINCT hash FROM versions WHERE hash IS NOT NULL').all() as { hash: string }[]).map((r) => r.hash);
    return hashes.filter((hash) => !existsSync(blobPath(join(storeDir, 'blobs'), hash)));
  } finally {
    db.close();
  }
}
