import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { whyUnreadable } from '../db/indexFile.js';
import { unreadableIndex } from '../db/sqliteErrors.js';
import { BlobStore } from '../store/blobStore.js';
import { historyBackupPath, historyDbPath } from '../store/storeLayout.js';
import { holdsHistory } from '../project/projectStore.js';
import { WriterLock } from '../project/writerLock.js';

// `hindsight repair FOLDER`, first half: an index that cannot be read is moved aside (kept, never
// deleted: history.db.damaged-<time>) and its latest backup put in its place, as the project's
// writer. The engine then opens the project (a rescan records what changed since the backup) and
// re-checks every blob with verify --repair. A readable index is left as it is.

export interface IndexSwap {
  /** The backup that replaced the index, or null when the index could be read and was kept. */
  restoredFrom: string | null;
  /** Where the unreadable index was moved, or null. */
  damagedKeptAt: string | null;
}

export async function bringBackIndex(storeDir: string, root: string, now = new Date()): Promise<IndexSwap> {
  const file = historyDbPath(storeDir);
  const writer = new WriterLock({ storeDir, blobs: BlobStore.of(storeDir), root });
  return writer.hold(async () => {
    const problem = unreadable(file, storeDir);
    if (!problem) return { restoredFrom: null, damagedKeptAt: null };
    const backup = historyBackupPath(storeDir);
    if (!existsSync(backup)) {
      throw unreadableIndex(file, `${problem}, and there is no backup of it (${backup}) to bring back`);
    }
    // The backup is checked before anything is moved: a damaged backup leaves everything as it was.
    const backupProblem = unreadable(backup, storeDir);
    if (backupProblem) throw unreadableIndex(file, `${problem}, and its backup ${backup} cannot be read either (${backupProblem})`);
    const kept = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, kept);
    for (const side of ['-wal', '-shm']) {
      if (existsSync(file + side)) renameSync(file + side, kept + side);
    }
    copyFileSync(backup, file, 0);
    return { restoredFrom: backup, damagedKeptAt: kept };
  });
}

function unreadable(file: string, storeDir: string): string | undefined {
  return whyUnreadable(file, holdsHistory(storeDir));
}
