import Database from 'better-sqlite3';
import type { EntryType, FileEntry, SnapshotInfo, SnapshotKind, VersionInfo } from '../../../shared/history.js';
import { FolderModes } from './folderModes.js';
import { migrate } from './migrations.js';

// history.db: the index of one project's history. It names a blob only after the blob is in
// place on disk, and every multi-row write is one transaction.

export interface NewVersion {
  path: string;
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
  target?: string | null;
}

export interface StatRow {
  path: string;
  type: EntryType;
  size: number;
  mode: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
  hash: string;
  target?: string | null;
}

export interface NewSnapshot {
  kind: SnapshotKind;
  at?: number;
  label?: string | null;
  branch?: string | null;
  head?: string | null;
}

interface VersionRow {
  id: number;
  snapshot_id: number;
  path: string;
  hash: string | null;
  mode: number;
  size: number;
  type: EntryType | null;
  target: string | null;
  at: number;
  kind: SnapshotKind;
  branch: string | null;
  head: string | null;
}

export class HistoryIndex {
  readonly db: Database.Database;
  /** The recorded modes of the project's folders. */
  readonly folderModes: FolderModes;
  private snapshotContext: (() => { branch: string | null; head: string | null }) | undefined;

  constructor(file: string) {
    this.db = new Database(file);
    // First: another process may be opening the same history right now (switching it to WAL,
    // migrating it); wait for its locks rather than fail.
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.folderModes = new FolderModes(this.db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  getMeta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  baselineId(): number | undefined {
    const row = this.db.prepare("SELECT id FROM snapshots WHERE kind = 'baseline' ORDER BY id LIMIT 1").get() as
      | { id: number }
      | undefined;
    return row?.id;
  }

  latestSnapshotId(): number | undefined {
    const row = this.db.prepare('SELECT MAX(id) AS id FROM snapshots').get() as { id: number | null };
    return row.id ?? undefined;
  }

  /** Where a snapshot's branch and head come from when its writer gave none (the store's git). */
  setSnapshotContext(provider: () => { branch: string | null; head: string | null }): void {
    this.snapshotContext = provider;
  }

  /** The branch and head recorded on the latest snapshot. */
  latestSnapshotContext(): { snapshotId: number; branch: string | null; head: string | null } | undefined {
    const row = this.db.prepare('SELECT id, branch, head FROM snapshots ORDER BY id DESC LIMIT 1').get() as
      | { id: number; branch: string | null; head: string | null }
      | undefined;
    return row && { snapshotId: row.id, branch: row.branch, head: row.head };
  }

  /** Writes a snapshot with its versions, the blobs they name and the stat rows, all or nothing. */
  commitSnapshot(
    snapshot: NewSnapshot,
    versions: NewVersion[],
    blobs: { hash: string; size: number }[],
    stats: StatRow[] = [],
    removedStats: string[] = [],
  ): number {
    const insertSnapshot = this.db.prepare(
      'INSERT INTO snapshots (kind, at, label, branch, head) VALUES (@kind, @at, @label, @branch, @head)',
    );
    const insertVersion = this.db.prepare(
      'INSERT INTO versions (snapshot_id, path, hash, mode, size, type, target) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertBlob = this.db.prepare('INSERT OR IGNORE INTO blobs (hash, size) VALUES (?, ?)');
    const context = snapshot.branch === undefined && snapshot.head === undefined ? this.contextNow() : undefined;
    return this.db.transaction(() => {
      const info = insertSnapshot.run({
        kind: snapshot.kind,
        at: snapshot.at ?? Date.now(),
        label: snapshot.label ?? null,
        branch: snapshot.branch ?? context?.branch ?? null,
        head: snapshot.head ?? context?.head ?? null,
      });
      const id = Number(info.lastInsertRowid);
      for (const blob of blobs) insertBlob.run(blob.hash, blob.size);
      for (const v of versions) insertVersion.run(id, v.path, v.hash, v.mode, v.size, v.type, v.target ?? null);
      this.writeStats(stats, removedStats);
      return id;
    })();
  }

  /** The provider's answer; a provider that fails leaves the snapshot without git context, never unwritten. */
  private contextNow(): { branch: string | null; head: string | null } | undefined {
    try {
      return this.snapshotContext?.();
    } catch {
      return undefined;
    }
  }

  writeStats(stats: StatRow[], removed: string[] = []): void {
    const upsert = this.db.prepare(
      `INSERT INTO stat_cache (path, type, size, mode, mtime_ns, ctime_ns, ino, hash, target)
       VALUES (@path, @type, @size, @mode, @mtimeNs, @ctimeNs, @ino, @hash, @target)
       ON CONFLICT(path) DO UPDATE SET type = excluded.type, size = excluded.size, mode = excluded.mode,
         mtime_ns = excluded.mtime_ns, ctime_ns = excluded.ctime_ns, ino = excluded.ino,
         hash = excluded.hash, target = excluded.target`,
    );
    const remove = this.db.prepare('DELETE FROM stat_cache WHERE path = ?');
    this.db.transaction(() => {
      for (const row of stats) upsert.run({ ...row, target: row.target ?? null });
      for (const path of removed) remove.run(path);
    })();
  }

  statCache(): StatRow[] {
    return this.db
      .prepare(
        `SELECT path, type, size, mode, mtime_ns AS mtimeNs, ctime_ns AS ctimeNs, ino, hash, target
         FROM stat_cache ORDER BY path`,
      )
      .all() as StatRow[];
  }

  /** Every file as it stands at a snapshot (default: the latest), sorted by path. */
  filesAt(snapshotId?: number): FileEntry[] {
    const at = snapshotId ?? this.latestSnapshotId() ?? 0;
    const rows = this.db
      .prepare(
        `SELECT v.path, v.type, v.hash, v.mode, v.size, v.target FROM versions v
         JOIN (SELECT MAX(id) AS id FROM versions WHERE snapshot_id <= ? GROUP BY path) latest ON latest.id = v.id
         WHERE v.hash IS NOT NULL ORDER BY v.path`,
      )
      .all(at) as { path: string; type: EntryType; hash: string; mode: number; size: number; target: string | null }[];
    return rows.map((r) =>
      r.type === 'symlink' && r.target !== null
        ? { path: r.path, type: r.type, hash: r.hash, mode: r.mode, size: r.size, target: r.target }
        : { path: r.path, type: r.type, hash: r.hash, mode: r.mode, size: r.size },
    );
  }

  /** Paths whose latest version is a deletion, with that version. */
  deletedPaths(): VersionInfo[] {
    const rows = this.db
      .prepare(
        `${VERSION_SELECT} JOIN (SELECT MAX(id) AS id FROM versions GROUP BY path) latest ON latest.id = v.id
         WHERE v.hash IS NULL ORDER BY v.path`,
      )
      .all() as VersionRow[];
    return rows.map(toVersionInfo);
  }

  snapshots(): SnapshotInfo[] {
    const rows = this.db
      .prepare(
        `SELECT s.id, s.kind, s.at, s.label, s.branch, s.head, COUNT(v.id) AS files
         FROM snapshots s LEFT JOIN versions v ON v.snapshot_id = s.id GROUP BY s.id ORDER BY s.id`,
      )
      .all() as { id: number; kind: SnapshotKind; at: number; label: string | null; files: number; branch: string | null; head: string | null }[];
    return rows.map((r) => ({ snapshotId: r.id, kind: r.kind, at: r.at, label: r.label, files: r.files, branch: r.branch, head: r.head }));
  }

  snapshot(id: number): SnapshotInfo | undefined {
    return this.snapshots().find((s) => s.snapshotId === id);
  }

  /** Every version of one path, oldest first. */
  versionsOf(path: string): VersionInfo[] {
    const rows = this.db.prepare(`${VERSION_SELECT} WHERE v.path = ? ORDER BY v.id`).all(path) as VersionRow[];
    return rows.map(toVersionInfo);
  }

  version(versionId: number): (VersionInfo & { path: string }) | undefined {
    const row = this.db.prepare(`${VERSION_SELECT} WHERE v.id = ?`).get(versionId) as VersionRow | undefined;
    return row ? { ...toVersionInfo(row), path: row.path } : undefined;
  }

  latestVersion(path: string): VersionInfo | undefined {
    const row = this.db.prepare(`${VERSION_SELECT} WHERE v.path = ? ORDER BY v.id DESC LIMIT 1`).get(path) as
      | VersionRow
      | undefined;
    return row ? toVersionInfo(row) : undefined;
  }

  versionsOfSnapshot(snapshotId: number): (VersionInfo & { path: string })[] {
    const rows = this.db.prepare(`${VERSION_SELECT} WHERE v.snapshot_id = ? ORDER BY v.path`).all(snapshotId) as VersionRow[];
    return rows.map((r) => ({ ...toVersionInfo(r), path: r.path }));
  }

  blobs(): { hash: string; size: number }[] {
    return this.db.prepare('SELECT hash, size FROM blobs ORDER BY hash').all() as { hash: string; size: number }[];
  }

  blobTotals(): { blobs: number; bytes: number } {
    const row = this.db.prepare('SELECT COUNT(*) AS blobs, COALESCE(SUM(size), 0) AS bytes FROM blobs').get() as {
      blobs: number;
      bytes: number;
    };
    return row;
  }

  versionsNaming(hash: string): { versionId: number; snapshotId: number; path: string }[] {
    return this.db
      .prepare('SELECT id AS versionId, snapshot_id AS snapshotId, path FROM versions WHERE hash = ? ORDER BY id')
      .all(hash) as { versionId: number; snapshotId: number; path: string }[];
  }
}

const VERSION_SELECT = `SELECT v.id, v.snapshot_id, v.path, v.hash, v.mode, v.size, v.type, v.target,
  s.at, s.kind, s.branch, s.head FROM versions v JOIN snapshots s ON s.id = v.snapshot_id`;

function toVersionInfo(r: VersionRow): VersionInfo {
  return {
    versionId: r.id,
    snapshotId: r.snapshot_id,
    hash: r.hash,
    mode: r.mode,
    size: r.size,
    at: r.at,
    kind: r.kind,
    type: r.type,
    target: r.target,
    branch: r.branch,
    head: r.head,
  };
}
