import { Worker } from 'node:worker_threads';
import { WriteGate } from '../db/writeGate.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { BlobProblem } from '../store/blobReader.js';
import { LOWEST_PRIORITY } from '../threadPriority.js';
import { count } from '../trace.js';
import { errorOfFailure, type WorkerFailure } from '../workerFailure.js';
import { workerScript } from '../workerScripts.js';
import type { BatchOutcome } from './indexBatch.js';

// The history process's side of the search index build's worker (indexWorker.ts): one worker per
// build, asked for one batch at a time. While it lives, the store's connection takes turns with
// the worker's through a write gate (db/writeGate.ts). Counts each batch received as
// `search.workerBatches` (and `search.lowPriorityBatches` when the worker runs at the lowest
// priority); `search.batches`, counted where a batch runs, stays 0 on this thread.

export interface IndexRequest {
  type: 'batch';
  file: string;
  blobsDir: string;
  cursor: string;
  maxSize: number;
  gate: SharedArrayBuffer;
}

export type IndexReply =
  | ({ type: 'batch'; niceness: number | null; damaged: [string, BlobProblem][] } & BatchOutcome)
  | WorkerFailure;

export class IndexThread {
  readonly #worker: Worker;
  readonly #gate = new WriteGate();
  #pending: { resolve: (outcome: BatchOutcome) => void; reject: (error: Error) => void } | undefined;
  #closed = false;

  constructor(private readonly store: ProjectStore) {
    this.#worker = new Worker(workerScript('indexWorker'));
    // A CLI command or a test that is done does not wait for an idle build thread.
    this.#worker.unref();
    this.#worker.on('message', (reply: IndexReply) => this.#received(reply));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The search index build stopped (exit code ${code}).`)));
    store.index.shareWrites(this.#gate);
  }

  batch(cursor: string, maxSize: number): Promise<BatchOutcome> {
    const request: IndexRequest = { type: 'batch', file: this.store.index.file, blobsDir: this.store.blobsDir, cursor, maxSize, gate: this.#gate.buffer };
    return new Promise<BatchOutcome>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#worker.ref();
      this.#worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pending = undefined;
    await this.#worker.terminate();
    this.store.index.shareWrites(undefined);
  }

  #received(reply: IndexReply): void {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#worker.unref();
    if (reply.type === 'failed') {
      return pending?.reject(errorOfFailure(reply));
    }
    count('search.workerBatches');
    // What the worker found missing or damaged, marked as a reader on this thread would have.
    for (const [hash, problem] of reply.damaged) if (this.store.index.open) this.store.index.markDamaged(hash, problem);
    if (reply.niceness === LOWEST_PRIORITY) count('search.lowPriorityBatches');
    pending?.resolve({ looked: reply.looked, added: reply.added, cursor: reply.cursor });
  }

  #fail(error: Error): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(error);
  }
}
