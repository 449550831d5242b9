// The output of one git call, kept in chunks that never move. A growing buffer that doubles copies
// everything it holds at every step and leaves the old arrays as garbage, and a final join copies
// it once more: 3 to 5 times the output at the peak. Here each new chunk is a quarter of what is
// held (64 bytes to 8 MiB, or the rest of the write when that is larger), so the unused tail of
// the last chunk stays within a quarter of the output, and the join copies each byte once into a
// buffer of exactly the output's size: about 2 times the output at the peak.
//
// Bytes, not a JS string: git prints paths and blob contents as bytes, and V8 cannot adopt bytes
// as a string without one more copy, so parsers decode field by field from the joined buffer.

export const MIN_CHUNK = 64;
export const MAX_CHUNK = 8 * 1024 * 1024;

/** What the buffer allocated: every chunk and the join. Tests bound it; nothing else reads it. */
export interface OutputAllocations {
  count: number;
  bytes: number;
}

export class ChunkedOutput {
  private chunks: Buffer[] = [];
  /** Bytes used in the last chunk. */
  private used = 0;
  private held = 0;
  private refused = false;
  private scratch: Buffer | undefined;
  readonly allocations: OutputAllocations = { count: 0, bytes: 0 };

  /** @param allowance the most bytes kept; a write past it is cut and the rest refused. */
  constructor(readonly allowance: number = Number.MAX_SAFE_INTEGER) {}

  /** Bytes kept so far. */
  get size(): number {
    return this.held;
  }

  get chunkCount(): number {
    return this.chunks.length;
  }

  /** Whether some output was refused because it went past the allowance. */
  get overflowed(): boolean {
    return this.refused;
  }

  /** The unused tail of the last chunk. */
  get spare(): number {
    const last = this.chunks.at(-1);
    return last ? last.length - this.used : 0;
  }

  /**
   * Keeps what fits in the allowance. Returns false when part of the write was refused: the
   * output counts once, so what was kept stays kept and the caller stops the writer.
   */
  write(bytes: Uint8Array): boolean {
    const take = Math.min(bytes.length, Math.max(this.allowance - this.held, 0));
    let offset = 0;
    while (offset < take) {
      let last = this.chunks.at(-1);
      if (last === undefined || this.used === last.length) last = this.addChunk(take - offset);
      const n = Math.min(last.length - this.used, take - offset);
      last.set(bytes.subarray(offset, offset + n), this.used);
      this.used += n;
      this.held += n;
      offset += n;
    }
    if (take < bytes.length) this.refused = true;
    return !this.refused;
  }

  /**
   * Room for the next read to land in directly, with no copy: the free tail of the last chunk, or
   * a new chunk sized for a read of `wanted` bytes. Past the allowance, a scratch region whose
   * bytes commit() refuses.
   */
  space(wanted: number): Buffer {
    const last = this.chunks.at(-1);
    if (last !== undefined && this.used < last.length) return last.subarray(this.used);
    if (this.held >= this.allowance) return (this.scratch ??= this.allocate(MIN_CHUNK));
    return this.addChunk(wanted);
  }

  /** Keeps `n` bytes read into the region space() gave last; false once output was refused. */
  commit(n: number): boolean {
    if (n > 0 && this.held >= this.allowance) this.refused = true;
    if (!this.refused) {
      this.used += n;
      this.held += n;
    }
    return !this.refused;
  }

  /**
   * The output as one buffer of exactly its size. The chunks are copied once and let go; a second
   * call returns the same buffer. One chunk is returned as a view, with no copy at all.
   */
  join(): Buffer {
    if (this.held === 0) return Buffer.alloc(0);
    // One chunk mostly used is returned as a view; one mostly empty (a read-sized chunk holding a
    // short answer) is copied, so a 41-byte answer does not pin 64 KiB.
    if (this.chunks.length === 1 && this.spare <= this.used) return this.chunks[0]!.subarray(0, this.used);
    const joined = this.allocate(this.held);
    let at = 0;
    for (const chunk of this.chunks) {
      const n = Math.min(chunk.length, this.held - at);
      joined.set(n === chunk.length ? chunk : chunk.subarray(0, n), at);
      at += n;
    }
    this.chunks = [joined];
    this.used = this.held;
    return joined;
  }

  private addChunk(rest: number): Buffer {
    const quarter = Math.min(Math.max(this.held >>> 2, MIN_CHUNK), MAX_CHUNK);
    // Never more than the allowance still admits: a chunk past it could never be filled.
    const size = Math.min(Math.max(quarter, rest), this.allowance - this.held);
    const chunk = this.allocate(size);
    this.chunks.push(chunk);
    this.used = 0;
    return chunk;
  }

  private allocate(size: number): Buffer {
    this.allocations.count++;
    this.allocations.bytes += size;
    // Unpooled: a pooled slice would pin an 8 KiB slab, and its own memory is freed on its own.
    return Buffer.allocUnsafeSlow(size);
  }
}
