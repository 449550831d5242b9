import type { CopyPool } from '../store/copyPool.js';
import { PLACE_CHECK, PLACE_COMPRESSED, PLACE_REWRITE, type PlaceFailure, type PlaceResult } from '../store/copyProtocol.js';
import { count, countMax } from '../trace.js';
import type { ByteReader } from './byteReader.js';
import type { BlobStore } from '../store/blobStore.js';

// An import's blob records, gathered from the stream into batches and checked and placed on the
// copy workers (store/checkAndPlace.ts): this thread only reads the bundle, checks each record's
// head and decides what its blob needs, while a worker hashes, inflates, writes the temps and
// renames them. A batch's bytes are transferred to its worker, not copied. Memory stays bounded:
// at most BATCHES_IN_FLIGHT batches are out at once (the next waits for one to come back), plus
// the one being gathered.
//
// A failure is kept until the caller asks (fail fast with `check`, and on its own way out): the
// one reported is the earliest in the stream, whichever worker answered first, so the same damaged
// bundle always gives the same error.

/** A batch is sent once it holds this many bytes (a record never spans two: a longer one goes alone)... */
export const BATCH_BYTES = 8 * 1024 * 1024;
/** ...or this many records. */
export const BATCH_RECORDS = 1024;
/** Batches out on the workers at once. */
export const BATCHES_IN_FLIGHT = 2;

interface Batch {
  bytes: Buffer;
  used: number;
  hashes: string[];
  sizes: number[];
  lengths: number[];
  modes: number[];
}

export interface BatchCallbacks {
  /** A blob written into place (`replacing`: over a file of that name that was not held). */
  placed: (hash: string, replacing: boolean) => void;
  /** The typed error for a blob a worker refused. */
  refused: (hash: string, failure: PlaceFailure) => unknown;
}

export class ImportBatches {
  private current: Batch | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private bytesInFlight = 0;
  private sent = 0;
  private failure: { seq: number; error: unknown } | undefined;
  /** Batch memory the workers gave back. */
  private readonly spare: ArrayBuffer[] = [];

  constructor(
    private readonly pool: CopyPool,
    private readonly blobs: BlobStore,
    private readonly callbacks: BatchCallbacks,
  ) {}

  /** Reads the record's next `length` bytes from the stream into the batch being gathered; `mode` is PLACE_* for its blob. */
  async add(reader: ByteReader, record: { hash: string; size: number; length: number; mode: number }, what: string): Promise<void> {
    const { hash, size, length, mode } = record;
    if (this.current && (this.current.used + length > this.current.bytes.length || this.current.hashes.length >= BATCH_RECORDS)) await this.send();
    const batch = (this.current ??= { bytes: this.buffer(length), used: 0, hashes: [], sizes: [], lengths: [], modes: [] });
    for await (const piece of reader.pieces(length, what)) batch.used += piece.copy(batch.bytes, batch.used);
    batch.hashes.push(hash);
    batch.sizes.push(size);
    batch.lengths.push(length);
    batch.modes.push(mode);
  }

  /** Throws the earliest failure a worker has reported so far. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Sends what is gathered and waits for every batch; throws the earliest failure. */
  async finish(): Promise<void> {
    await this.send();
    await this.settle();
    this.check();
  }

  /** Drops what is gathered and waits for the batches out (a failure on the way out): answers the earliest failure, if any. */
  async abandon(): Promise<unknown> {
    this.current = undefined;
    await this.settle();
    return this.failure?.error;
  }

  /**
   * Memory for a batch: one a worker gave back, else new (unpooled, its own memory: it is
   * transferred whole). Buffers go back and forth, so an import holds at most
   * BATCHES_IN_FLIGHT + 1 of them, never one per batch waiting for a worker's garbage collection.
   */
  private buffer(length: number): Buffer {
    const spare = this.spare.pop();
    if (spare && spare.byteLength >= length) return Buffer.from(spare);
    count('import.placeBuffers');
    return Buffer.allocUnsafeSlow(Math.max(BATCH_BYTES, length));
  }

  private async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private async send(): Promise<void> {
    const batch = this.current;
    this.current = undefined;
    if (!batch || batch.hashes.length === 0) return;
    while (this.inFlight.size >= BATCHES_IN_FLIGHT) await Promise.race(this.inFlight);
    const seq = this.sent++;
    count('import.placeBatches');
    count('import.placeRecords', batch.hashes.length);
    this.bytesInFlight += batch.used;
    countMax('import.placeBatchesInFlight', this.inFlight.size + 1);
    countMax('import.placeBytesInFlight', this.bytesInFlight);
    const job = {
      bytes: new Uint8Array(batch.bytes.buffer, batch.bytes.byteOffset, batch.used),
      hashes: batch.hashes,
      sizes: batch.sizes,
      lengths: batch.lengths,
      modes: Uint8Array.from(batch.modes),
    };
    const done = this.pool.place(this.blobs, job).then(
      (result) => this.took(seq, batch, result),
      (error: unknown) => this.failed(seq, error),
    );
    const tracked = done.finally(() => {
      this.inFlight.delete(tracked);
      this.bytesInFlight -= batch.used;
    });
    this.inFlight.add(tracked);
  }

  private took(seq: number, batch: Batch, result: PlaceResult): void {
    this.spare.push(result.bytes.buffer as ArrayBuffer);
    count('import.blobTemps', result.temps);
    count('import.mkdirs', result.mkdirs);
    for (const [name, value] of Object.entries(result.counts ?? {})) count(name, value);
    for (let i = 0; i < result.done; i++) {
      const action = batch.modes[i]! & ~PLACE_COMPRESSED;
      if (action !== PLACE_CHECK) this.callbacks.placed(batch.hashes[i]!, action === PLACE_REWRITE);
    }
    if (result.failure) this.failed(seq, this.callbacks.refused(batch.hashes[result.failure.index]!, result.failure));
  }

  private failed(seq: number, error: unknown): void {
    if (!this.failure || seq < this.failure.seq) this.failure = { seq, error };
  }
}
