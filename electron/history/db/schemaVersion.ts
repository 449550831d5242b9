import type Database from 'better-sqlite3';
import { closeSync, readSync } from 'node:fs';
import { openIfPresent } from '../openIfPresent.js';
import { HindsightError } from '../../../shared/errors.js';
import { SCHEMA_VERSION } from './migrations.js';
import { walUserVersion } from './walUserVersion.js';

// Which schema a history.db was written with, found without changing a byte of the store: a store
// written by a newer Hindsight must be refused before anything (a temp sweep, a migration, a WAL
// checkpoint on close, even a reader's marks in the -shm file) touches it. SQLite keeps
// user_version in its file header (4 bytes, big-endian, at offset 60); a write-ahead log not yet
// checkpointed may hold a newer copy of that header, and then that copy is the current one.

const USER_VERSION_OFFSET = 60;

/** The schema version of the history.db at `file`; undefined when there is none yet. */
export function storedSchemaVersion(file: string): number | undefined {
  const header = readHeader(file);
  if (header === undefined) return undefined;
  return walUserVersion(`${file}-wal`) ?? header;
}

/**
 * Throws STORE_TOO_NEW when the history.db at `file` was written by a Hindsight newer than one
 * that knows schema `known` (this one's, unless a test asks as an older one would); reads only.
 */
export function refuseNewerStore(file: string, known = SCHEMA_VERSION): void {
  const stored = storedSchemaVersion(file);
  if (stored !== undefined && stored > known) throw storeTooNew(stored, known, file);
}

/** The same, on a connection just opened, before any other statement (the store may have changed since). */
export function assertKnownSchema(db: Database.Database, file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw storeTooNew(current, SCHEMA_VERSION, file);
}

/** The error for a store written by a newer Hindsight: it says so, and which schema it has. */
export function storeTooNew(found: number, known: number, file: string): HindsightError {
  return new HindsightError(
    'STORE_TOO_NEW',
    `This history was written by a newer version of Hindsight (schema ${found}; this version knows schema ${known} at most). Update Hindsight to open it; nothing in it was changed.`,
    { schemaVersion: found, knownSchemaVersion: known, path: file },
  );
}

function readHeader(file: string): number | undefined {
  const fd = openIfPresent(file);
  if (fd === undefined) return undefined;
  try {
    const bytes = Buffer.alloc(4);
    // A file shorter than a header is not a database yet (an empty file SQLite would initialise).
    return readSync(fd, bytes, 0, 4, USER_VERSION_OFFSET) === 4 ? bytes.readUInt32BE(0) : undefined;
  } finally {
    closeSync(fd);
  }
}
