import { readFileSync } from 'node:fs';

// The user_version a write-ahead log holds, read from its bytes (sqlite.org/fileformat.html, "The
// Write-Ahead Log"), so a store can be judged without SQLite opening it: even a read-only
// connection writes its read marks into the -shm file. The newest committed copy of page 1 (the
// database header) in the log wins; frames count only while their salts match the log's header
// and their running checksum holds, as SQLite itself reads them. undefined: the log holds no
// committed page 1 (the main file's header is current).

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const USER_VERSION_OFFSET = 60;

export function walUserVersion(walFile: string): number | undefined {
  let wal: Buffer;
  try {
    wal = readFileSync(walFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (wal.length < WAL_HEADER) return undefined;
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return undefined;
  const bigEndian = magic === 0x377f0683;
  const pageSize = wal.readUInt32BE(8) === 1 ? 65536 : wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let sums = checksum(wal, 0, 24, [0, 0], bigEndian);
  if (sums[0] !== wal.readUInt32BE(24) || sums[1] !== wal.readUInt32BE(28)) return undefined;

  let committed: number | undefined;
  let pending: number | undefined;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    sums = checksum(wal, at, 8, sums, bigEndian);
    sums = checksum(wal, at + FRAME_HEADER, pageSize, sums, bigEndian);
    if (sums[0] !== wal.readUInt32BE(at + 16) || sums[1] !== wal.readUInt32BE(at + 20)) break;
    if (wal.readUInt32BE(at) === 1) pending = wal.readUInt32BE(at + FRAME_HEADER + USER_VERSION_OFFSET);
    // A frame with a database size after it ends a transaction: what it wrote is committed.
    if (wal.readUInt32BE(at + 4) !== 0 && pending !== undefined) committed = pending;
  }
  return committed;
}

/** SQLite's WAL checksum: two 32-bit running sums over pairs of words of the given byte order. */
function checksum(bytes: Buffer, start: number, length: number, [s0, s1]: [number, number], bigEndian: boolean): [number, number] {
  for (let i = start; i < start + length; i += 8) {
    const x0 = bigEndian ? bytes.readUInt32BE(i) : bytes.readUInt32LE(i);
    const x1 = bigEndian ? bytes.readUInt32BE(i + 4) : bytes.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}
