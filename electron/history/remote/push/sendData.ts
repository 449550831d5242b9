import type { ObjectStore } from '../objectStore.js';
import { blobKey, packKey } from '../../remoteLayout/remoteKeys.js';
import { listData } from '../remoteData.js';
import { carriedForm, PACK_TARGET_BYTES, PackBuilder, storedForm, type BuiltPack, type StoredBlob } from '../../remoteLayout/packFormat.js';
import type { RemoteLedger } from '../../db/remoteLedger.js';
import type { PushSource } from '../pushSource.js';
import type { TransferMeter } from '../../transferMeter.js';
import { count } from '../../trace.js';

// Step 1 of a push: the blobs the remote lacks. Small ones are packed in the order given (so the
// same pending blobs always make the same packs, and a resumed push finds its packs by name);
// large ones stand alone. The small blobs' stored forms (read, hashed, compressed) come from the
// pack workers (packWorkers.ts) when the push has them, else are made on this thread; a blob the
// store keeps compressed goes as it is kept (packFormat.ts, encoding zstd). Several
// uploads are in flight at once; each is noted in the ledger the moment it succeeded, so a push
// killed here resends only what was not noted.

/** Blobs from this size up stand alone, byte for byte. */
export const STANDALONE_BYTES = 4 * 1024 * 1024;
const IN_FLIGHT = 4;
const YIELD_EVERY_BYTES = 1024 * 1024;

export interface PendingBlob {
  hash: string;
  size: number;
  /** A file whose version holds the blob, named when the blob is found damaged. */
  path: string;
}

/** Where a small blob's stored form comes from, taken in the order the packs are assembled. */
export interface StoredForms {
  /** The small blobs about to be taken, in order (so they can be read ahead). */
  expect(blobs: PendingBlob[]): void;
  take(blob: PendingBlob): Promise<StoredBlob>;
}

export interface SentData {
  objects: number;
  blobs: number;
  bytes: number;
  storedBytes: number;
  /** Objects found already on the remote (a resumed push). */
  skipped: number;
}

export async function sendData(
  store: ObjectStore,
  source: PushSource,
  ledger: RemoteLedger,
  pending: PendingBlob[],
  meter: TransferMeter,
  /** The last push did not finish: what it sent without noting is found by listing. */
  resuming: boolean,
  signal?: AbortSignal,
  forms: StoredForms = formsOnThisThread(source),
): Promise<SentData> {
  const packed = pending.filter((b) => b.size < STANDALONE_BYTES);
  forms.expect(packed);
  // What the last push sent without noting it, when it did not finish.
  const already = resuming && pending.length > 0 ? new Set((await listData(store, source.projectId, signal)).keys()) : new Set<string>();
  const sender = new DataSender(store, source, ledger, meter, already, forms, signal);
  try {
    for (const blob of pending) if (blob.size >= STANDALONE_BYTES) await sender.sendAlone(blob);
    await sender.sendPacked(packed);
  } catch (error) {
    // Uploads already running finish (and are noted) before the failure is reported.
    await sender.uploads.settle();
    throw error;
  }
  await sender.uploads.drain();
  return sender.sent;
}

class DataSender {
  readonly sent: SentData = { objects: 0, blobs: 0, bytes: 0, storedBytes: 0, skipped: 0 };
  readonly uploads = new Uploads(IN_FLIGHT);
  private readonly packBytes = packTargetBytes();

  constructor(
    private readonly store: ObjectStore,
    private readonly source: PushSource,
    private readonly ledger: RemoteLedger,
    private readonly meter: TransferMeter,
    private readonly already: Set<string>,
    private readonly forms: StoredForms,
    private readonly signal?: AbortSignal,
  ) {}

