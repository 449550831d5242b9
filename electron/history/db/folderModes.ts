import type Database from 'better-sqlite3';

// The recorded permission bits of a project's folders (table folder_modes, migration 2): one row
// when a folder is first seen or its mode changed, tied to the snapshot that saw it. A folder's
// mode at a snapshot is its latest row at or before it.

export class FolderModes {
  constructor(private readonly db: Database.Database) {}

  /** Every folder's latest recorded mode. */
  latest(): Map<string, number> {
    const rows = this.db
      .prepare('SELECT path, mode FROM folder_modes f WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM folder_modes WHERE path = f.path)')
      .raw(true)
      .all() as [string, number][];
    return new Map(rows);
  }

  /** A folder's mode as of a snapshot; undefined when it was never recorded by then. */
  at(snapshotId: number, path: string): number | undefined {
    const row = this.db
      .prepare('SELECT mode FROM folder_modes WHERE path = ? AND snapshot_id <= ? ORDER BY snapshot_id DESC LIMIT 1')
      .get(path, snapshotId) as { mode: number } | undefined;
    return row?.mode;
  }

  /** Records the folders whose mode differs from their latest row (or that have none) at a snapshot. */
  recordChanged(snapshotId: number, seen: ReadonlyMap<string, number>): number {
    const latest = this.latest();
    const upsert = this.db.prepare(
      'INSERT INTO folder_modes (path, snapshot_id, mode) VALUES (?, ?, ?) ON CONFLICT(path, snapshot_id) DO UPDATE SET mode = excluded.mode',
    );
    let recorded = 0;
    this.db.transaction(() => {
      for (const [path, mode] of seen) {
        if (latest.get(path) === mode) continue;
        upsert.run(path, snapshotId, mode);
        recorded++;
      }
    })();
    return recorded;
  }
}
