import { statSync } from 'node:fs';
import { historyBackupPath } from '../store/storeLayout.js';
import { count } from '../trace.js';
import type { ProjectStore } from '../project/projectStore.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';

// The rolling backup of a project's history.db (history.db.backup beside it, 0600), taken with
// SQLite's backup API for the project's writer: after each first copy, and on an open when the last
// one is a day old. It runs on a copy worker from a connection of its own (CopyPool.backupIndex):
// after a first copy a worker is up and idle, and the backup's steps, about a quarter of a second
// of CPU for 50,000 files, would otherwise be the main thread's. `hindsight repair` brings it back when the index itself cannot be read.

const DAY_MS = 24 * 60 * 60 * 1000;

export async function backupIndexIfDue(store: ProjectStore, options: { force?: boolean; now?: number; pool?: CopyPool } = {}): Promise<boolean> {
  const path = historyBackupPath(store.storeDir);
  if (!options.force && ageMs(path, options.now ?? Date.now()) < DAY_MS) return false;
  try {
    await (options.pool ?? sharedCopyPool()).backupIndex(store.index.file, path);
  } catch {
    // A backup that cannot be written (a full disk) costs the history nothing; the next open tries again.
    count('index.backupFailures');
    return false;
  }
  count('index.backups');
  return true;
}

function ageMs(path: string, now: number): number {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}
