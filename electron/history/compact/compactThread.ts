import { Worker } from 'node:worker_threads';
import type { CompactLook } from '../store/compactBlob.js';
import { LOWEST_PRIORITY } from '../threadPriority.js';
import { count } from '../trace.js';
import { errorOfFailure } from '../workerFailure.js';
import { workerScript } from '../workerScripts.js';
import type { LookReply, LookRequest } from './compactProtocol.js';

// The history process's side of the compaction thread (compactWorker.ts): one worker per run,
// asked for one batch at a time. Counts each batch looked at as `compact.workerBatches`, and
// `compact.lowPriorityBatches` when the thread ran at the lowest priority.

export class CompactThread {
  readonly #worker: Worker;
  #pending: { resolve: (looks: CompactLook[]) => void; reject: (error: Error) => void } | undefined;

  constructor() {
    this.#worker = new Worker(workerScript('compactWorker'));
    this.#worker.on('message', (reply: LookReply) => this.#received(reply));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => this.#fail(new Error(`The compaction thread stopped (exit code ${code}).`)));
  }

  look(blobsDir: string, blobs: { hash: string; size: number }[]): Promise<CompactLook[]> {
    const request: LookRequest = { type: 'look', blobsDir, blobs };
    return new Promise<CompactLook[]>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    this.#pending = undefined;
    await this.#worker.terminate();
  }

  #received(reply: LookReply): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (reply.type === 'failed') return pending?.reject(errorOfFailure(reply));
    count('compact.workerBatches');
    if (reply.niceness === LOWEST_PRIORITY) count('compact.lowPriorityBatches');
    pending?.resolve(reply.looks);
  }

  #fail(error: Error): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(error);
  }
}
