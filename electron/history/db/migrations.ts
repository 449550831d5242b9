import { latestUnder } from './folderLevel.js';
import { FOLDER_SUMMARIES_SCHEMA, rebuildFolderSummaries } from './folderSummaries.js';
import { Sql } from './sql.js';
import { faultPoint } from '../faultPoint.js';
import type Database from 'better-sqlite3';

// Versioned schema changes of history.db, applied in order, all those due in one transaction. A
// store written by a newer Hindsight (a higher user_version than we know) is refused, not guessed at.
//
// Adding a migration: append { version: N + 1, up } below. Never edit one that has shipped: a
// store written with it already has its user_version, and would never run the edit. A gap in the
// numbers is harmless: every listed migration above the stored version runs, in order.
//
// The CHECKs on snapshots.kind and snapshots.origin list shared/history.ts's SNAPSHOT_KINDS and
// ORIGIN_KINDS: a kind added there needs a migration that rebuilds the CHECK
// (test/history/db/kindChecks.test.ts compares the migrated schema with shared's lists).

interface Migration {
  version: number;
  up: (db: Database.Database) => void;
}

/**
 * The checkpoints a person made, in SQL over snapshots' columns: not git's (its origin, or for a
 * row without one its label, as headCheckpoint.ts words them), nor the one a mass change writes
 * before itself (changeGroup.ts).
 */
