// Turns a history.db back into what an earlier Hindsight wrote, for the tests of the migrations
// that come after it: the blobs' bytes on disk of schema 13, the tables of schema 11 (folder summaries), 10 (lines), 9 (remotes), 8 (damaged blobs), 6 and 7 (retention),
// 5 (search index) and the columns of schema 3 (origins), 4 (scope) and 9 (a snapshot's machine)
// removed.

const DROP_RETENTION_TABLES =
  'DROP TABLE pinned_snapshots; DROP TABLE pinned_versions; DROP TABLE blob_marks; DROP TABLE blob_tombstones; DROP TABLE blob_git_oids;';

const DROP_SEARCH_TABLES = 'DROP TABLE search_text; DROP TABLE search_blobs;';

const DROP_DAMAGED_BLOBS = 'DROP TABLE damaged_blobs;';

// Back to schema 12: renames and gone folders (15), chunk lists (14), the blobs' bytes on disk and the blobs compaction keeps raw (13) removed.
export const DROP_AFTER_SCHEMA_12 = [
  'DROP TRIGGER version_renames_gone; DROP TABLE version_renames; ALTER TABLE folder_modes DROP COLUMN gone;',
  "DELETE FROM meta WHERE key = 'folders.goneFrom';",
  'DROP TABLE blob_chunks;',
  'DROP TABLE blobs_kept_raw; ALTER TABLE blobs DROP COLUMN stored_size;',
].join(' ');

// Back to schema 10: what came after 12, and folder summaries (11) and the triggers that mark them stale, removed.
export const DROP_AFTER_SCHEMA_10 = `${DROP_AFTER_SCHEMA_12} ${[
  'versions_insert',
  'versions_delete',
  'versions_update',
  'snapshots_delete',
  'snapshots_update',
  'lines_insert',
  'lines_delete',
  'lines_update',
]
  .map((t) => `DROP TRIGGER folder_summaries_stale_${t};`)
  .concat('DROP TABLE folder_summaries; DROP TABLE folder_summary_state;')
  .join(' ')}`;

// Back to schema 9: lines (10) removed, versions_by_path on (path, snapshot_id) again.
export const DROP_AFTER_SCHEMA_9 =
  DROP_AFTER_SCHEMA_10 +
  ' DROP INDEX snapshots_by_machine; DROP INDEX versions_by_path; ALTER TABLE versions DROP COLUMN line; DROP TABLE lines; CREATE INDEX versions_by_path ON versions(path, snapshot_id);';

const DROP_REMOTE_SCHEMA = ['remote_links', 'remote_packs', 'remote_blobs', 'remote_foreign', 'remote_read']
  .map((t) => `DROP TABLE ${t};`)
  .concat(['machine', 'machine_snapshot'].map((c) => `ALTER TABLE snapshots DROP COLUMN ${c};`))
  .join(' ');

export const DROP_ORIGIN_COLUMNS = ['origin', 'origin_snapshot', 'from_git', 'git_operation', 'git_when', 'scope']
  .map((c) => `ALTER TABLE snapshots DROP COLUMN ${c};`)
  .concat('ALTER TABLE versions DROP COLUMN from_version;')
  .join(' ');

// Back to schema 5: lines (10), remotes (9), damaged blobs (8), git object ids (7) and pins, blob marks and
// tombstones (6) removed.
export const DROP_AFTER_SCHEMA_5 = `${DROP_AFTER_SCHEMA_9} ${DROP_REMOTE_SCHEMA} ${DROP_DAMAGED_BLOBS} ${DROP_RETENTION_TABLES}`;

// Back to schema 2: what came after it (3 to 10) removed.
export const DROP_AFTER_SCHEMA_2 = `${DROP_AFTER_SCHEMA_5} ${DROP_SEARCH_TABLES} ${DROP_ORIGIN_COLUMNS}`;
