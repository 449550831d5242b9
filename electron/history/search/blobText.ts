import { isHindsightError } from '../../../shared/errors.js';
import type { BlobTextState } from '../db/historyIndex.js';
import { readBlobHead } from '../store/blobReader.js';
import { textContents } from '../textContents.js';

// A stored blob's text for the search, read through the one blob reader: its state as the index
// records it (text, binary, not UTF-8, or unreadable: missing or damaged), never a crash.

export type BlobText = { state: 'text'; text: string } | { state: Exclude<BlobTextState, 'text'> };

export function readBlobText(blobsDir: string, hash: string, size: number): BlobText {
  let bytes: Buffer;
  try {
    bytes = readBlobHead(blobsDir, hash, size, size);
  } catch (error) {
    if (isHindsightError(error) && (error.code === 'BLOB_MISSING' || error.code === 'BLOB_CORRUPT')) return { state: 'unreadable' };
    throw error;
  }
  const contents = textContents(bytes);
  return contents.kind === 'text' ? { state: 'text', text: contents.text } : { state: contents.kind };
}
