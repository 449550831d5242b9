import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectIdOf } from '../../../electron/history/project/projectId.js';
import { blobPath } from '../../../electron/history/store/storeLayout.js';

// Helpers of the prune tests: moving a recorded history back in time (history.db is the only
// place a test can get a month of history from), and the blobs versions name that are missing.

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
    const rows = db.prepare('SELECT path, hash, snapshot_id AS at FROM versions ORDER BY snapshot_id').all() as { path: string; hash: string | null; at: number }[];
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
