import { statSync } from 'node:fs';

// What says "config.json is still the file we parsed" without reading it: device, inode, size,
// and the modification and change times in nanoseconds. A rename over the file changes the inode;
// an in-place write changes mtime and ctime (and usually the size). ctime cannot be set back by a
// program, so even a rewrite that restores mtime is seen; the one blind spot is an in-place rewrite
// of the same size within one tick of the file system's clock (see README.md).

export function statKey(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (!st || !st.isFile()) return undefined;
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    // A stat that fails is a miss: the next read parses, and its own read reports the cause.
    return undefined;
  }
}
