import type { StagedBatch, StagedBlob, StagedFile } from '../db/historyIndex.js';
import { faultPoint } from '../faultPoint.js';
import type { FiledRows } from './fileEntries.js';
import { count, countMax } from '../trace.js';
import type { WalkEntry } from '../walk/walkFolder.js';

// A first copy's rows written as its files are filed, BASELINE_BATCH_FILES at a time, each batch
// in a transaction of its own into tables no reader looks at (db/stagedBaseline.ts); the baseline
// is published from them at the end. What the history process holds of them is the batch being
// filled and the ones on their way to the commit thread, whatever the folder's size.
// Trace counters: `baseline.transactions` (batches and the publish), `baseline.rowsHeld` (the
// largest number of files' rows held at once).

/** Files per batch: a few milliseconds of SQLite each, and a few hundred KiB of rows held. */
export const BASELINE_BATCH_FILES = 4096;

/** Where batches go: the index on this thread, or the commit thread (db/commitThread.ts). */
export interface BatchSink {
  stage: (batch: StagedBatch) => void | Promise<void>;
}

export class BaselineBatches {
  #files: StagedFile[] = [];
  #blobs = new Map<string, StagedBlob>();
  #inFlight = 0;
  readonly #staging = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  /** `sink` is asked at each batch: the commit thread may start while the copy goes on. */
  constructor(
    private readonly sink: () => BatchSink,
    private readonly batchFiles = BASELINE_BATCH_FILES,
  ) {}

  /** One filed entry's rows; a full batch is written. */
  add(entry: WalkEntry, { version, stat, blob, placed }: FiledRows): void {
    this.#files.push({
      path: version.path,
      type: version.type === 'symlink' ? 'symlink' : 'file',
      hash: blob.hash,
      mode: version.mode,
      size: version.size,
      target: version.target ?? null,
      stat: { size: stat.size, mode: stat.mode, mtimeNs: stat.mtimeNs, ctimeNs: stat.ctimeNs, ino: stat.ino },
    });
    // The bytes on disk of the file this filing placed; a blob already stored keeps what its row says.
    if (placed || !this.#blobs.has(blob.hash)) this.#blobs.set(blob.hash, blob);
    countMax('baseline.rowsHeld', this.#files.length + this.#inFlight);
    if (this.#files.length >= this.batchFiles) this.flush();
  }

  /** Writes the rows gathered so far as one batch: here at once, or handed to the commit thread. */
  flush(): void {
    if (this.#files.length === 0 || this.#failure) return;
    const batch: StagedBatch = { files: this.#files, blobs: [...this.#blobs.values()] };
    this.#files = [];
    this.#blobs = new Map();
    count('baseline.transactions');
    let staging;
    try {
      staging = this.sink().stage(batch);
    } catch (error) {
      this.#failure ??= { error };
      return;
    }
    if (!staging) return faultPoint('baseline-batch-staged');
    const held = batch.files.length;
    this.#inFlight += held;
    const written: Promise<void> = staging.then(
      () => {
        this.#inFlight -= held;
        this.#staging.delete(written);
        faultPoint('baseline-batch-staged');
      },
      (error: unknown) => {
        this.#inFlight -= held;
        this.#staging.delete(written);
        this.#failure ??= { error };
      },
    );
    this.#staging.add(written);
  }

  /** Writes the last batch and waits for every batch to be written; throws the first failure. */
  async settle(): Promise<void> {
    this.flush();
    await Promise.all(this.#staging);
    if (this.#failure) throw this.#failure.error;
  }
}

/** Files per batch from HINDSIGHT_BASELINE_BATCH (the kill tests' small batches), else BASELINE_BATCH_FILES. */
export function baselineBatchFiles(env: NodeJS.ProcessEnv = process.env): number {
  const asked = Number(env.HINDSIGHT_BASELINE_BATCH);
  return Number.isInteger(asked) && asked > 0 ? asked : BASELINE_BATCH_FILES;
}
