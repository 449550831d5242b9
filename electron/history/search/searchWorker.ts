import { SearchReader } from '../db/searchReader.js';
import { serveRequests } from '../serveRequests.js';
import type { BlobProblem } from '../store/blobDamage.js';
import { BlobStore } from '../store/blobStore.js';
import { count, traceSnapshot } from '../trace.js';
import { searchHistory } from './searchHistory.js';
import type { SearchFound, SearchJob } from './searchThread.js';

// One search's worker thread: the whole query (the index's candidates, the blobs read and
// matched) from its own read-only connection to history.db, so the history process's thread keeps
// answering while it runs and can end it at once by terminating the thread. The blobs it finds
// missing or damaged and its trace counters go back with the answer, for the history process to
// record as if it had read them itself. The answer goes back as its JSON text when asked
// (`search.answersAsJson`).

function search(job: SearchJob): SearchFound {
  const reader = new SearchReader(job.file);
  const damaged: [string, BlobProblem][] = [];
  const blobs = BlobStore.of(job.storeDir);
  const stopListening = blobs.onDamage((hash, problem) => void damaged.push([hash, problem]));
  try {
    const result = searchHistory({ index: reader, blobs }, job.request, job.maxSize);
    if (!job.asJson) return { result, damaged, counters: traceSnapshot() };
    count('search.answersAsJson');
    return { result: JSON.stringify(result), damaged, counters: traceSnapshot() };
  } finally {
    stopListening();
    reader.close();
  }
}

serveRequests(search);
