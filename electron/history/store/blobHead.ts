import { closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { ChunkRef } from './chunkList.js';
import { damaged, type BlobPlace, type BlobSubject } from './blobDamage.js';
import { chunkBytes, chunkedPieces, digestFrom, fileIdentity, openBlob, PIECE, readFully } from './openBlob.js';

/**
 * At most `limit` bytes from the start of a blob, checked: a head that is the whole blob is
 * hashed as it is; a longer blob is hashed to its end once per process and file identity (a
 * 4 GiB video's preview costs one pass, not one per look).
 */
export function readBlobHead(place: BlobPlace, hash: string, limit: number, expectedSize?: number, subject?: BlobSubject): Buffer {
  const opened = openBlob(place, hash, expectedSize, subject);
  if (opened.form === 'compressed') return opened.bytes.length > limit ? Buffer.from(opened.bytes.subarray(0, limit)) : opened.bytes;
  if (opened.form === 'chunked') return chunkedHead(place, hash, opened, limit, subject);
  const { fd, size } = opened;
  try {
    const head = readFully(fd, Buffer.allocUnsafe(Math.min(limit, size)));
    const identity = fileIdentity(fd);
    if (checkedWhole.get(`${place.dir}/${hash}`) !== identity) {
      const digest = createHash('sha256').update(head);
      digestFrom(fd, head.length, digest, hashPiece());
      if (digest.digest('hex') !== hash) throw damaged(place, hash, 'corrupt', undefined, subject);
      if (size > limit) remember(`${place.dir}/${hash}`, identity);
    }
    return head;
  } finally {
    closeSync(fd);
  }
}

/** The head of a chunked blob: every chunk read and checked once per list file (as a raw blob's rest is hashed once). */
function chunkedHead(place: BlobPlace, hash: string, opened: { chunks: ChunkRef[]; identity: string }, limit: number, subject?: BlobSubject): Buffer {
  const key = `${place.dir}/${hash}`;
  const whole = checkedWhole.get(key) !== opened.identity;
  const parts: Buffer[] = [];
  let length = 0;
  const chunks = whole ? opened.chunks : headChunks(opened.chunks, limit);
  const pieces = whole ? chunkedPieces(place, hash, chunks, subject) : chunks.map((chunk) => chunkBytes(place, hash, chunk, subject));
  for (const piece of pieces) {
    if (length >= limit) continue; // read on only to check the whole blob
    const part = piece.subarray(0, limit - length);
    parts.push(part);
    length += part.length;
  }
  if (whole) remember(key, opened.identity);
  return Buffer.concat(parts);
}

/** The chunks a head of `limit` bytes needs. */
function headChunks(chunks: readonly ChunkRef[], limit: number): ChunkRef[] {
  const needed: ChunkRef[] = [];
  let covered = 0;
  for (const chunk of chunks) {
    if (covered >= limit) break;
    needed.push(chunk);
    covered += chunk.size;
  }
  return needed;
}

// The piece a head read hashes the rest of its blob through, kept: a head that is the whole blob
// (most of them) reads nothing into it, and a 1 MiB buffer allocated per read cost more than the read itself.
// Reads are synchronous, so one buffer serves every one.
let rest: Buffer | undefined;
function hashPiece(): Buffer {
  return (rest ??= Buffer.allocUnsafe(PIECE));
}

// Blobs longer than a head that were hashed whole, by file identity: a blob is written once and
// renamed into place, so a new inode, size or change time means it must be checked again.
const checkedWhole = new Map<string, string>();
const CHECKED_WHOLE_LIMIT = 4096;

function remember(key: string, identity: string): void {
  checkedWhole.delete(key);
  checkedWhole.set(key, identity);
  if (checkedWhole.size > CHECKED_WHOLE_LIMIT) checkedWhole.delete(checkedWhole.keys().next().value!);
}
