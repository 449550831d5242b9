// How much of one file's bytes another holds, measured as git's rename detection measures it
// (diffcore-delta): a file is cut into spans that end after a newline or after 64 bytes, each span
// is hashed (a 64-bit shift-and-xor accumulator folded to a number below 107,927), and the bytes
// of each hash are counted. Two files share, for each hash, the smaller of their two counts; git's
// score is those bytes over the larger file's size. In a text file (no NUL in its first 8,000
// bytes, git's buffer_is_binary) a CR before an LF is left out, so a file and its CRLF twin score
// as the same text. Counting by hash, not by line, is what keeps two unrelated one-line files
// apart: they share no span, where a split on newlines shared the empty string after the last one.
// The bytes after a file's last newline are a span of their own since git 2.44 ("diffcore-delta:
// avoid ignoring final 'line' of file"); git before it left them out, which `lastLine: false` does.

/** git's HASHBASE: span hashes are taken modulo this prime. */
const HASH_BASE = 107927;
/** A span ends after this many bytes when no newline ended it. */
const LONGEST_SPAN = 64;
/** git's FIRST_FEW_BYTES: a NUL among them makes the file binary. */
export const BINARY_PROBE = 8000;

/** A file's spans: bytes counted per span hash. */
export type SpanCounts = ReadonlyMap<number, number>;

export interface SpanOptions {
  /** Whether the bytes after the last newline count (git 2.44 on: true, the default). */
  lastLine?: boolean;
}

/** The spans of a file given as consecutive pieces of its bytes (a blob read a chunk at a time). */
export function spanCounts(pieces: Iterable<Uint8Array>, options: SpanOptions = {}): SpanCounts {
  const hasher = new SpanHasher(options.lastLine ?? true);
  let head: Uint8Array[] | undefined = [];
  let headBytes = 0;
  for (const piece of pieces) {
    if (head === undefined) {
      hasher.add(piece);
      continue;
    }
    // Whether CRs count is known only once the first 8,000 bytes are in.
    head.push(piece);
    headBytes += piece.length;
    if (headBytes < BINARY_PROBE) continue;
    hasher.start(head);
    head = undefined;
  }
  if (head !== undefined) hasher.start(head);
  return hasher.end();
}

/** Bytes of `a` found in `b`: per span hash, the smaller count (git's src_copied). */
export function bytesInCommon(a: SpanCounts, b: SpanCounts): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const [hash, count] of small) {
    const other = large.get(hash);
    if (other !== undefined) common += Math.min(count, other);
  }
  return common;
}

/** Whether git takes these first bytes of a file for binary: a NUL among the first 8,000. */
export function looksBinary(head: readonly Uint8Array[]): boolean {
  let left = BINARY_PROBE;
  for (const piece of head) {
    const seen = piece.subarray(0, left);
    if (seen.includes(0)) return true;
    left -= seen.length;
    if (left <= 0) break;
  }
  return false;
}

class SpanHasher {
  private readonly counts = new Map<number, number>();
  private text = false;
  private low = 0;
  private high = 0;
  private length = 0;
  /** A CR seen last in a text file: dropped if an LF comes next, else counted then. */
  private heldCr = false;

  constructor(private readonly lastLine: boolean) {}

  start(head: readonly Uint8Array[]): void {
    this.text = !looksBinary(head);
    for (const piece of head) this.add(piece);
  }

  add(piece: Uint8Array): void {
    for (let i = 0; i < piece.length; i++) {
      const c = piece[i]!;
      if (this.heldCr) {
        this.heldCr = false;
        if (c !== 0x0a) this.take(0x0d);
      }
      if (this.text && c === 0x0d) this.heldCr = true;
      else this.take(c);
    }
  }

  end(): SpanCounts {
    if (this.heldCr) this.take(0x0d);
    if (this.length > 0 && this.lastLine) this.close();
    return this.counts;
  }

  private take(c: number): void {
    // Two 32-bit halves shifted left by 7 as one 64-bit value, the byte added to the low half.
    const low = this.low;
    this.low = (((low << 7) ^ (this.high >>> 25)) + c) >>> 0;
    this.high = ((this.high << 7) ^ (low >>> 25)) >>> 0;
    this.length++;
    if (this.length >= LONGEST_SPAN || c === 0x0a) this.close();
  }

  private close(): void {
    const hash = ((this.low + (Math.imul(this.high, 0x61) >>> 0)) >>> 0) % HASH_BASE;
    this.counts.set(hash, (this.counts.get(hash) ?? 0) + this.length);
    this.low = 0;
    this.high = 0;
    this.length = 0;
  }
}