  sendAlone(blob: PendingBlob): Promise<void> {
    return this.uploads.add(async () => {
      const key = blobKey(this.source.projectId, blob.hash);
      if (this.already.has(key)) this.sent.skipped++;
      else {
        const onBytes = (bytes: number) => this.meter.add({ bytes });
        const read = (chunk: number) => this.source.blobChunks(blob.hash, blob.size, blob.path, chunk);
        await this.store.putChunks(key, blob.size, read, { signal: this.signal, onBytes });
        this.sent.objects++;
        this.sent.storedBytes += blob.size;
      }
      this.ledger.noteSentAlone(blob.hash, blob.size);
      this.sent.blobs++;
      this.sent.bytes += blob.size;
      this.meter.add({ objects: 1 });
    }, this.signal);
  }

  async sendPacked(blobs: PendingBlob[]): Promise<void> {
    let builder = new PackBuilder();
    let sinceYield = 0;
    for (const blob of blobs) {
      this.signal?.throwIfAborted();
      builder.addStored(blob.hash, await this.forms.take(blob), blob.size);
      // Stored forms made ahead arrive without a turn of the event loop: give it one now and then,
      // so the packs already handed to the uploads go on moving over their sockets while this one fills.
      if ((sinceYield += blob.size) >= YIELD_EVERY_BYTES) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (builder.storedBytes >= this.packBytes) {
        await this.sendPack(builder.finish());
        builder = new PackBuilder();
      }
    }
    if (builder.blobCount > 0) await this.sendPack(builder.finish());
  }

  private sendPack(pack: BuiltPack): Promise<void> {
    return this.uploads.add(async () => {
      const key = packKey(this.source.projectId, pack.hash);
      if (this.already.has(key)) this.sent.skipped++;
      else {
        await this.store.put(key, pack.body, this.signal);
        this.sent.objects++;
        this.sent.storedBytes += pack.body.length;
      }
      this.ledger.noteSentPack({ pack: pack.hash, size: pack.body.length, blobs: pack.entries });
      this.sent.blobs += pack.entries.length;
      this.sent.bytes += pack.blobBytes;
      this.meter.add({ objects: 1, bytes: pack.blobBytes });
    }, this.signal);
  }
}

/** Stored forms made on this thread, as each is taken (a push without pack workers). */
export function formsOnThisThread(source: PushSource): StoredForms {
  return {
    expect: () => undefined,
    take: async (blob) => {
      count('push.threadBlobs');
      // The same forms the pack workers make (packWorker.ts), so the packs are the same.
      const kept = source.readCompressed(blob.hash, blob.size, blob.path);
      return kept ? carriedForm(kept) : storedForm(source.readBlob(blob.hash, blob.size, blob.path));
    },
  };
}

/**
 * Where a pack is closed: 16 MiB, or HINDSIGHT_REMOTE_PACK_BYTES (at least 1 KiB), which fault
 * tests and benchmarks use to make many packs from little data.
 */
export function packTargetBytes(env: NodeJS.ProcessEnv = process.env): number {
  const bytes = Number(env.HINDSIGHT_REMOTE_PACK_BYTES);
  return Number.isInteger(bytes) && bytes >= 1024 && bytes <= PACK_TARGET_BYTES ? bytes : PACK_TARGET_BYTES;
}

/** At most `limit` uploads at once; the first failure stops new ones and is thrown. */
class Uploads {
  private readonly running = new Set<Promise<void>>();
  private failure: unknown;

  constructor(private readonly limit: number) {}

  async add(upload: () => Promise<void>, signal?: AbortSignal): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    await this.throwIfFailed();
    if (signal?.aborted) {
      await this.settle();
      signal.throwIfAborted();
    }
    const task: Promise<void> = upload()
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }

  async drain(): Promise<void> {
    await this.settle();
    await this.throwIfFailed();
  }

  /** Uploads already running finish (and are noted) before a failure is reported. */
  private async throwIfFailed(): Promise<void> {
    if (this.failure === undefined) return;
    await this.settle();
    throw this.failure;
  }

  async settle(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
