import { isHindsightError } from '../../../shared/errors.js';
import { createsPrivateFileExactly } from '../privateModes.js';
import { COPY_WORKER_NICE, threadPriority } from '../threadPriority.js';
import { CopyCancelled, fileRegularFile, type FileCounters } from './fileIntoStore.js';
import type { BackupJob, BackupReply, CopyAnswer, CopyFailure, CopyJob, CopyJobResult, CopyRequest } from './copyProtocol.js';
import { checkAndPlace } from './checkAndPlace.js';
import { runWalkJob } from '../walk/walkJob.js';
import { packOutcomes } from './packedOutcomes.js';
import { serveRequests } from '../serveRequests.js';
import type { WalkEntry } from '../walk/walkFolder.js';

// A copy worker: files the batch it is given one file at a time with synchronous calls, and
// answers once per batch, packed (packedOutcomes.ts), through serveRequests.ts (the pool's
// threads are WorkerHosts). A file that fails is reported, and the rest of the batch still runs.
// It also walks a first copy's folder when asked (walk/walkJob.ts), so that walk runs off the
// history process's main thread without a thread of its own to boot. An import's blobs come in
// batches to check and place (checkAndPlace.ts): foreground work, so that does not lower it.

function fail(error: unknown): CopyFailure {
  const err = error as NodeJS.ErrnoException;
  return { kind: 'failed', code: err.code ?? 'EUNKNOWN', message: err.message ?? String(error) };
}

// A first copy is background work (COPY_WORKER_NICE); through threadPriority.ts, so only on
// Linux, where it lowers this thread alone: elsewhere it would lower the whole app. Lowered at the
// first batch, not at the start: a worker started ahead of a first copy walks its folder first,
// and the walk feeds every other worker, so on a busy machine a lowered walk would hold them all
// back (a thread cannot raise itself back without privileges).
let lowered = false;
function lowerOnce(): void {
  if (lowered) return;
  lowered = true;
  threadPriority(Number(process.env.HINDSIGHT_COPY_NICE ?? COPY_WORKER_NICE));
}

// The known blobs of the last list received (CopyJob.known): the pool sends a list once per worker
// and then only its id. Blobs this worker files are added as it goes.
let known: { id: number; set: Set<string> } | undefined;

function knownOf(job: CopyJob): Set<string> | undefined {
  if (!job.known) return undefined;
  if (job.known.hashes) known = { id: job.known.id, set: new Set(job.known.hashes) };
  // An id this worker does not hold (never expected): look at the disk, as without a list.
  return known?.id === job.known.id ? known.set : undefined;
}

// SQLite is loaded only by a worker asked for a backup: the others boot without it.
async function runBackupJob(job: BackupJob): Promise<BackupReply> {
  try {
    const { backupIndexFile } = await import('../db/backupIndexFile.js');
    await backupIndexFile(job.file, job.dest);
    return { kind: 'backedUp' };
  } catch (error) {
    const data = isHindsightError(error)
      ? error.toJSON()
      : { code: 'INDEX_IO_ERROR' as const, message: `The index could not be backed up: ${fail(error).message}` };
    return { kind: 'backupFailed', error: data };
  }
}

function fileBatch(job: CopyJob): CopyJobResult {
  lowerOnce();
  const counters: FileCounters = { mkdirs: 0, cloneFallbacks: 0 };
  const rewrite = new Set(job.rewrite);
  const cancel = job.cancel;
  const cancelled = cancel ? () => Atomics.load(cancel, 0) !== 0 : () => false;
  // Once per batch: the umask is the process's, and a test (or a host) may change it meanwhile.
  const exactCreateMode = createsPrivateFileExactly();
  const knownSet = knownOf(job);
  const outcomes = job.files.map((file) => {
    if (cancelled()) return { kind: 'cancelled' as const };
    try {
      return fileRegularFile(
        typeof file === 'string' ? file : Buffer.from(file.buffer, file.byteOffset, file.byteLength),
        job.blobsDir,
        { cloneMode: job.cloneMode, rewrite, cancelled, exactCreateMode, known: knownSet },
        counters,
      );
    } catch (error) {
      return error instanceof CopyCancelled ? { kind: 'cancelled' as const } : fail(error);
    }
  });
  return { jobId: job.jobId, outcomes: packOutcomes(outcomes), ...counters };
}

function answer(job: CopyRequest, tell: (entries: WalkEntry[]) => void): CopyAnswer | Promise<CopyAnswer> {
  if (!('kind' in job)) return fileBatch(job);
  if (job.kind === 'place') return checkAndPlace(job, createsPrivateFileExactly());
  if (job.kind === 'backup') return runBackupJob(job);
  return runWalkJob(job, tell);
}

// A place batch's memory goes back with its answer, for the next batch.
serveRequests<CopyRequest, CopyAnswer, WalkEntry[]>(answer, (reply) => ('kind' in reply && reply.kind === 'placed' ? [reply.bytes.buffer as ArrayBuffer] : []));
