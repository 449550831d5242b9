import { closeSync, existsSync, fstatSync, readSync, rmSync, statSync } from 'node:fs';
import { openIfPresent } from '../openIfPresent.js';
import { createHash } from 'node:crypto';
import { faultPoint } from '../faultPoint.js';
import { compressBlob } from '../codec/blobCodec.js';
import { blobFilePath } from './storeLayout.js';
import { writeBlobFile } from './storeBytes.js';
import type { BlobStore } from './blobStore.js';

// Compaction's part of the blob store (compact/ runs it): a raw blob written before blobs were
// compressed, or filed raw as a large file, is looked at (on the compaction thread: reading,
// the hash check and compression are the costly part) and, where compression pays, written
// again in the compressed form (by the project's writer: a temp, renamed, then the raw file
// removed). The blob's name stays the SHA-256 of its raw bytes, which are hashed here before
// anything is written: damaged bytes are never compressed under a good name.

/** What a look at one blob found. */
export type CompactLook =
  /** Raw and worth compressing: the compressed form (header and frame) to write. */
  | { hash: string; kind: 'convert'; bytes: Uint8Array }
  /** Raw, and compressing it would not save enough: it stays raw (its stored size is its size). */
  | { hash: string; kind: 'keep' }
  /** Already compressed (a run killed after its rename, or a writer that compressed it): its file's bytes; `rawLeft` a raw file still beside it. */
  | { hash: string; kind: 'compressed'; stored: number; rawLeft: boolean }
  /** No file here (a clone's older versions, or a blob already reported missing): left alone. */
  | { hash: string; kind: 'absent' }
  /** Its bytes are not those of its name (or not of its recorded length): left for verify --repair. */
  | { hash: string; kind: 'damaged'; why: string };

/** Looks at one blob of `size` raw bytes, as recorded by the index; reads and compresses, writes nothing. */
export function lookForCompaction(blobs: BlobStore, hash: string, size: number): CompactLook {
  const compressedFile = blobFilePath(blobs.dir, hash, 'compressed');
  const compressed = fileSize(compressedFile);
  if (compressed !== undefined) return { hash, kind: 'compressed', stored: compressed, rawLeft: existsSync(blobFilePath(blobs.dir, hash, 'raw')) };
  const raw = readRaw(blobFilePath(blobs.dir, hash, 'raw'), size);
  if (raw === undefined) return { hash, kind: 'absent' };
  if (typeof raw === 'string') return { hash, kind: 'damaged', why: raw };
  if (createHash('sha256').update(raw).digest('hex') !== hash) return { hash, kind: 'damaged', why: 'its bytes no longer match its hash' };
  const bytes = compressBlob(raw);
  return bytes ? { hash, kind: 'convert', bytes } : { hash, kind: 'keep' };
}

/** Writes the compressed form of a blob looked at, then removes its raw file; answers the compressed file's bytes. */
export function placeCompacted(blobs: BlobStore, hash: string, bytes: Uint8Array): number {
  writeBlobFile(blobs.dir, hash, bytes, 'compressed', { replacing: true, beforeRename: () => faultPoint('compact-temp-written') });
  faultPoint('compact-placed');
  return bytes.length;
}

/** Removes the raw file left beside a compressed one (a run killed between the rename and the removal). */
export function removeRawLeft(blobs: BlobStore, hash: string): void {
  rmSync(blobFilePath(blobs.dir, hash, 'raw'), { force: true });
}

function fileSize(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A raw blob's bytes; undefined when there is no file; a reason when its length is not the recorded one. */
function readRaw(file: string, size: number): Buffer | string | undefined {
  const fd = openIfPresent(file);
  if (fd === undefined) return undefined;
  try {
    const found = fstatSync(fd).size;
    if (found !== size) return `${found} bytes where ${size} were stored`;
    const bytes = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const read = readSync(fd, bytes, offset, size - offset, offset);
      if (read === 0) return `it ended after ${offset} of ${size} bytes`;
      offset += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}