export const MADE_BY_A_PERSON = `kind = 'checkpoint'
  AND COALESCE(origin, '') <> 'git'
  AND NOT (origin IS NULL AND (label LIKE 'Before checkout to %' OR label LIKE 'Before HEAD moved%'
    OR label LIKE 'Before stash (%' OR label LIKE 'Before stash pop (%'))
  AND COALESCE(label, '') NOT LIKE 'Before % files changed at once'`;

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
    // Where each snapshot came from (shared/history.ts Origin), and for a restored version the
    // version it was restored from. Older rows keep NULL and are told by their kind.
    version: 3,
    up: (db) =>
      db.exec(`
        ALTER TABLE snapshots ADD COLUMN origin TEXT
          CHECK (origin IN ('first-copy', 'edit', 'restore', 'undo', 'git', 'checkpoint') OR origin IS NULL);
        ALTER TABLE snapshots ADD COLUMN origin_snapshot INTEGER;
        ALTER TABLE snapshots ADD COLUMN from_git TEXT CHECK (from_git IN ('HEAD', 'INDEX') OR from_git IS NULL);
        ALTER TABLE snapshots ADD COLUMN git_operation TEXT;
        ALTER TABLE snapshots ADD COLUMN git_when TEXT CHECK (git_when IN ('before', 'after') OR git_when IS NULL);
        ALTER TABLE versions ADD COLUMN from_version INTEGER;
      `),
  },
  {
    // What a snapshot's files have in common (shared/history.ts SnapshotInfo.scope), written with
    // it so the timeline can say "3 files in src/" without reading every snapshot's versions.
    version: 4,
    up: (db) => db.exec('ALTER TABLE snapshots ADD COLUMN scope TEXT;'),
  },
  {
    // The search index: every blob's text once, however many versions share it. search_blobs is
    // the build's state (one row per blob looked at: its text indexed, or found binary, not
    // UTF-8 or unreadable), so a build killed midway resumes where its last batch committed;
    // its id is the blob's row in search_text. search_text keeps only which blobs hold each
    // trigram (contentless: the text stays in the blob store; detail=none: no positions, a
    // quarter of the size of the positions' index, since every candidate is read to find its
    // lines anyway), and rows can be deleted by id.
    version: 5,
    up: (db) =>
      db.exec(`
        CREATE TABLE search_blobs (
          id INTEGER PRIMARY KEY,
          hash TEXT NOT NULL UNIQUE,
          state TEXT NOT NULL CHECK (state IN ('text', 'binary', 'encoding', 'unreadable')),
          bytes INTEGER NOT NULL
        );
        CREATE VIRTUAL TABLE search_text USING fts5(body, tokenize = 'trigram', content = '', contentless_delete = 1, detail = none);
      `),
  },
  {
    // Retention: pins keep a snapshot or a version through every prune; a blob no version names
    // any more is marked with the time it became unreferenced, and its file is deleted only after
    // a grace period; a collected blob leaves a tombstone so a writer that placed the same bytes
    // meanwhile checks the file is still there before naming it. Checkpoints a person made are
    // pinned; those written by themselves follow the policy: git's (origin 'git' since schema 3;
    // before it, or imported from a bundle, told by their labels, see headCheckpoint.ts) and the
    // one before a mass change (its origin is 'checkpoint' like a person's: told by its label).
    version: 6,
    up: (db) =>
      db.exec(`
        CREATE TABLE pinned_snapshots (snapshot_id INTEGER PRIMARY KEY REFERENCES snapshots(id), at INTEGER NOT NULL);
        CREATE TABLE pinned_versions (version_id INTEGER PRIMARY KEY REFERENCES versions(id), at INTEGER NOT NULL);
        CREATE TABLE blob_marks (hash TEXT PRIMARY KEY, since INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE blob_tombstones (hash TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO pinned_snapshots (snapshot_id, at)
          SELECT id, at FROM snapshots WHERE ${MADE_BY_A_PERSON};
      `),
  },
  {
    // git's object id of a stored blob, computed once: a prune keeps young versions whose bytes
    // are in no git commit, and compares them with git by that id.
    version: 7,
    up: (db) =>
      db.exec(`
        CREATE TABLE blob_git_oids (hash TEXT PRIMARY KEY, oid TEXT NOT NULL) WITHOUT ROWID;
      `),
  },
  {
    // Blobs a reader or verify found missing or damaged: their name is then not trusted, so the
    // next copy of the right bytes (a first copy, a rescan, verify --repair) rewrites them.
    version: 8,
    up: (db) =>
      db.exec(`
        CREATE TABLE damaged_blobs (
          hash TEXT PRIMARY KEY,
          problem TEXT NOT NULL CHECK (problem IN ('missing', 'corrupt')),
          found_at INTEGER NOT NULL
        ) WITHOUT ROWID;
      `),
  },
  {
    // Remotes (docs/REMOTE.md). What this data folder sent to each remote, so a push resumes
    // where the last one stopped: the link (head, records, indexes written), every blob's place
    // on the remote (ours and other machines'), and the other machines' heads already read.
    // Snapshots brought in from another machine keep which machine and which id they had there
    // (machine, machine_snapshot; NULL: recorded here). (6 to 8: other features' migrations.)
    version: 9,
    up: (db) =>
      db.exec(`
        CREATE TABLE remote_links (
          remote TEXT PRIMARY KEY,
          project_id TEXT NOT NULL,
          machine_id TEXT NOT NULL,
          pushed_origin INTEGER NOT NULL DEFAULT 0,
          pushed_snapshots INTEGER NOT NULL DEFAULT 0,
          head_etag TEXT,
          records TEXT NOT NULL DEFAULT '[]',
          indexes TEXT NOT NULL DEFAULT '[]',
          push_in_progress INTEGER NOT NULL DEFAULT 0,
          pushed_at INTEGER,
          last_error TEXT
        ) WITHOUT ROWID;
        CREATE TABLE remote_packs (
          remote TEXT NOT NULL,
          pack TEXT NOT NULL,
          size INTEGER NOT NULL,
          blobs TEXT NOT NULL,
          indexed INTEGER NOT NULL,
          PRIMARY KEY (remote, pack)
        ) WITHOUT ROWID;
        CREATE TABLE remote_blobs (
          remote TEXT NOT NULL,
          hash TEXT NOT NULL,
          pack TEXT,
          offset INTEGER NOT NULL,
          length INTEGER NOT NULL,
          size INTEGER NOT NULL,
          encoding TEXT NOT NULL,
          indexed INTEGER NOT NULL,
          PRIMARY KEY (remote, hash)
        ) WITHOUT ROWID;
        CREATE INDEX remote_blobs_unindexed ON remote_blobs(remote, indexed);
        CREATE TABLE remote_foreign (
          remote TEXT NOT NULL,
          machine_id TEXT NOT NULL,
          etag TEXT NOT NULL,
          head TEXT NOT NULL,
          PRIMARY KEY (remote, machine_id)
        ) WITHOUT ROWID;
        CREATE TABLE remote_read (
          remote TEXT NOT NULL,
          key TEXT NOT NULL,
          machine_id TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('index', 'record')),
          PRIMARY KEY (remote, key)
        ) WITHOUT ROWID;
        ALTER TABLE snapshots ADD COLUMN machine TEXT;
        ALTER TABLE snapshots ADD COLUMN machine_snapshot INTEGER;
      `),
  },
  {
    // Lines of history (lines.ts): a pulled snapshot takes the next local id, so "this folder's
    // newest version" and "the files at a snapshot" follow one machine's line. Each version
    // carries its snapshot's line (0: this machine's), and versions_by_path leads with (path,
    // line) so a line's newest version of a path is one seek; snapshots_by_machine finds a
    // machine's snapshot by its id there (a fork, a pull's "already here"). The lines of
    // snapshots already brought in, and their forks (the clone's meta, the heads a pull read), are
    // filled in from what schema 9 kept.
    version: 10,
    up: (db) => {
      db.exec(`
        CREATE TABLE lines (
          id INTEGER PRIMARY KEY,
          machine TEXT UNIQUE,
          fork_line INTEGER REFERENCES lines(id),
          fork_origin INTEGER
        );
        INSERT INTO lines (id, machine) VALUES (0, NULL);
        INSERT INTO lines (machine) SELECT DISTINCT machine FROM snapshots WHERE machine IS NOT NULL ORDER BY machine;
        ALTER TABLE versions ADD COLUMN line INTEGER NOT NULL DEFAULT 0;
        UPDATE versions SET line = (SELECT l.id FROM snapshots s JOIN lines l ON l.machine = s.machine WHERE s.id = versions.snapshot_id)
          WHERE snapshot_id IN (SELECT id FROM snapshots WHERE machine IS NOT NULL);
        DROP INDEX versions_by_path;
        CREATE INDEX versions_by_path ON versions(path, line, snapshot_id);
        CREATE INDEX snapshots_by_machine ON snapshots(machine, machine_snapshot);
      `);
      fillForks(db);
    },
  },
  {
    // Folder summaries (folderSummaries.ts): each folder's files, deletions and files changed
    // since the baseline on this machine's line, kept by commitSnapshot and marked stale by
    // triggers on any other write, so a level of the tree reads its own children only. Filled
    // here by the fold of the history as it stands.
    version: 11,
    up: (db) => {
      db.exec(FOLDER_SUMMARIES_SCHEMA);
      const sql = new Sql(db, 'history.db');
      rebuildFolderSummaries(sql, (segments) => latestUnder(sql, '', segments));
    },
  },
  {
    // The blob store may hold compressed blobs (blobs/ab/<hash>.zst, codec/blobCodec.ts) beside
    // raw ones. No table changes: the version alone makes an older Hindsight refuse this store
    // with STORE_TOO_NEW instead of taking its compressed blobs for missing ones.
    version: 12,
    up: () => undefined,
  },
  {
    // Bytes on disk (store/README.md): each blob's own file size, `stored_size`, which the budget
    // counts (retention/). NULL: not known yet, counted as the raw size. A blob of a size never
    // compressed (codec/blobCodec.ts: 4 KiB or less, or more than 1 MiB) is raw, so its stored
    // size is its size: filled here by one UPDATE, no file looked at. The rest is filled by
    // compaction (compact/), which also remembers the blobs it found not worth compressing
    // (`blobs_kept_raw`: named by their bytes, so the answer never changes) so a later run skips
    // them. The version also makes an older Hindsight refuse a compacted store (STORE_TOO_NEW).
    version: 13,
    up: (db) =>
      db.exec(`
        ALTER TABLE blobs ADD COLUMN stored_size INTEGER;
        UPDATE blobs SET stored_size = size WHERE size <= 4096 OR size > 1048576;
        CREATE TABLE blobs_kept_raw (hash TEXT PRIMARY KEY) WITHOUT ROWID;
      `),
  },
  {
    // Large files may be stored as content-defined chunks (store/chunkList.ts): a list blob
    // (blobs/ab/<hash>.chunks) naming chunks that are blobs of their own, shared between lists.
    // blob_chunks records which chunks each list names, so a prune never removes a chunk a kept
    // list needs and collects a chunk with the last list naming it, and verify can name every
    // version a damaged chunk breaks. Chunks have no row in blobs: a version names lists only,
    // and the store's byte counts stay the files' bytes. IF NOT EXISTS: a store set back to an
    // older version (a test of an older migration) runs this again over its own table.
    version: 14,
    up: (db) => {
      db.exec(`
        CREATE TABLE IF NOT EXISTS blob_chunks (
          list TEXT NOT NULL,
          seq INTEGER NOT NULL,
          chunk TEXT NOT NULL,
          size INTEGER NOT NULL,
          PRIMARY KEY (list, seq)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS blob_chunks_by_chunk ON blob_chunks(chunk);
      `);
    },
  },
  {
    // Renames (db/renames.ts): the first version of a path a file was moved to, and the path it
    // was moved from, so the new path's versions continue the old one's. A version removed (a
    // prune) takes its link with it.
    // Empty folders (db/emptyFolders.ts): a folder_modes row with gone = 1 says the folder was no
    // longer there; folders are told present or gone from the next snapshot on (meta
    // 'folders.goneFrom'), so an older snapshot never gets back a folder deleted before this.
    version: 15,
    up: (db) =>
      db.exec(`
        CREATE TABLE version_renames (version_id INTEGER PRIMARY KEY, path TEXT NOT NULL, from_path TEXT NOT NULL);
        CREATE INDEX version_renames_by_path ON version_renames(path);
        CREATE TRIGGER version_renames_gone AFTER DELETE ON versions BEGIN
          DELETE FROM version_renames WHERE version_id = old.id;
        END;
        ALTER TABLE folder_modes ADD COLUMN gone INTEGER NOT NULL DEFAULT 0;
        INSERT INTO meta (key, value) SELECT 'folders.goneFrom', COALESCE(MAX(id), 0) + 1 FROM snapshots;
      `),
  },
  {
    // A first copy's baseline written in batches before it exists (db/stagedBaseline.ts): rows no
    // reader looks at, moved into versions, stat_cache, blobs and blob_chunks by the one
    // transaction that writes the baseline's snapshot. IF NOT EXISTS: a test of an older
    // migration runs this again over its own tables.
    version: 21,
    up: (db) =>
      db.exec(`
        CREATE TABLE IF NOT EXISTS staged_files (
          path TEXT PRIMARY KEY,
          type TEXT NOT NULL,
          hash TEXT NOT NULL,
          mode INTEGER NOT NULL,
          size INTEGER NOT NULL,
          target TEXT,
          stat_size INTEGER NOT NULL,
          stat_mode INTEGER NOT NULL,
          mtime_ns TEXT NOT NULL,
          ctime_ns TEXT NOT NULL,
          ino TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS staged_blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, stored_size INTEGER) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS staged_chunks (
          list TEXT NOT NULL,
          seq INTEGER NOT NULL,
          chunk TEXT NOT NULL,
          size INTEGER NOT NULL,
          PRIMARY KEY (list, seq)
        ) WITHOUT ROWID;
      `),
  },
];

