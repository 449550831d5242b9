import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, inflateRawSync } from 'node:zlib';
import * as z from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import { BLOB_HASH } from '../../../shared/blobHash.js';
import { BlobUndecodable, checkCompressedForm } from '../codec/blobCodec.js';
import { count } from '../trace.js';

// A pack: many small blobs in one object, so a few thousand source files cost a few PUTs, not a
// few thousand. Layout: the blobs' stored bytes one after another, then a trailer (JSON: each
// blob's hash, offset, stored length, size and encoding), then 8 bytes: the trailer's length
// (uint32, big-endian) and the magic "HSP1". The trailer makes a pack readable without any index;
// the index objects (indexFormat.ts) repeat it so a clone can fetch one blob by a range GET.
// A blob is stored compressed (Brotli at quality 1) when that saves at least an eighth of it, else
// as it is. Packs written before Brotli hold deflated blobs (zlib level 1); readers take both.
// A blob the local store keeps compressed goes as it is kept (encoding `zstd`: the store's
// compressed form, codec/blobCodec.ts), neither inflated nor compressed again, and a fetch keeps
// it in that form. An entry in an encoding this build does not know (a newer Hindsight's) is
// refused when it is read, typed, and the rest of the pack stays readable.

export const PACK_TARGET_BYTES = 16 * 1024 * 1024;
const MAGIC = Buffer.from('HSP1', 'latin1');
const FOOTER = 8;
/**
 * Brotli at quality 1: on source text 1.7-1.9x as fast as deflate at level 1 (the pack's
 * largest cost in a push) for about 8% more bytes, which cost far less to upload than the time saved.
 */
const BROTLI_QUALITY = 1;

export type BlobEncoding = 'raw' | 'deflate' | 'brotli' | 'zstd';
/** The encodings this build reads; any other is read as `unknown` and refused when its blob is. */
const ENCODINGS = ['raw', 'deflate', 'brotli', 'zstd'] as const;

/** Where one blob sits in a pack: [hash, offset, stored length, size, encoding]. */
export type PackEntry = [hash: string, offset: number, length: number, size: number, encoding: BlobEncoding | 'unknown'];

export const packEntrySchema = z.tuple([
  z.string().regex(BLOB_HASH),
  z.number().int().nonnegative(),
  z.number().int().nonnegative(),
  z.number().int().nonnegative(),
  // An encoding of a newer build does not make the pack or its index unreadable: only its blob is.
  z.enum(ENCODINGS).or(
    z
      .string()
      .max(64)
      .transform((): 'unknown' => 'unknown'),
  ),
]);

const trailerSchema = z.object({ format: z.literal(1), blobs: z.array(packEntrySchema) });

export interface BuiltPack {
  body: Buffer;
  /** SHA-256 of body: the pack's name. */
  hash: string;
  entries: PackEntry[];
  /** Sum of the blobs' sizes (before deflate). */
  blobBytes: number;
}

/** A blob the local store keeps compressed, as a pack stores it: its compressed form as it is kept. */
export function carriedForm(compressed: Buffer): StoredBlob {
  return { bytes: compressed, encoding: 'zstd' };
}

/** A blob as a pack stores it. */
export interface StoredBlob {
  bytes: Buffer;
  encoding: Exclude<BlobEncoding, 'deflate'>;
}

/**
 * A raw blob's stored form: Brotli when that saves at least an eighth of it, else the bytes as
 * they are. Counts each Brotli run as `remote.packCompressions`.
 */
export function storedForm(bytes: Buffer): StoredBlob {
  if (bytes.length >= 64) count('remote.packCompressions');
  const packed = bytes.length >= 64 ? brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : undefined;
  return packed !== undefined && packed.length <= bytes.length - bytes.length / 8 ? { bytes: packed, encoding: 'brotli' } : { bytes, encoding: 'raw' };
}

export class PackBuilder {
  private readonly chunks: Buffer[] = [];
  private readonly entries: PackEntry[] = [];
  private stored = 0;
  private raw = 0;

  get storedBytes(): number {
    return this.stored;
  }

  get blobCount(): number {
    return this.entries.length;
  }

