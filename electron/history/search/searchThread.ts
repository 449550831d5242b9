import { Worker } from 'node:worker_threads';
import type { SearchResult } from '../../../shared/contract/values.js';
import { HindsightError } from '../../../shared/errors.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { BlobProblem } from '../store/blobReader.js';
import { count } from '../trace.js';
import { errorOfFailure, type WorkerFailure } from '../workerFailure.js';
import { workerScript } from '../workerScripts.js';
import type { SearchRequest } from './searchHistory.js';

// The history process's side of a search (searchWorker.ts): one worker thread per search, so a
// long scan never holds up the history process's other calls, and a search whose caller went
// away (a closed page or socket, a stopped command) ends at once: the thread is terminated, not
// asked to stop at its next blob. Counts `search.threads` for each search run on a thread and
// `search.cancelled` for each ended that way.

export interface SearchJob {
  file: string;
  blobsDir: string;
  request: SearchRequest;
  maxSize: number;
}

export type SearchReply =
  | { type: 'result'; result: SearchResult; damaged: [string, BlobProblem][]; counters: Record<string, number> }
  | WorkerFailure;

export function searchOnThread(store: ProjectStore, request: SearchRequest, maxSize: number, signal?: AbortSignal): Promise<SearchResult> {
  signal?.throwIfAborted();
  count('search.threads');
  const worker = new Worker(workerScript('searchWorker'));
  const job: SearchJob = { file: store.index.file, blobsDir: store.blobsDir, request, maxSize };
  return new Promise<SearchResult>((resolve, reject) => {
    const stop = (): void => {
      count('search.cancelled');
      reject(signal?.reason instanceof Error ? signal.reason : new HindsightError('CANCELLED', 'Cancelled.'));
      void worker.terminate();
    };
    signal?.addEventListener('abort', stop, { once: true });
    const settle = (): void => {
      signal?.removeEventListener('abort', stop);
      void worker.terminate();
    };
    worker.once('message', (reply: SearchReply) => {
      settle();
      if (reply.type === 'failed') return reject(errorOfFailure(reply));
      for (const [name, by] of Object.entries(reply.counters)) count(name, by);
      // What the thread found missing or damaged, marked as a reader on this thread would have.
      for (const [hash, problem] of reply.damaged) if (store.index.open) store.index.markDamaged(hash, problem);
      resolve(reply.result);
    });
    worker.once('error', (error) => {
      settle();
      reject(error);
    });
    worker.once('exit', (code) => {
      settle();
      reject(new Error(`The search stopped (exit code ${code}).`));
    });
    worker.postMessage(job);
  });
}
