import { lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { StoreDisk } from '../../../shared/contract/storeSpace.js';
import { blobsDirOf, historyBackupPath, historyDbPath, namesIn, restoreJournalDir, TEMP_PREFIX } from './storeLayout.js';

// What one project's store takes on disk, as `du -s --block-size=1` counts it: allocated blocks
// (st_blocks * 512, not a file's length: a 100-byte blob takes a whole block), every file and
// folder under the store folder, each inode once. A blob's recorded size says what its bytes
// are; only this says what the disk pays for them, folders and SQLite's WAL included.

/** StoreDisk but for the search index's share of history.db, which the index tells. */
export type StoreDiskUsage = Omit<StoreDisk, 'searchIndexBytes'>;

interface Tally {
  bytes: number;
  files: number;
  /** Inodes counted already (dev:ino): a hard link is paid for once, as du counts it. */
  seen: Set<string>;
}

export function storeDiskUsage(storeDir: string): StoreDiskUsage {
  const seen = new Set<string>();
  const tally = (): Tally => ({ bytes: 0, files: 0, seen });
  const blobs = tally();
  const temps = tally();
  const index = tally();
  const backup = tally();
  const other = tally();
  const db = historyDbPath(storeDir);
  addTree(storeDir, other, () => other, false);
  addTree(blobsDirOf(storeDir), blobs, (name) => (name.startsWith(TEMP_PREFIX) ? temps : blobs));
  for (const path of [db, `${db}-wal`, `${db}-shm`]) addTree(path, index, () => index);
  addTree(historyBackupPath(storeDir), backup, () => backup);
  addTree(restoreJournalDir(storeDir), temps, () => temps);
  // Whatever else lies in the store folder (locks, markers, what a later version adds) is counted too.
  for (const name of namesIn(storeDir)) addTree(join(storeDir, name), other, () => other);
  const parts = [blobs, index, backup, temps, other];
  return {
    totalBytes: parts.reduce((sum, part) => sum + part.bytes, 0),
    blobBytes: blobs.bytes,
    blobFiles: blobs.files,
    indexBytes: index.bytes,
    backupBytes: backup.bytes,
    tempBytes: temps.bytes,
    otherBytes: other.bytes,
  };
}

/**
 * Adds `path` (and, with `recurse`, everything under it) to `into`, each entry below it to the
 * tally `below` names for it. A path gone meanwhile (a temp renamed, a WAL checkpointed away) adds nothing.
 */
function addTree(path: string, into: Tally, below: (name: string) => Tally, recurse = true): void {
  const stats = lstatOrNone(path);
  if (!stats) return;
  const inode = `${stats.dev}:${stats.ino}`;
  if (into.seen.has(inode)) return;
  into.seen.add(inode);
  into.bytes += stats.blocks * 512;
  if (!stats.isDirectory()) {
    into.files++;
    return;
  }
  if (!recurse) return;
  for (const name of namesIn(path)) {
    const part = below(name);
    addTree(join(path, name), part, part === into ? below : () => part);
  }
}

function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
