import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';

// Every SQLite error reaches a person as one line naming the file and what to do, never SQLite's
// own words alone ("disk I/O error"). better-sqlite3 throws SqliteError with the extended result
// code (SQLITE_IOERR_WRITE, SQLITE_CORRUPT_VTAB, ...); the primary code decides the answer.

export function indexError(error: unknown, file: string): unknown {
  if (error instanceof HindsightError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const sqlite = (error as Error).message;
  const details = { path: file, sqliteCode: code };
  const primary = code.replace(/^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/, '$1');
  switch (primary) {
    case 'SQLITE_FULL':
      return full(file, details, error);
    case 'SQLITE_IOERR':
      // A full disk often reaches SQLite as a failed write: say so when it is the reason.
      if (diskFull(file)) return full(file, details, error);
      return new HindsightError(
        'INDEX_IO_ERROR',
        `Could not read or write the history index ${file}: the disk reported an error (${code}). Check the disk, then try again.`,
        details,
        { cause: error },
      );
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return unreadableIndex(file, code === 'SQLITE_NOTADB' ? 'it is not a database' : 'it is damaged', details, error);
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_AUTH':
      return new HindsightError(
        'PERMISSION_DENIED',
        `Could not write the history index ${file}: it or its folder is read-only or not ours (${code}). Give this user write access to ${dirname(file)} and try again.`,
        details,
        { cause: error },
      );
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new HindsightError('STORE_BUSY', `The history index ${file} is busy in another process (${code}). Try again when it is done.`, details, {
        cause: error,
      });
    default:
      return new HindsightError('INTERNAL', `The history index ${file} failed: ${sqlite} (${code}).`, details, { cause: error });
  }
}

/** The error for a history.db that exists but cannot be read: never replaced, and how to bring it back. */
export function unreadableIndex(file: string, why: string, details: Record<string, unknown> = { path: file }, cause?: unknown): HindsightError {
  return new HindsightError(
    'INDEX_UNREADABLE',
    `The history index ${file} cannot be read: ${why}. It was left as it is and nothing was recorded; run "hindsight repair FOLDER" to bring back its latest backup and re-check every stored file.`,
    { ...details, why },
    cause === undefined ? undefined : { cause },
  );
}

function full(file: string, details: Record<string, unknown>, cause: unknown): HindsightError {
  return new HindsightError(
    'DISK_FULL',
    `Could not write the history index ${file}: the disk is full. Free some space and try again; this step recorded nothing.`,
    details,
    { cause },
  );
}

function diskFull(file: string): boolean {
  try {
    const fs = statfsSync(dirname(file));
    return fs.bavail * fs.bsize < 1024 * 1024;
  } catch {
    return false;
  }
}
