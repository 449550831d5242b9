import { statSync } from 'node:fs';

// What says "config.json is still the file we parsed" without reading it: device, inode, size and
// modification time in nanoseconds. A rename over the file changes the inode; an in-place write
// changes the mtime, and usually the size. The blind spot (README.md): an in-place rewrite that
// keeps inode, size and mtime. ctime would narrow it, but a rename over the file updates the
// replaced inode's ctime while its name still resolves, so a reader racing the rename would miss
// and parse the file one extra time; the key leaves it out.

export function statKey(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!st || !st.isFile()) return undefined;
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    // A stat that fails is a miss: the next read parses, and its own read reports the cause.
    return undefined;
  }
}
