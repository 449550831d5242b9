import { statSync, type BigIntStats } from 'node:fs';

// What says "config.json is still the file we parsed" without reading it: device, inode, size and
// modification time in nanoseconds. A rename over the file changes the inode; an in-place write
// changes the mtime, and usually the size. The blind spot (README.md): an in-place rewrite that
// keeps inode, size and mtime. ctime would narrow it, but a rename over the file updates the
// replaced inode's ctime while its name still resolves, so a reader racing the rename would miss
// and parse the file one extra time; the reader's key leaves it out. Edits run under the lock,
// where no cooperating writer renames: they compare the exact key, ctime included, so an edit
// never builds on a snapshot of bytes that were rewritten in place.

export interface StatKeys {
  /** What readers compare. */
  key: string;
  /** key and ctime: what an edit compares before it reuses a snapshot. */
  exact: string;
}

export function statKey(path: string): string | undefined {
  return statKeys(path)?.key;
}

export function statKeys(path: string): StatKeys | undefined {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!st || !st.isFile()) return undefined;
    const key = keyOf(st);
    return { key, exact: `${key}:${st.ctimeNs}` };
  } catch {
    // A stat that fails is a miss: the next read parses, and its own read reports the cause.
    return undefined;
  }
}

/** The reader's key of a file from its stat (a rename keeps every part of it). */
export function keyOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
}
