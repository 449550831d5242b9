import { isHindsightError } from '../../../shared/errors.js';
import type { BlobTextState } from '../db/historyIndex.js';
import { type ReadScratch } from '../store/blobWhole.js';
import { textContents } from '../textContents.js';
import type { BlobStore } from '../store/blobStore.js';

// A stored blob's text for the search, read through the one blob reader: its state as the index
// records it (text, binary, not UTF-8, or unreadable: missing or damaged), never a crash. The
// bytes go through one scratch buffer (the search and the index build read thousands of blobs in
// a row and keep only the decoded text): reads are synchronous, so nothing else uses it meanwhile.

export type BlobText = { state: 'text'; text: string } | { state: Exclude<BlobTextState, 'text'> };

const scratch: ReadScratch = { buffer: Buffer.allocUnsafe(64 * 1024) };

export function readBlobText(blobs: BlobStore, hash: string, size: number): BlobText {
  const bytes = readBlobBytes(blobs, hash, size);
  if (bytes === null) return { state: 'unreadable' };
  const contents = textContents(bytes);
  return contents.kind === 'text' ? { state: 'text', text: contents.text } : { state: contents.kind };
}

/** A stored blob's bytes, checked, valid until the next read (one scratch buffer); null when it is missing or damaged. */
export function readBlobBytes(blobs: BlobStore, hash: string, size: number): Buffer | null {
  try {
    return blobs.whole(hash, size, scratch);
  } catch (error) {
    if (isHindsightError(error) && (error.code === 'BLOB_MISSING' || error.code === 'BLOB_CORRUPT')) return null;
    throw error;
  }
}
