import type { Stats } from 'node:fs';
import type { EntryType } from '../../shared/history.js';
import { msOfTimeSpec, splitNs, type StatStamp } from './statStamp.js';

// The stat cache as a rescan compares it: every row read once into typed arrays by row number,
// so a project of 50,000 files holds 50,000 path strings (the lookup's keys) and no object or
// stamp string per file, and an unchanged file costs a number lstat and a few number compares.
//
// The compare of a number Stats is exact for size, mode, type and inode (an inode past 2^53 is
// left to the exact compare), and for the timestamps to within the double a number Stats holds:
// Node makes `mtimeMs` as sec * 1e3 + nsec / 1e6, and the row's stamp made the same way is the
// same double. Two stamps less than a double's step apart (244 ns today) read alike; a file can
// be changed that soon after the stat that recorded it only within the racy window of the scan
// that made that stat, and such a file is hashed whatever its stat says (versions/rescan.ts).
// What may have changed is stat'ed again with bigints and compared to the nanosecond.

/**
 * One stat cache row as the table takes it: path, 1 for a link (else 0), size, mode bits, mtime
 * in seconds and nanoseconds, ctime the same, the inode (a number, or its decimal text past 15
 * digits), a link's target.
 */
export type CachedStatRow = [string, number, number, number, number, number, number, number, number | string, string | null];

// The kind of a row.
const FILE = 1;
const SYMLINK = 2;
// What the rescan found of a row: not yet, found (changed or not), found unchanged by `holdsFile`.
const UNSEEN = 0;
const SEEN = 1;
const UNCHANGED = 2;
const FIRST_CAPACITY = 1024;

export class StatTable {
  private readonly rows = new Map<string, number>();
  private length = 0;
  private kind = new Uint8Array(FIRST_CAPACITY);
  private size = new Float64Array(FIRST_CAPACITY);
  private mode = new Uint16Array(FIRST_CAPACITY);
  /** NaN where the inode is past 2^53 and so no number a Stats gives can stand for it. */
  private ino = new Float64Array(FIRST_CAPACITY);
  private mtimeSec = new Float64Array(FIRST_CAPACITY);
  private mtimeNsec = new Float64Array(FIRST_CAPACITY);
  private ctimeSec = new Float64Array(FIRST_CAPACITY);
  private ctimeNsec = new Float64Array(FIRST_CAPACITY);
  private seen = new Uint8Array(FIRST_CAPACITY);
  /** Links only: few, and compared by their target too. */
  private readonly targets = new Map<number, string | null>();
  /** The decimal text of the inodes past 2^53 (XFS and btrfs can give them), by row. */
  private readonly largeInodes = new Map<number, string>();

  /** Adds a row as db/statCache.ts reads it. */
  add(from: CachedStatRow): void {
    if (this.length === this.kind.length) this.grow();
    const row = this.length++;
    this.rows.set(from[0], row);
    this.kind[row] = from[1] === 1 ? SYMLINK : FILE;
    this.size[row] = from[2];
    this.mode[row] = from[3];
    this.mtimeSec[row] = from[4];
    this.mtimeNsec[row] = from[5];
    this.ctimeSec[row] = from[6];
    this.ctimeNsec[row] = from[7];
    const ino = from[8];
    if (typeof ino === 'number' && Number.isSafeInteger(ino)) this.ino[row] = ino;
    else {
      this.ino[row] = NaN;
      this.largeInodes.set(row, String(ino));
    }
    if (from[1] === 1) this.targets.set(row, from[9]);
  }

  get count(): number {
    return this.length;
  }

  has(path: string): boolean {
    return this.rows.has(path);
  }

  /** The row of a path, undefined when the cache holds none. */
  rowOf(path: string): number | undefined {
    return this.rows.get(path);
  }

