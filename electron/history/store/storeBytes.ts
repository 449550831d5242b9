import { closeSync, fchmodSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { PRIVATE_FILE_MODE } from '../privateModes.js';
import { compressBlobLent, formToKeep } from '../codec/blobCodec.js';
import { hasBlob, isStored, openBlobTemp, placeBlobFile } from './blobFiles.js';
import { dropTemp, type PlaceStats } from './placeBlob.js';
import type { BlobForm } from './storeLayout.js';

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
): StoredBytes {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const repaired = rewrite?.has(hash) ?? false;
  if (!repaired && isStored(blobsDir, hash, known)) return { hash, created: false, repaired, stored: undefined };
  // Lent from this thread's context: written before anything else is compressed.
  const compressed = compressBlobLent(bytes);
  writeBlobFile(blobsDir, hash, compressed ?? bytes, compressed ? 'compressed' : 'raw', { counters, exactCreateMode, replacing: repaired });
  known?.add(hash);
  return { hash, created: true, repaired, stored: (compressed ?? bytes).length };
}

/**
 * Files a blob that arrived compressed (a remote pack's zstd entry): `raw` its bytes and `stored`
 * the compressed form they were inflated from, checked already (blobCodec.checkCompressedForm).
 * Kept as it came where this store keeps a blob of its size compressed, so nothing is
 * compressed again; raw otherwise. A blob already stored is kept.
 */
export function storeCompressedForm(raw: Buffer, stored: Buffer, blobsDir: string): StoredBytes {
  const kept = formToKeep(raw, stored);
  if (kept.form === 'raw') return storeBytes(raw, blobsDir);
  const hash = createHash('sha256').update(raw).digest('hex');
  if (hasBlob(blobsDir, hash)) return { hash, created: false, repaired: false, stored: undefined };
  writeBlobFile(blobsDir, hash, kept.bytes, kept.form);
  return { hash, created: true, repaired: false, stored: kept.bytes.length };
}

/**
 * Writes a blob's file in `form` from `bytes` already checked against `hash`: a temp beside it,
 * 0600, renamed into place. `replacing`: a file of the other form under that hash is removed
 * after the rename (a blob rewritten after damage, or compacted), so one form is left.
 */
export function writeBlobFile(
  blobsDir: string,
  hash: string,
  bytes: Uint8Array,
  form: BlobForm,
  options: { counters?: PlaceStats; exactCreateMode?: boolean; replacing?: boolean; beforeRename?: () => void } = {},
): void {
  const { temp, fd } = openBlobTemp(blobsDir, hash, options.counters);
  try {
    writeAll(fd, bytes);
    // The open applied the umask; a blob is 0600 whatever the umask (one call saved per file
    // when the umask is known to leave it so).
    if (!options.exactCreateMode) fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    closeSync(fd);
    dropTemp(temp);
    throw error;
  }
  closeSync(fd);
  try {
    options.beforeRename?.();
    placeBlobFile(temp, blobsDir, hash, form, options.counters, options.replacing);
  } catch (error) {
    dropTemp(temp);
    throw error;
  }
}

export interface StoredBytes {
  hash: string;
  /** This call placed the blob (false: the same bytes were already stored). */
  created: boolean;
  /** The blob placed replaced one found missing or damaged. */
  repaired: boolean;
  /** The placed file's bytes on disk (what the index records as stored_size); undefined when nothing was placed. */
  stored: number | undefined;
}

export function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
