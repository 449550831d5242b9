import { createHash, type Hash } from 'node:crypto';
import { bundleCorrupt } from './bundleFormat.js';

// Reads a stream (a file, stdin, an upload) in exact pieces without holding more than one chunk
// of it: a record head, a JSON text, or a blob's bytes handed on chunk by chunk. Every byte taken
// is fed to a running SHA-256, so the end record's digest can be checked. The stream ending
// before a piece is complete is BUNDLE_CORRUPT ("it ends early").

export class ByteReader {
  private readonly source: AsyncIterator<Buffer | string>;
  private chunk: Buffer = Buffer.alloc(0);
  private at = 0;
  private readonly digest: Hash = createHash('sha256');
  /** Bytes taken so far. */
  taken = 0;

  constructor(stream: AsyncIterable<Buffer | string>) {
    this.source = stream[Symbol.asyncIterator]();
  }

  /** The SHA-256 of every byte taken so far (the stream's own digest goes on). */
  digestSoFar(): string {
    return this.digest.copy().digest('hex');
  }

  /** The next byte without taking it; undefined at the end of the stream. */
  async peek(): Promise<number | undefined> {
    if (!(await this.fill())) return undefined;
    return this.chunk[this.at];
  }

  /** Exactly n bytes (copied when they span chunks). */
  async read(n: number, what: string): Promise<Buffer> {
    if (n === 0) return Buffer.alloc(0);
    if (!(await this.fill())) throw ended(what);
    if (this.chunk.length - this.at >= n) {
      const piece = this.chunk.subarray(this.at, this.at + n);
      this.take(piece);
      return piece;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    for await (const piece of this.pieces(n, what)) {
      piece.copy(out, filled);
      filled += piece.length;
    }
    return out;
  }

  /** Exactly n bytes as the chunks they arrive in (views: use each before asking for the next). */
  async *pieces(n: number, what: string): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!(await this.fill())) throw ended(what);
      const piece = this.chunk.subarray(this.at, this.at + Math.min(left, this.chunk.length - this.at));
      this.take(piece);
      left -= piece.length;
      yield piece;
    }
  }

  /** Whether the stream has ended (nothing after the end record is allowed). */
  async atEnd(): Promise<boolean> {
    return !(await this.fill());
  }

  /** Stops reading: the source is let go (a file closed), whatever was left unread. */
  async close(): Promise<void> {
    await this.source.return?.();
  }

  private take(piece: Buffer): void {
    this.digest.update(piece);
    this.at += piece.length;
    this.taken += piece.length;
  }

  private async fill(): Promise<boolean> {
    while (this.at >= this.chunk.length) {
      const next = await this.source.next();
      if (next.done) return false;
      this.chunk = typeof next.value === 'string' ? Buffer.from(next.value, 'utf8') : next.value;
      this.at = 0;
    }
    return true;
  }
}

function ended(what: string): Error {
  return bundleCorrupt(`it ends early, in ${what}`);
}
