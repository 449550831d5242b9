import type Database from 'better-sqlite3';

// Versioned schema changes of history.db, applied in order inside one transaction each. A store
// written by a newer Hindsight (a higher user_version than we know) is refused, not guessed at.
//
// Adding a migration: append { version: N + 1, up } below. Never edit one that has shipped: a
// store written with it already has its user_version, and would never run the edit.

interface Migration {
  version: number;
  up: (db: Database.Database) => void;
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    up: (db) =>
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE snapshots (
          id INTEGER PRIMARY KEY,
          kind TEXT NOT NULL CHECK (kind IN ('baseline', 'change', 'restore', 'checkpoint')),
          at INTEGER NOT NULL,
          label TEXT,
          branch TEXT,
          head TEXT
        );
        CREATE TABLE versions (
          id INTEGER PRIMARY KEY,
          snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
          path TEXT NOT NULL,
          hash TEXT,
          mode INTEGER NOT NULL,
          size INTEGER NOT NULL,
          type TEXT CHECK (type IN ('file', 'symlink') OR type IS NULL),
          target TEXT
        );
        CREATE INDEX versions_by_path ON versions(path, snapshot_id);
        CREATE INDEX versions_by_snapshot ON versions(snapshot_id);
        CREATE INDEX versions_by_hash ON versions(hash);
        CREATE TABLE stat_cache (
          path TEXT PRIMARY KEY,
          type TEXT NOT NULL,
          size INTEGER NOT NULL,
          mode INTEGER NOT NULL,
          mtime_ns TEXT NOT NULL,
          ctime_ns TEXT NOT NULL,
          ino TEXT NOT NULL,
          hash TEXT NOT NULL,
          target TEXT
        ) WITHOUT ROWID;
      `),
  },
  {
    // Folder modes, versioned like file modes: a row when a folder is first seen or its mode
    // changes, so a folder a restore recreates gets the bits it had at the snapshot restored.
    version: 2,
    up: (db) =>
      db.exec(`
        CREATE TABLE folder_modes (
          path TEXT NOT NULL,
          snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
          mode INTEGER NOT NULL,
          PRIMARY KEY (path, snapshot_id)
        ) WITHOUT ROWID;
      `),
  },
  {
    // Retention: pins keep a snapshot or a version through every prune; a blob no version names
    // any more is marked with the time it became unreferenced, and its file is deleted only after
    // a grace period; a collected blob leaves a tombstone so a writer that placed the same bytes
    // meanwhile checks the file is still there before naming it. Checkpoints a person made are
    // pinned (those git's HEAD moves made are not: they follow the policy).
    version: 3,
    up: (db) =>
      db.exec(`
        CREATE TABLE pinned_snapshots (snapshot_id INTEGER PRIMARY KEY REFERENCES snapshots(id), at INTEGER NOT NULL);
        CREATE TABLE pinned_versions (version_id INTEGER PRIMARY KEY REFERENCES versions(id), at INTEGER NOT NULL);
        CREATE TABLE blob_marks (hash TEXT PRIMARY KEY, since INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE blob_tombstones (hash TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO pinned_snapshots (snapshot_id, at)
          SELECT id, at FROM snapshots WHERE kind = 'checkpoint'
            AND COALESCE(label, '') NOT LIKE 'Before checkout to %' AND COALESCE(label, '') NOT LIKE 'Before HEAD moved%';
      `),
  },
  {
    // git's object id of a stored blob, computed once: a prune keeps young versions whose bytes
    // are in no git commit, and compares them with git by that id.
    version: 4,
    // Also: the checkpoints a mass change writes by itself follow the policy like git's (schema 3
    // pinned them with the ones a person made).
    up: (db) =>
      db.exec(`
        CREATE TABLE blob_git_oids (hash TEXT PRIMARY KEY, oid TEXT NOT NULL) WITHOUT ROWID;
        DELETE FROM pinned_snapshots WHERE snapshot_id IN
          (SELECT id FROM snapshots WHERE kind = 'checkpoint' AND label LIKE 'Before % files changed at once');
      `),
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function migrate(db: Database.Database): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  const current = version();
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    // IMMEDIATE, and the version read again inside: another process opening the same history at
    // the same time may have applied this step while this one waited for the write lock.
    db.transaction(() => {
      if (version() >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
