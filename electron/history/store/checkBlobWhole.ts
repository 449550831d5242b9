import { checkedBlobChunks } from './blobCopies.js';
import type { BlobPlace, BlobSubject } from './blobDamage.js';

// A reader that cannot take back what it handed on (the CLI's show writing to a pipe or a file)
// checks the whole blob first: every chunk of a chunked one against its name, and the whole
// against the blob's name, before a first byte goes out. Damage anywhere is then one typed error
// (BLOB_CORRUPT or BLOB_MISSING, naming the version) with nothing written, never megabytes of a
// version followed by an error. A blob the stream holds whole before handing it on (compressed, or
// at most one piece) needs no look first: the stream (blobCopies.ts) checks it before its first byte.

const PIECE = 1024 * 1024;

/** Whether a stream of a blob of `size` bytes could hand bytes on before its hash was checked. */
export function streamsBeforeChecked(size: number): boolean {
  return size > PIECE;
}

/** Reads every byte of a blob and checks it; throws the reader's typed error on damage, hands nothing on. */
export function checkBlobWhole(place: BlobPlace, hash: string, size: number, subject?: BlobSubject): void {
  for (const piece of checkedBlobChunks(place, hash, size, PIECE, subject)) void piece;
}
