import { backupIndex, openReadOnly } from './indexFile.js';

// The index backup taken from a connection of its own, on the copy worker that is asked for it
// (store/copyPool.ts backupIndex): the history process's connection stays free, and its main
// thread spends nothing on SQLite's backup steps. A read connection sees what was committed.

export async function backupIndexFile(file: string, dest: string): Promise<void> {
  const db = openReadOnly(file);
  try {
    await backupIndex(db, dest);
  } finally {
    db.close();
  }
}
