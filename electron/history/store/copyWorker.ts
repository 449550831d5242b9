import { parentPort } from 'node:worker_threads';
import { fileRegularFile, type FileCounters } from './fileIntoStore.js';
import type { CopyFailure, CopyJob, CopyJobResult } from './copyProtocol.js';

// A copy worker: files the batch it is given one file at a time with synchronous calls, and
// answers once per batch. A file that fails is reported, and the rest of the batch still runs.

function fail(error: unknown): CopyFailure {
  const err = error as NodeJS.ErrnoException;
  return { kind: 'failed', code: err.code ?? 'EUNKNOWN', message: err.message ?? String(error) };
}

parentPort?.on('message', (job: CopyJob) => {
  const counters: FileCounters = { mkdirs: 0, cloneFallbacks: 0 };
  const outcomes = job.files.map((file) => {
    try {
      return fileRegularFile(file, job.blobsDir, { cloneMode: job.cloneMode }, counters);
    } catch (error) {
      return fail(error);
    }
  });
  const result: CopyJobResult = { jobId: job.jobId, outcomes, ...counters };
  parentPort?.postMessage(result);
});
