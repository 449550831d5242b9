import { MAX_CHUNK, MIN_CHUNK } from '../codec/fastCdc.js';

// The stored form of a chunked blob (a file longer than CHUNK_FROM): a list naming its chunks in
// order. The file is `<sha256 of the raw bytes>.chunks` (storeLayout.ts); each chunk is an
// ordinary blob of its own, named by the SHA-256 of its bytes, kept raw or compressed like any
// other (blobCodec.ts), and shared by every list that names it.
//
// Layout: a 16-byte header (the magic `hcdc`, the chunk count as an unsigned 32-bit big-endian
// integer, the raw length as an unsigned 64-bit one), then per chunk its SHA-256 (32 bytes) and
// its raw length (unsigned 32-bit). A 20 MiB file takes about 20 entries: well under a block.
// Decoding is bounded: a list that cannot be what its header says (a count no file of that length
// could have, lengths that do not add up) is refused before any chunk is read.

const MAGIC = Buffer.from('hcdc', 'latin1');
export const CHUNK_LIST_HEADER = 16;
const HEADER = CHUNK_LIST_HEADER;
const ENTRY = 36;

/** Files longer than this are stored in chunks; shorter ones whole (docs/PERFORMANCE.md, "Chunked large files"). */
export const CHUNK_FROM = 1024 * 1024;

export interface ChunkRef {
  hash: string;
  size: number;
}

export function encodeChunkList(chunks: readonly ChunkRef[]): Buffer {
  const total = chunks.reduce((sum, c) => sum + c.size, 0);
  const out = Buffer.allocUnsafe(HEADER + ENTRY * chunks.length);
  MAGIC.copy(out, 0);
  out.writeUInt32BE(chunks.length, 4);
  out.writeBigUInt64BE(BigInt(total), 8);
  chunks.forEach((chunk, i) => {
    out.write(chunk.hash, HEADER + i * ENTRY, 32, 'hex');
    out.writeUInt32BE(chunk.size, HEADER + i * ENTRY + 32);
  });
  return out;
}

/** Why a list cannot be what its name says: the reader turns it into BLOB_CORRUPT. */
export class ChunkListUndecodable extends Error {
  constructor(readonly why: string) {
    super(why);
    this.name = 'ChunkListUndecodable';
  }
}

/** The raw length a list's header records; throws ChunkListUndecodable when it is no header of ours. */
export function chunkListRawLength(header: Buffer): number {
  if (header.length < HEADER || !header.subarray(0, 4).equals(MAGIC)) throw new ChunkListUndecodable('its chunk list has no valid header');
  return Number(header.readBigUInt64BE(8));
}

/** The longest list a file of `rawLength` bytes can have: every chunk but the last is at least MIN_CHUNK. */
export function maxListBytes(rawLength: number): number {
  return HEADER + ENTRY * (Math.floor(rawLength / MIN_CHUNK) + 1);
}

/** The chunks a list names; `expectedSize` (the index's length) must be its raw length when given. */
export function decodeChunkList(stored: Buffer, expectedSize?: number): ChunkRef[] {
  if (stored.length < HEADER || !stored.subarray(0, 4).equals(MAGIC)) throw new ChunkListUndecodable('its chunk list has no valid header');
  const count = stored.readUInt32BE(4);
  const total = Number(stored.readBigUInt64BE(8));
  if (expectedSize !== undefined && total !== expectedSize)
    throw new ChunkListUndecodable(`its chunk list records ${total} bytes where ${expectedSize} were stored`);
  if (stored.length !== HEADER + ENTRY * count || stored.length > maxListBytes(total)) {
    throw new ChunkListUndecodable(`its chunk list is ${stored.length} bytes, which no list of ${total} bytes takes`);
  }
  const chunks: ChunkRef[] = [];
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const at = HEADER + i * ENTRY;
    const size = stored.readUInt32BE(at + 32);
    if (size === 0 || size > MAX_CHUNK) throw new ChunkListUndecodable(`its chunk list names a chunk of ${size} bytes`);
    chunks.push({ hash: stored.toString('hex', at, at + 32), size });
    sum += size;
  }
  if (sum !== total) throw new ChunkListUndecodable(`its chunks add up to ${sum} bytes where the list records ${total}`);
  return chunks;
}
