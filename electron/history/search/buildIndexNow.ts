import { HindsightError } from '../../../shared/errors.js';
import type { ProgressSink } from '../progressThrottle.js';
import type { ProjectStore } from '../project/projectStore.js';
import { SearchBuilder } from './searchBuilder.js';

// The search index built now, in the foreground (the CLI's index command): what a killed or
// stopped build committed is kept and not read again. Answers how far the index is, and how many
// blobs this build read.

export interface IndexNowResult {
  indexedBlobs: number;
  totalBlobs: number;
  indexedNow: number;
}

export async function buildIndexNow(
  store: ProjectStore,
  maxSize: () => number,
  options: { onProgress?: ProgressSink; signal?: AbortSignal },
): Promise<IndexNowResult> {
  const builder = new SearchBuilder(store, { maxSize, onProgress: options.onProgress });
  const stop = () => void builder.stop();
  options.signal?.addEventListener('abort', stop);
  try {
    builder.poke();
    await builder.settled();
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  if (builder.failure) throw builder.failure;
  if (options.signal?.aborted) throw new HindsightError('CANCELLED', 'The search index build was stopped; what it indexed is kept.');
  return { ...store.index.search.searchProgress(maxSize()), indexedNow: builder.looked };
}
