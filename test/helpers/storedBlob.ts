import { existsSync, readFileSync } from 'node:fs';
import { decompressBlob } from '../../electron/history/codec/blobCodec.js';
import { decodeChunkList } from '../../electron/history/store/chunkList.js';
import { blobPath, chunkListPath, compressedBlobPath } from '../../electron/history/store/storeLayout.js';

// A stored blob as a test looks at it on disk, whichever form it is kept in (raw, compressed with
// the name <hash>.zst, or a chunk list <hash>.chunks naming blobs of their own): the file, and the
// raw bytes it holds, read without the store's own hash check so a test can compare them itself.

/** The file holding `hash`: the chunk list or compressed one when there is one, else the raw one (which may not exist). */
export function blobFile(blobsDir: string, hash: string): string {
  const list = chunkListPath(blobsDir, hash);
  if (existsSync(list)) return list;
  const compressed = compressedBlobPath(blobsDir, hash);
  return existsSync(compressed) ? compressed : blobPath(blobsDir, hash);
}

/** The raw bytes the blob's file holds (a compressed one inflated, a chunk list's chunks put together). */
export function blobBytes(blobsDir: string, hash: string): Buffer {
  const file = blobFile(blobsDir, hash);
  if (file.endsWith('.chunks')) return Buffer.concat(chunksOf(blobsDir, hash).map((chunk) => blobBytes(blobsDir, chunk)));
  return file.endsWith('.zst') ? decompressBlob(readFileSync(file)) : readFileSync(file);
}

/** The chunk hashes a chunked blob's list names, in order (none for a blob stored whole). */
export function chunksOf(blobsDir: string, hash: string): string[] {
  const list = chunkListPath(blobsDir, hash);
  return existsSync(list) ? decodeChunkList(readFileSync(list)).map((c) => c.hash) : [];
}