/** Schema 10's forks from what schema 9 kept: the clone's remote.fork, and the heads of other machines a pull read. */
function fillForks(db: Database.Database): void {
  const own = new Set((db.prepare('SELECT machine_id FROM remote_links').all() as { machine_id: string }[]).map((r) => r.machine_id));
  const lineOf = (machine: string): number => {
    const known = db.prepare('SELECT id FROM lines WHERE machine = ?').get(machine) as { id: number } | undefined;
    return known ? known.id : Number(db.prepare('INSERT INTO lines (machine) VALUES (?)').run(machine).lastInsertRowid);
  };
  const setFork = (line: number, fork: { machine?: unknown; origin?: unknown } | null | undefined) => {
    if (!fork || typeof fork.machine !== 'string' || typeof fork.origin !== 'number') return;
    const forkLine = own.has(fork.machine) ? 0 : lineOf(fork.machine);
    if (forkLine !== line) db.prepare('UPDATE lines SET fork_line = ?, fork_origin = ? WHERE id = ?').run(forkLine, fork.origin, line);
  };
  const cloned = db.prepare("SELECT value FROM meta WHERE key = 'remote.fork'").get() as { value: string } | undefined;
  if (cloned) setFork(0, parsed(cloned.value) as { machine?: unknown; origin?: unknown } | null);
  for (const row of db.prepare('SELECT machine_id, head FROM remote_foreign').all() as { machine_id: string; head: string }[]) {
    if (own.has(row.machine_id)) continue;
    const head = parsed(row.head) as { fork?: { machine?: unknown; origin?: unknown } | null } | null;
    setFork(lineOf(row.machine_id), head?.fork);
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function migrate(db: Database.Database): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() >= SCHEMA_VERSION) return;
  // Every step due, in one IMMEDIATE transaction: another process sees the schema as it was or
  // whole, never a step of it. A connection that loaded the schema before a change gets
  // SQLITE_SCHEMA from a statement connecting a virtual table (search_text: FTS5 reads its config
  // as it connects, and that cannot reload the schema mid-prepare); SQLite prepares such a
  // statement once more after reloading, which one change survives and a run of steps committed
  // one by one did not (the CLI's first open beside a recorder making the same new history).
  // The version is read again inside: the other process may have migrated while this one waited
  // for the write lock.
  let migrated = false;
  db.transaction(() => {
    const current = version();
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      migration.up(db);
      migrated = true;
    }
    if (migrated) db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
  if (migrated) faultPoint('schema-migrated');
}
