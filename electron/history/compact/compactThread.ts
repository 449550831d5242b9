import type { CompactLook } from '../store/compactBlob.js';
import { LOWEST_PRIORITY } from '../threadPriority.js';
import { count } from '../trace.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript } from '../workerScripts.js';
import type { LookReply, LookRequest } from './compactProtocol.js';

// The history process's side of the compaction thread (compactWorker.ts): one worker per run, at
// the lowest priority, asked for one batch at a time through its WorkerHost. Counts each batch
// looked at as `compact.workerBatches`, and `compact.lowPriorityBatches` when the thread ran at
// the lowest priority.

export class CompactThread {
  readonly #host = new WorkerHost<LookRequest, LookReply>(workerScript('compactWorker'), { name: 'The compaction thread', lowPriority: true });

  async look(storeDir: string, blobs: { hash: string; size: number }[]): Promise<CompactLook[]> {
    const looks = await this.#host.request({ storeDir, blobs });
    count('compact.workerBatches');
    if (this.#host.niceness === LOWEST_PRIORITY) count('compact.lowPriorityBatches');
    return looks;
  }

  close(): Promise<void> {
    return this.#host.close();
  }
}
