// Content-defined chunking (FastCDC: Xia et al., "FastCDC: a Fast and Efficient Content-Defined
// Chunking Approach for Data Deduplication", USENIX ATC 2016), so that a large file's next version
// shares every chunk its edit did not touch: a cut depends only on the bytes just before it, so an
// insertion or an append moves the cuts near it and no others.
//
// The rolling hash is the gear hash: fp = (fp << 1) + GEAR[byte], 32 bits, so the top bits hold the
// last 32 bytes. A cut is where the masked top bits are all zero. Normalized chunking (level 2): a
// harder mask (two bits more) before the average size and an easier one (two bits fewer) after it
// keeps chunks near the average. No cut is looked for in the first MIN_CHUNK bytes, and a chunk is
// cut at MAX_CHUNK whatever its bytes. Sizes: docs/PERFORMANCE.md, "Chunked large files".
//
// The gear table is made from a fixed seed: the same bytes cut the same way on every machine and in
// every release (a changed table would make every large file's chunks new once).

export const MIN_CHUNK = 256 * 1024;
export const AVG_CHUNK = 1024 * 1024;
export const MAX_CHUNK = 4 * 1024 * 1024;

// Top 22 bits (avg 2^20 << 2) before the average, top 18 bits after it.
const MASK_HARD = 0xfffffc00 | 0;
const MASK_EASY = 0xffffc000 | 0;
const GEAR_SEED = 0x48534344; // "HSCD"

/** 256 pseudo-random 32-bit values (mulberry32 from GEAR_SEED). */
function gearTable(seed: number): Int32Array {
  const table = new Int32Array(256);
  let state = seed >>> 0;
  for (let i = 0; i < 256; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    table[i] = t ^ (t >>> 14);
  }
  return table;
}

const GEAR = gearTable(GEAR_SEED);

/**
 * Cuts a stream of bytes into chunks as the bytes come: pieces are pushed in order, and each chunk
 * is handed to `emit` as soon as its end is known (the bytes lent are valid only during the call:
 * the buffer is reused). At most MAX_CHUNK bytes are held, whatever the file's length.
 */
export class ChunkCutter {
  private length = 0;
  private fp = 0;

  /** `held`: the MAX_CHUNK bytes the chunk being cut is gathered in (a caller may lend one it keeps). */
  constructor(
    private readonly emit: (chunk: Buffer) => void,
    private readonly held: Buffer = Buffer.allocUnsafe(MAX_CHUNK),
  ) {
    if (held.length < MAX_CHUNK) throw new RangeError(`A chunk is gathered in ${MAX_CHUNK} bytes, not ${held.length}.`);
  }

  push(piece: Uint8Array): void {
    let at = 0;
    while (at < piece.length) {
      if (this.length < MIN_CHUNK) {
        // The first MIN_CHUNK bytes of a chunk are never a cut: copied unhashed (the hash only
        // remembers 32 bytes, so those before the first looked at do not matter).
        const n = Math.min(MIN_CHUNK - this.length, piece.length - at);
        this.held.set(piece.subarray(at, at + n), this.length);
        this.length += n;
        at += n;
        continue;
      }
      const start = at;
      const end = Math.min(piece.length, at + (MAX_CHUNK - this.length));
      let fp = this.fp;
      let cut = false;
      // Before the average size the harder mask, after it the easier one.
      const hardUntil = Math.min(end, at + Math.max(0, AVG_CHUNK - this.length));
      while (at < hardUntil) {
        fp = ((fp << 1) + GEAR[piece[at++]!]!) | 0;
        if ((fp & MASK_HARD) === 0) {
          cut = true;
          break;
        }
      }
      if (!cut) {
        while (at < end) {
          fp = ((fp << 1) + GEAR[piece[at++]!]!) | 0;
          if ((fp & MASK_EASY) === 0) {
            cut = true;
            break;
          }
        }
      }
      this.held.set(piece.subarray(start, at), this.length);
      this.length += at - start;
      this.fp = fp;
      if (cut || this.length === MAX_CHUNK) this.flush();
    }
  }

  /** The last chunk (whatever its length); call once after the last piece. */
  end(): void {
    if (this.length > 0) this.flush();
  }

  private flush(): void {
    const chunk = this.held.subarray(0, this.length);
    this.length = 0;
    this.fp = 0;
    this.emit(chunk);
  }
}
