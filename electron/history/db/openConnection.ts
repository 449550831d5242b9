import Database from 'better-sqlite3';
import { noteCleanClose } from './checkedStamp.js';
import { assertIndexFile, quickCheck, useWal } from './indexFile.js';
import { migrate } from './migrations.js';
import { assertKnownSchema, refuseNewerStore } from './schemaVersion.js';
import { indexError } from './sqliteErrors.js';

// history.db's connection opened and closed (HistoryIndex holds it): the file checked before it
// is opened for writing, the pragmas every connection of the history process runs with, the
// pages read when the file changed since a clean close, and the schema migrated.

export function openConnection(file: string, expectHistory: boolean): Database.Database {
  // Refused before the file is opened for writing: one that is not a database (empty with a
  // history beside it, garbage) is never replaced, and a newer store is never touched.
  assertIndexFile(file, expectHistory);
  refuseNewerStore(file);
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (error) {
    throw indexError(error, file);
  }
  try {
    // First: another process may be opening the same history right now (switching it to WAL,
    // migrating it); wait for its locks rather than fail.
    db.pragma('busy_timeout = 5000');
    assertKnownSchema(db, file);
    useWal(db);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    quickCheck(db, file);
    migrate(db);
  } catch (error) {
    db.close();
    throw indexError(error, file);
  }
  return db;
}

/** Closes the connection once, noting the clean close (checkedStamp.ts) so a reopen skips the page read. */
export function closeConnection(db: Database.Database, file: string): void {
  if (!db.open) return;
  db.close();
  noteCleanClose(file);
}
