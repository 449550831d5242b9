import Database from 'better-sqlite3';
import { HindsightError } from '../../../shared/errors.js';
import { closeSync, fchmodSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { indexError, unreadableIndex } from './sqliteErrors.js';
import { unchangedSinceClose } from './checkedStamp.js';
import { count } from '../trace.js';

// history.db as a file: is it one SQLite can read, and its rolling backup. An index that exists
// but cannot be read (emptied while a history lies beside it, garbage, damaged pages) is refused
// with its path, never replaced by a fresh one that would make the earlier history unreachable.

const MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
/** quick_check reads every page (about 40 ms a MiB): done at open up to this size, by repair always. */
const QUICK_CHECK_LIMIT = 64 * 1024 * 1024;

/**
 * Throws INDEX_UNREADABLE when the file is there but is no SQLite database. An empty file is a
 * new index (made 0600 before SQLite writes it) unless `expectHistory`: blobs or a backup beside it.
 */
export function assertIndexFile(file: string, expectHistory: boolean): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (size === 0) {
    if (expectHistory) throw unreadableIndex(file, 'it is empty (0 bytes) while the store holds a history');
    return;
  }
  const head = Buffer.alloc(MAGIC.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(MAGIC)) throw unreadableIndex(file, 'it is not an SQLite database');
}

/**
 * Reads every page of a small enough index that changed since a clean close of ours (every index
 * when `always`); a damaged one is INDEX_UNREADABLE, not half answers.
 */
export function quickCheck(db: Database.Database, file: string, always = false): void {
  if (!always && (statSync(file).size > QUICK_CHECK_LIMIT || unchangedSinceClose(file))) return;
  count('index.quickCheck');
  const rows = db.pragma('quick_check(3)') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check.replace(/\s+/g, ' ').trim()).filter((r) => r !== 'ok');
  if (problems.length > 0) throw unreadableIndex(file, `it is damaged (${problems.join('; ')})`, { path: file, problems });
}

/** A consistent copy of the index at `dest` (0600 from its first byte), put in place only once complete. */
export async function backupIndex(db: Database.Database, dest: string): Promise<void> {
  const temp = `${dest}.incoming`;
  rmSync(temp, { force: true });
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      fchmodSync(fd, 0o600); // whatever the umask
    } finally {
      closeSync(fd);
    }
    await db.backup(temp);
    renameSync(temp, dest);
  } catch (error) {
    rmSync(temp, { force: true });
    throw indexError(error, dest);
  }
}

/** Why the index at `file` cannot be read, every page checked, without writing to it; undefined when it can. */
export function whyUnreadable(file: string, expectHistory: boolean): string | undefined {
  try {
    assertIndexFile(file, expectHistory);
    const db = openReadOnly(file);
    try {
      quickCheck(db, file, true);
    } finally {
      db.close();
    }
    return undefined;
  } catch (error) {
    const mapped = indexError(error, file);
    if (mapped instanceof HindsightError && mapped.code === 'INDEX_UNREADABLE') return String(mapped.details?.why ?? mapped.message);
    throw mapped;
  }
}

/**
 * A read-only connection to an index another connection of this process writes (a worker's):
 * WAL lets it read a consistent state beside the writer; it waits for a writer's locks (opening,
 * a checkpoint) rather than fail.
 */
export function openReadOnly(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Puts the index in WAL mode. Switching a new file to WAL needs it to itself, and SQLite answers
 * SQLITE_BUSY at once, without the busy handler, while another process has it open (two processes
 * opening a new history together: the CLI's first open and a recorder told of it by config.json):
 * tried again every 10 ms until the busy timeout. An index already in WAL mode takes no lock.
 */
export function useWal(db: Database.Database, waitMs = 5000): void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      count('index.walSwitchRetries');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
