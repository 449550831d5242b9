import type { SearchResult } from '../../../shared/contract/values.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { BlobProblem } from '../store/blobDamage.js';
import { count } from '../trace.js';
import { WorkerHost } from '../workerHost.js';
import { workerScript } from '../workerScripts.js';
import type { SearchRequest } from './searchHistory.js';

// The history process's side of a search (searchWorker.ts): one worker thread per search, so a
// long scan never holds up the history process's other calls, and a search whose caller went
// away (a closed page or socket, a stopped command) ends at once: the thread is terminated, not
// asked to stop at its next blob. Counts `search.threads` for each search run on a thread and
// `search.cancelled` for each ended that way.

export interface SearchJob {
  file: string;
  storeDir: string;
  request: SearchRequest;
  maxSize: number;
  /** Answer the result as its JSON text (searchJsonOnThread). */
  asJson?: boolean;
}

export interface SearchFound {
  /** The result, or its JSON text when the job asked for it. */
  result: SearchResult | string;
  damaged: [string, BlobProblem][];
  counters: Record<string, number>;
}

export async function searchOnThread(store: ProjectStore, request: SearchRequest, maxSize: number, signal?: AbortSignal): Promise<SearchResult> {
  return (await runOnThread(store, { file: store.index.file, storeDir: store.storeDir, request, maxSize }, signal)) as SearchResult;
}

/**
 * The result as its JSON text, made on the search's thread (`JSON.stringify`, as the CLI's
 * `--json` writes it): a long answer's tens of thousands of matches cross to this thread as one
 * string, not as objects cloned, made again here and then stringified.
 */
export async function searchJsonOnThread(store: ProjectStore, request: SearchRequest, maxSize: number, signal?: AbortSignal): Promise<string> {
  return (await runOnThread(store, { file: store.index.file, storeDir: store.storeDir, request, maxSize, asJson: true }, signal)) as string;
}

async function runOnThread(store: ProjectStore, job: SearchJob, signal?: AbortSignal): Promise<SearchResult | string> {
  signal?.throwIfAborted();
  count('search.threads');
  const host = new WorkerHost<SearchJob, SearchFound>(workerScript('searchWorker'), { name: 'The search' });
  let found: SearchFound;
  try {
    found = await host.request(job, { signal });
  } catch (error) {
    if (signal?.aborted) count('search.cancelled');
    throw error;
  } finally {
    void host.close();
  }
  for (const [name, by] of Object.entries(found.counters)) count(name, by);
  // What the thread found missing or damaged, marked as a reader on this thread would have.
  for (const [hash, problem] of found.damaged) if (store.index.open) store.index.damage.markDamaged(hash, problem);
  return found.result;
}