  /**
   * Whether a regular file's number lstat says what its row says. False for a link, and for an
   * inode too large for a number: those are compared exactly (`holdsStamp`).
   */
  holdsFile(row: number, st: Stats): boolean {
    return (
      this.kind[row] === FILE &&
      this.size[row] === st.size &&
      this.mode[row] === (st.mode & 0o7777) &&
      this.ino[row] === st.ino &&
      msOfTimeSpec(this.mtimeSec[row]!, this.mtimeNsec[row]!) === st.mtimeMs &&
      msOfTimeSpec(this.ctimeSec[row]!, this.ctimeNsec[row]!) === st.ctimeMs
    );
  }

  /** Whether an exact stamp (a bigint lstat's, to the nanosecond) is the row's. */
  holdsStamp(row: number, entry: StatStamp & { type: EntryType; target?: string }): boolean {
    return (
      this.kind[row] === (entry.type === 'symlink' ? SYMLINK : FILE) &&
      this.size[row] === entry.size &&
      this.mode[row] === entry.mode &&
      (Number.isNaN(this.ino[row]!) ? this.largeInodes.get(row) === entry.ino : String(this.ino[row]) === entry.ino) &&
      sameTime(this.mtimeSec[row]!, this.mtimeNsec[row]!, entry.mtimeNs) &&
      sameTime(this.ctimeSec[row]!, this.ctimeNsec[row]!, entry.ctimeNs) &&
      (entry.type !== 'symlink' || this.targets.get(row) === (entry.target ?? null))
    );
  }

  /** Marks a row as found on the disk: it is not among the unseen paths. */
  see(row: number): void {
    if (this.seen[row] === UNSEEN) this.seen[row] = SEEN;
  }

  /** Marks a row as found on the disk as it holds it, by `holdsFile`: its ctime is the disk's. */
  seeUnchanged(row: number): void {
    this.seen[row] = UNCHANGED;
  }

  /** The paths of the rows not marked seen, in no particular order. */
  unseenPaths(): string[] {
    const paths: string[] = [];
    for (const [path, row] of this.rows) if (this.seen[row] === UNSEEN) paths.push(path);
    return paths;
  }

  /** The paths of the rows marked seen, changed or not. */
  *seenPaths(): Generator<string> {
    for (const [path, row] of this.rows) if (this.seen[row] !== UNSEEN) yield path;
  }

  /** The paths found unchanged (walk/walkedFolders.ts asks them for a watch to start from). */
  *unchangedPaths(): Generator<string> {
    for (const [path, row] of this.rows) if (this.seen[row] === UNCHANGED) yield path;
  }

  /** The ctime of a file found unchanged, in ms as a number lstat gives it; undefined for any other path. */
  unchangedCtimeMs(path: string): number | undefined {
    const row = this.rows.get(path);
    return row !== undefined && this.seen[row] === UNCHANGED ? msOfTimeSpec(this.ctimeSec[row]!, this.ctimeNsec[row]!) : undefined;
  }

  private grow(): void {
    const capacity = this.kind.length * 2;
    this.kind = grown(this.kind, new Uint8Array(capacity));
    this.size = grown(this.size, new Float64Array(capacity));
    this.mode = grown(this.mode, new Uint16Array(capacity));
    this.ino = grown(this.ino, new Float64Array(capacity));
    this.mtimeSec = grown(this.mtimeSec, new Float64Array(capacity));
    this.mtimeNsec = grown(this.mtimeNsec, new Float64Array(capacity));
    this.ctimeSec = grown(this.ctimeSec, new Float64Array(capacity));
    this.ctimeNsec = grown(this.ctimeNsec, new Float64Array(capacity));
    this.seen = grown(this.seen, new Uint8Array(capacity));
  }
}

function grown<T extends Uint8Array | Uint16Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function sameTime(sec: number, nsec: number, ns: string): boolean {
  const [otherSec, otherNsec] = splitNs(ns);
  return sec === otherSec && nsec === otherNsec;
}
