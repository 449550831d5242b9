import { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';

// Whether history.db is as a clean close of ours left it. quick_check reads every page of the
// index (about 40 ms a MiB: 450 ms for a 5,000-file project's 11 MiB, most of a reopen), to refuse
// an index damaged while nothing had it open. A close writes the file's identity and its WAL's
// beside it (`history.db.checked`); an open that finds both unchanged skips the check, since only
// SQLite wrote the file since it was last checked or closed. Any other write (a copy over it,
// bytes changed in place, a truncation) changes its size, times or inode, and the next open checks
// every page again. Damage that leaves the file's times alone (a failing disk) is still met by
// SQLite on the pages read, as SQLITE_CORRUPT, which the queries turn into INDEX_UNREADABLE.

function stampPath(file: string): string {
  return `${file}.checked`;
}

/**
 * The identity of the index and of its WAL, as one line. An empty WAL holds nothing: an open
 * makes one, a clean close removes it, so it counts as none. The WAL's ctime is left out: SQLite
 * run as root gives the WAL the database's owner at every open (fchown), which changes its ctime
 * and nothing else, so an open beside a process that holds the index (the recorder) would read
 * every page each time; a write to the WAL still changes its size or mtime.
 */
function stampOf(file: string): string {
  return [file, `${file}-wal`]
    .map((path) => {
      const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
      if (stats === undefined || (stats.size === 0n && path !== file)) return 'none';
      const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
      return path === file ? `${identity}:${stats.ctimeNs}` : identity;
    })
    .join(' ');
}

/** Whether the index is as a clean close of ours left it (so its pages were checked or written by SQLite since). */
export function unchangedSinceClose(file: string): boolean {
  let kept: string;
  try {
    kept = readFileSync(stampPath(file), 'utf8');
  } catch {
    return false;
  }
  return kept === stampOf(file);
}

/** Notes the index as a clean close leaves it; a failure to write it only costs the next open a check. */
export function noteCleanClose(file: string): void {
  const temp = `${stampPath(file)}.incoming`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, stampOf(file));
    } finally {
      closeSync(fd);
    }
    renameSync(temp, stampPath(file));
  } catch {
    rmSync(temp, { force: true });
  }
}
