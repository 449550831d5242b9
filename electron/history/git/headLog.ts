import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

// HEAD's reflog (<gitDir>/logs/HEAD), read from a byte offset to its end: git appends one line per
// move of HEAD, "<old> SP <new> SP <who> SP <when> SP <tz> TAB <why> LF", and its words say what
// happened ("checkout: moving from main to topic", "reset: moving to HEAD", "commit: ..."). A
// `reset --hard` to where HEAD already is moves nothing but still writes a line: the reflog is how
// it is seen. Read straight from the file, so a change group starts no git.

export interface HeadMove {
  from: string;
  to: string;
  subject: string;
  /** The reflog's byte offset just past this move's line (absent where the move was not read from the reflog). */
  end?: number;
  /** When git wrote the line, in seconds since the epoch (absent where the move was not read from the reflog). */
  when?: number;
}

/** Never read more than this much new reflog at once; older lines are dropped. */
const MOST_BYTES = 256 * 1024;

export function headLogPath(gitDir: string): string {
  return join(gitDir, 'logs', 'HEAD');
}

/** The reflog's size now, undefined when there is none (reflogs turned off). */
export function headLogSize(gitDir: string): number | undefined {
  try {
    return statSync(headLogPath(gitDir)).size;
  } catch {
    return undefined;
  }
}

/** The size of the stash's reflog (<gitDir>/logs/refs/stash): 0 when there is no stash. */
export function stashLogSize(gitDir: string): number {
  try {
    return statSync(join(gitDir, 'logs', 'refs', 'stash')).size;
  } catch {
    return 0;
  }
}

/** The moves written after `offset` (up to `until`, when given), oldest first, and the size they were read up to. */
export function headLogSince(gitDir: string, offset: number, until?: number): { moves: HeadMove[]; size: number } {
  let fd: number;
  try {
    fd = openSync(headLogPath(gitDir), 'r');
  } catch {
    return { moves: [], size: 0 };
  }
  try {
    const size = Math.min(fstatSync(fd).size, until ?? Infinity);
    const start = Math.max(offset, size - MOST_BYTES);
    if (size <= start) return { moves: [], size };
    const bytes = Buffer.allocUnsafe(size - start);
    const n = readSync(fd, bytes, 0, bytes.length, start);
    // Up to the last LF: after it comes nothing, or a line git is still writing.
    const consumed = bytes.subarray(0, n).lastIndexOf(0x0a) + 1;
    const moves: HeadMove[] = [];
    // Begins mid-line when older lines were dropped: that line is skipped.
    let lineStart = start > offset ? bytes.indexOf(0x0a) + 1 : 0;
    while (lineStart < consumed) {
      const lineEnd = bytes.indexOf(0x0a, lineStart);
      const move = parseLine(bytes.toString('utf8', lineStart, lineEnd));
      if (move) moves.push({ ...move, end: start + lineEnd + 1 });
      lineStart = lineEnd + 1;
    }
    return { moves, size: start + consumed };
  } finally {
    closeSync(fd);
  }
}

export function parseLine(line: string): HeadMove | undefined {
  const tab = line.indexOf('\t');
  const header = line.slice(0, tab === -1 ? line.length : tab).split(' ');
  const [from, to] = header;
  if (!from || !to) return undefined;
  // "... <email> <seconds> <zone>": the time is the second field from the end.
  const when = Number(header.at(-2));
  return { from, to, subject: tab === -1 ? '' : line.slice(tab + 1), ...(Number.isInteger(when) ? { when } : {}) };
}
