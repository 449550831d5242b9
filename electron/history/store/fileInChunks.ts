import { createHash } from 'node:crypto';
import { faultPoint } from '../faultPoint.js';
import { count } from '../trace.js';
import { ChunkCutter, MAX_CHUNK } from '../codec/fastCdc.js';
import { encodeChunkList, type ChunkRef } from './chunkList.js';
import { isStored } from './blobFiles.js';
import type { PlaceStats } from './placeBlob.js';
import { storeBytes, writeBlobFile, type HashSet } from './storeBytes.js';

// Filing a large file (longer than chunkList.CHUNK_FROM) as content-defined chunks: the file is
// read in pieces and cut as it is read (fastCdc.ts), each chunk filed as a blob of its own as soon
// as its end is known (storeBytes.ts: hashed, compressed when that pays, temp, rename; a chunk
// already stored is not written again), and the whole file hashed on the way. Then the list
// naming the chunks is written under the whole file's hash (`<hash>.chunks`): temp, rename. At
// most one chunk (4 MiB) and one read piece are held, whatever the file's length, in buffers
// the thread keeps from one file to the next.
//
// A file that makes one chunk only is that chunk: stored whole like a smaller file, no list.
//
// Killed midway, a filing leaves chunks no list names yet, or a list the index does not name yet:
// neither is read by anyone, and the next filing of those bytes finishes them (a chunk or list
// not in the index's known set is written again over itself; the index's rows come with it).

export interface ChunkedFiling {
  hash: string;
  size: number;
  created: boolean;
  repaired: boolean;
  /**
   * Bytes on disk this filing placed: the list and the chunks no earlier filing had (a chunk
   * shared with an earlier version counts for the version that placed it); undefined when the
   * blob was stored already.
   */
  stored?: number;
  /** The chunks, in order; undefined when the file made one chunk and is stored whole. */
  chunks?: ChunkRef[];
}

export interface ChunkedOptions {
  /** Hashes found missing or damaged: written again even though a file of that name exists. */
  rewrite?: ReadonlySet<string>;
  known?: Set<string>;
  exactCreateMode?: boolean;
  /** Asked between pieces: true stops the filing (its chunks already placed are harmless, see above). */
  cancelled: () => boolean;
}

const PIECE = 1024 * 1024;

// The chunk being cut and the piece being read, kept by this thread for every large file it files
// (a filing is synchronous, so one at a time): made per file, 5 MiB each time were garbage that V8
// collects only once 64 MiB more of it is outside its heap. Trace counter `store.chunkBuffersMade`.
let buffers: { held: Buffer; piece: Buffer } | undefined;

function keptBuffers(): { held: Buffer; piece: Buffer } {
  if (!buffers) {
    count('store.chunkBuffersMade');
    buffers = { held: Buffer.allocUnsafe(MAX_CHUNK), piece: Buffer.allocUnsafe(PIECE) };
  }
  return buffers;
}
// While any damage is known, every chunk is written anew: a damaged chunk's name cannot be
// trusted, and which list a chunk belongs to is known only once the whole file is read.
const EVERY: HashSet = { has: () => true };

/** Files the bytes `read` yields (pieces into the buffer given, 0 at the end) as chunks and their list. */
export function fileInChunks(
  read: (buffer: Buffer) => number,
  blobsDir: string,
  options: ChunkedOptions,
  counters: PlaceStats,
  onCancel: () => Error,
): ChunkedFiling {
  const whole = createHash('sha256');
  const chunks: ChunkRef[] = [];
  let first: { hash: string; created: boolean; repaired: boolean; stored: number | undefined } | undefined;
  let placed = 0;
  const rewriteChunks = (options.rewrite?.size ?? 0) > 0 ? EVERY : undefined;
  const { held, piece: buffer } = keptBuffers();
  const cutter = new ChunkCutter((chunk) => {
    const filed = storeBytes(chunk, blobsDir, counters, options.exactCreateMode, rewriteChunks, options.known);
    first ??= filed;
    placed += filed.stored ?? 0;
    chunks.push({ hash: filed.hash, size: chunk.length });
  }, held);
  let size = 0;
  for (;;) {
    if (options.cancelled()) throw onCancel();
    const n = read(buffer);
    if (n === 0) break;
    const piece = buffer.subarray(0, n);
    whole.update(piece);
    cutter.push(piece);
    size += n;
  }
  cutter.end();
  const hash = whole.digest('hex');
  if (chunks.length === 1) return { hash, size, created: first!.created, repaired: first!.repaired, stored: first!.stored };
  faultPoint('chunks-placed');
  const repaired = options.rewrite?.has(hash) ?? false;
  if (!repaired && isStored(blobsDir, hash, options.known)) return { hash, size, created: false, repaired, chunks };
  const list = encodeChunkList(chunks);
  writeBlobFile(blobsDir, hash, list, 'chunked', { counters, exactCreateMode: options.exactCreateMode, replacing: repaired });
  options.known?.add(hash);
  faultPoint('list-placed');
  return { hash, size, created: true, repaired, stored: placed + list.length, chunks };
}
