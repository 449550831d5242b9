import { firstOnSegments, OWN_LINE, segmentsAt } from './lines.js';
import type { Sql } from './sql.js';

// The recorded permission bits of a project's folders (table folder_modes, migration 2): one row
// when a folder is first seen or its mode changed, tied to the snapshot that saw it. A folder's
// mode at a snapshot is its latest row at or before it.

/** Every folder's latest recorded mode, of the folders whose latest row says present. */
export function latestFolderModes(sql: Sql): Map<string, number> {
  const rows = sql.rows<[string, number]>(
    'SELECT path, mode FROM folder_modes f WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM folder_modes WHERE path = f.path) AND gone = 0',
  );
  return new Map(rows);
}

/**
 * A folder's mode as of a snapshot, on that snapshot's line (only this machine records folder
 * modes: a push carries none); undefined when it was never recorded there by then.
 */
export function folderModeAt(sql: Sql, snapshotId: number, path: string): number | undefined {
  return folderModeRowAt(sql, snapshotId, path)?.mode;
}

/** folderModeAt with the snapshot that recorded the mode (a restore asks where it came from). */
export function folderModeRowAt(sql: Sql, snapshotId: number, path: string): { mode: number; snapshotId: number } | undefined {
  return firstOnSegments(segmentsAt(sql, snapshotId), (s) =>
    s.line === OWN_LINE
      ? sql.get<{ mode: number; snapshotId: number }>(
          `SELECT f.mode, f.snapshot_id AS snapshotId FROM folder_modes f JOIN snapshots s ON s.id = f.snapshot_id
           WHERE f.path = ? AND f.snapshot_id <= ? AND s.machine IS NULL ORDER BY f.snapshot_id DESC LIMIT 1`,
          path,
          s.upTo,
        )
      : undefined,
  );
}

/** The folders a walk saw that are not recorded present, and (a complete walk) those recorded present that it did not see. */
export function folderChanges(sql: Sql, seen: ReadonlyMap<string, number>, complete: boolean): { added: string[]; gone: string[] } {
  const latest = latestFolderModes(sql);
  const added = [...seen.keys()].filter((path) => !latest.has(path));
  const gone = complete ? [...latest.keys()].filter((path) => !seen.has(path)) : [];
  return { added, gone };
}

/**
 * Records the folders whose mode differs from their latest row (or that have none, or whose
 * latest row says gone) at a snapshot. With `complete` (a walk of the whole folder that could
 * list every folder), a folder recorded present that the walk did not see is recorded gone.
 */
export function recordFolderModes(sql: Sql, snapshotId: number, seen: ReadonlyMap<string, number>, complete = false): number {
  const latest = latestFolderModes(sql);
  let recorded = 0;
  sql.transaction(() => {
    for (const [path, mode] of seen) {
      if (latest.get(path) === mode) continue;
      sql.run(
        'INSERT INTO folder_modes (path, snapshot_id, mode) VALUES (?, ?, ?) ON CONFLICT(path, snapshot_id) DO UPDATE SET mode = excluded.mode, gone = 0',
        path,
        snapshotId,
        mode,
      );
      recorded++;
    }
    if (!complete) return;
    for (const [path, mode] of latest) {
      if (seen.has(path)) continue;
      sql.run(
        'INSERT INTO folder_modes (path, snapshot_id, mode, gone) VALUES (?, ?, ?, 1) ON CONFLICT(path, snapshot_id) DO UPDATE SET gone = 1',
        path,
        snapshotId,
        mode,
      );
      recorded++;
    }
  });
  return recorded;
}
