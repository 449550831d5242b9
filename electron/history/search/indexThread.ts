import { WriteGate } from '../db/writeGate.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { BlobProblem } from '../store/blobDamage.js';
import { LOWEST_PRIORITY } from '../threadPriority.js';
import { count } from '../trace.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript } from '../workerScripts.js';
import type { BatchOutcome } from './indexBatch.js';

// The history process's side of the search index build's worker (indexWorker.ts): one worker per
// build, at the lowest priority, asked for one batch at a time. While it lives, the store's
// connection takes turns with the worker's through a write gate (db/writeGate.ts). Counts each
// batch received as `search.workerBatches` (and `search.lowPriorityBatches` when the worker runs
// at the lowest priority); `search.batches`, counted where a batch runs, stays 0 on this thread.
// `search.indexThreads` and `search.indexThreadsEnded` count the threads started and ended: a
// build with nothing left holds none (each is an isolate and a connection with its own cache).

export interface IndexRequest {
  type: 'batch';
  file: string;
  storeDir: string;
  cursor: string;
  maxSize: number;
  gate: SharedArrayBuffer;
}

export type IndexedBatch = BatchOutcome & { damaged: [string, BlobProblem][] };

export class IndexThread {
  // unrefWhenIdle: a CLI command or a test that is done does not wait for an idle build thread.
  readonly #host = new WorkerHost<IndexRequest, IndexedBatch>(workerScript('indexWorker'), {
    name: 'The search index build',
    lowPriority: true,
    unrefWhenIdle: true,
  });
  readonly #gate = new WriteGate();
  #closed = false;

  constructor(private readonly store: ProjectStore) {
    store.index.search.shareWrites(this.#gate);
    count('search.indexThreads');
  }

  async batch(cursor: string, maxSize: number): Promise<BatchOutcome> {
    const request: IndexRequest = { type: 'batch', file: this.store.index.file, storeDir: this.store.storeDir, cursor, maxSize, gate: this.#gate.buffer };
    const reply = await this.#host.request(request);
    count('search.workerBatches');
    // What the worker found missing or damaged, marked as a reader on this thread would have.
    for (const [hash, problem] of reply.damaged) if (this.store.index.open) this.store.index.damage.markDamaged(hash, problem);
    if (this.#host.niceness === LOWEST_PRIORITY) count('search.lowPriorityBatches');
    return { looked: reply.looked, added: reply.added, cursor: reply.cursor };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#host.close();
    count('search.indexThreadsEnded');
    this.store.index.search.shareWrites(undefined);
  }
}
