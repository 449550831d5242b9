import { existsSync, readFileSync } from 'node:fs';
import { decompressBlob } from '../../electron/history/store/blobCodec.js';
import { blobPath, compressedBlobPath } from '../../electron/history/store/storeLayout.js';

// A stored blob as a test looks at it on disk, whichever form it is kept in (raw, or compressed
// with the name <hash>.zst): the file, and the raw bytes it holds, read without the store's own
// hash check so a test can compare them itself.

/** The file holding `hash`: the compressed one when there is one, else the raw one (which may not exist). */
export function blobFile(blobsDir: string, hash: string): string {
  const compressed = compressedBlobPath(blobsDir, hash);
  return existsSync(compressed) ? compressed : blobPath(blobsDir, hash);
}

/** The raw bytes the blob's file holds (a compressed one inflated, bounded by its recorded length). */
export function blobBytes(blobsDir: string, hash: string): Buffer {
  const file = blobFile(blobsDir, hash);
  return file.endsWith('.zst') ? decompressBlob(readFileSync(file)) : readFileSync(file);
}
