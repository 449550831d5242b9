import { readSync } from 'node:fs';

// The first bytes of an open file: what the viewer shows of a version or of the disk, read
// without ever holding a large file whole.

/** Reads from the start of an open file until `limit` bytes or its end. */
export function readFileHead(fd: number, limit: number): Buffer {
  const buffer = Buffer.allocUnsafe(limit);
  let filled = 0;
  while (filled < limit) {
    const n = readSync(fd, buffer, filled, limit - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}