  /** Adds a blob whose bytes were already checked against `hash`. */
  add(hash: string, bytes: Buffer): void {
    this.addStored(hash, storedForm(bytes), bytes.length);
  }

  /** Adds a blob already in its stored form (storedForm, made on another thread). */
  addStored(hash: string, stored: StoredBlob, size: number): void {
    this.entries.push([hash, this.stored, stored.bytes.length, size, stored.encoding]);
    this.chunks.push(stored.bytes);
    this.stored += stored.bytes.length;
    this.raw += size;
  }

  finish(): BuiltPack {
    const trailer = Buffer.from(JSON.stringify({ format: 1, blobs: this.entries }), 'utf8');
    const footer = Buffer.alloc(FOOTER);
    footer.writeUInt32BE(trailer.length, 0);
    MAGIC.copy(footer, 4);
    const body = Buffer.concat([...this.chunks, trailer, footer]);
    return { body, hash: sha256(body), entries: this.entries, blobBytes: this.raw };
  }
}

/** The entries a pack's own trailer lists (for checking or rebuilding an index). */
export function readPackTrailer(body: Buffer): PackEntry[] {
  if (body.length < FOOTER || !body.subarray(body.length - 4).equals(MAGIC)) throw corrupt('it has no pack footer');
  const length = body.readUInt32BE(body.length - FOOTER);
  if (length > body.length - FOOTER) throw corrupt('its trailer length is out of range');
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.subarray(body.length - FOOTER - length, body.length - FOOTER).toString('utf8'));
  } catch {
    throw corrupt('its trailer is not JSON');
  }
  const trailer = trailerSchema.safeParse(parsed);
  if (!trailer.success) throw corrupt('its trailer does not list blobs');
  return trailer.data.blobs;
}

/**
 * A blob's bytes from its stored form (the range of the pack the entry names), checked against
 * its hash: whatever the server returns, only the exact bytes ever come out of here. A zstd
 * entry (the sender's compressed form) is inflated no further than its size; its checked form
 * can be kept as it is (fetch/storeSink.ts).
 */
export function unpackBlob(stored: Buffer, entry: PackEntry): Buffer {
  const [hash, , length, size, encoding] = entry;
  if (stored.length !== length) throw blobCorrupt(hash, `${stored.length} bytes came back where ${length} were stored`);
  if (encoding === 'unknown') {
    throw new HindsightError(
      'REMOTE_FAILED',
      `The remote copy of ${hash.slice(0, 12)}… is stored in an encoding this Hindsight does not read (a newer Hindsight wrote it); update Hindsight to fetch it.`,
      { hash },
    );
  }
  if (encoding === 'zstd') return unpackCompressed(stored, hash, size);
  let bytes: Buffer;
  try {
    bytes = expand(stored, encoding, size);
  } catch {
    throw blobCorrupt(hash, 'its stored bytes do not inflate');
  }
  if (bytes.length !== size || sha256(bytes) !== hash) throw blobCorrupt(hash, 'its bytes do not match their hash');
  return bytes;
}

function unpackCompressed(stored: Buffer, hash: string, size: number): Buffer {
  try {
    return checkCompressedForm(hash, size, stored);
  } catch (error) {
    if (error instanceof BlobUndecodable) throw blobCorrupt(hash, error.why);
    throw error;
  }
}

/** A blob's stored bytes back to its bytes, never producing more than `size` of them. */
function expand(stored: Buffer, encoding: Exclude<BlobEncoding, 'zstd'>, size: number): Buffer {
  const maxOutputLength = Math.max(size, 1);
  if (encoding === 'brotli') return brotliDecompressSync(stored, { maxOutputLength });
  if (encoding === 'deflate') return inflateRawSync(stored, { maxOutputLength });
  return stored;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function blobCorrupt(hash: string, why: string): HindsightError {
  return new HindsightError('REMOTE_CORRUPT', `The remote copy of ${hash.slice(0, 12)}… is damaged (${why}); nothing was written from it.`, { hash });
}

function corrupt(why: string): HindsightError {
  return new HindsightError('REMOTE_CORRUPT', `A pack on the remote is damaged: ${why}.`);
}
