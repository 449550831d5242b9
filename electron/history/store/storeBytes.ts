import { closeSync, fchmodSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import { compressBlob } from './blobCodec.js';
import { isStored, openBlobTemp, placeBlobFile } from './blobFiles.js';
import { dropTemp, type PlaceStats } from './placeBlob.js';

// Filing bytes already in memory (a small file read once, a link target, bytes fetched or
// restored from git): hashed raw (the blob's name is the SHA-256 of its raw bytes), compressed
// when that pays (blobCodec.ts), written to a temp beside the blob, made 0600 (a file's own mode
// is kept in its version row, never on the blob), closed and renamed into place. On the copy
// workers this is where compression runs: the bytes are in memory once anyway, and the workers
// are the threads beside the history process's event loop.

/** The hashes to write again (a Set, or every hash while damage is known: fileInChunks.ts). */
export interface HashSet {
  has(hash: string): boolean;
}

export function storeBytes(
  bytes: Uint8Array,
  blobsDir: string,
  counters?: PlaceStats,
  exactCreateMode = false,
  rewrite?: HashSet,
  known?: Set<string>,
): { hash: string; created: boolean; repaired: boolean } {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const repaired = rewrite?.has(hash) ?? false;
  if (!repaired && isStored(blobsDir, hash, known)) return { hash, created: false, repaired };
  const compressed = compressBlob(bytes);
  const { temp, fd } = openBlobTemp(blobsDir, hash, counters);
  try {
    writeAll(fd, compressed ?? bytes);
    // The open applied the umask; a blob is 0600 whatever the umask (one call saved per file
    // when the umask is known to leave it so).
    if (!exactCreateMode) fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    closeSync(fd);
    dropTemp(temp);
    throw error;
  }
  closeSync(fd);
  try {
    placeBlobFile(temp, blobsDir, hash, compressed ? 'compressed' : 'raw', counters, repaired);
  } catch (error) {
    dropTemp(temp);
    throw error;
  }
  known?.add(hash);
  return { hash, created: true, repaired };
}

export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
