import type { CompactResult } from '../../../shared/contract/values.js';
import type { Progress } from '../../../shared/progress.js';
import type { CompressRange } from '../db/compactQueries.js';
import type { ProjectStore } from '../project/projectStore.js';
import { throttleProgress } from '../progressThrottle.js';
import { COMPRESS_FROM, COMPRESS_UP_TO } from '../codec/blobCodec.js';
import { placeCompacted, removeRawLeft, type CompactLook } from '../store/compactBlob.js';
import { count } from '../trace.js';
import { CompactThread } from './compactThread.js';

// A compaction of one project's store: the raw blobs where compression may pay (written before
// blobs were compressed, or filed raw as large files) are looked at in batches on the
// compaction thread (compactThread.ts: read, hash-checked, compressed, at the lowest priority),
// and each batch is then settled as the project's writer (the writer lock, one batch at a time,
// so a recorded change waits at most for one batch's writes) in one short transaction: the
// compressed file written (temp, rename), the raw one removed, the stored size recorded. What a
// batch settled leaves the list of blobs to look at (db/compactQueries.ts), so a stopped or
// killed run loses at most its batch in progress, and the next run goes on from there; a run
// killed between a rename and its record leaves both files, which the next run finds and records.

/** The sizes compression is tried on (codec/blobCodec.ts). */
export const COMPRESS_RANGE: CompressRange = { from: COMPRESS_FROM, upTo: COMPRESS_UP_TO };

/** A batch: at most this many blobs, and this many raw bytes (one blob at least). */
const BATCH_BLOBS = 64;
const BATCH_BYTES = 4 * 1024 * 1024;

export interface CompactOptions {
  /** Count what a run would convert and save; write nothing. */
  dryRun?: boolean;
  /** Stops before the next batch (the batch in progress is settled or dropped whole). */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Runs one batch's writes as the project's writer (after the writes queued before it). */
  asWriter: <T>(work: () => Promise<T>) => Promise<T>;
  /** Something to wait for before the next batch (a write or a copy running), or undefined. */
  busy?: () => Promise<unknown> | undefined;
}

export async function compactStore(store: ProjectStore, options: CompactOptions): Promise<CompactResult> {
  const started = performance.now();
  const totals = store.index.compaction.compactTotals(COMPRESS_RANGE);
  const result: CompactResult = {
    projectId: store.projectId,
    dryRun: options.dryRun === true,
    candidates: totals.blobs,
    candidateBytes: totals.bytes,
    looked: 0,
    converted: 0,
    rawBytes: 0,
    storedBytes: 0,
    savedBytes: 0,
    keptRaw: 0,
    alreadyCompressed: 0,
    absent: 0,
    damaged: 0,
    stopped: false,
    ms: 0,
  };
  const progress = throttleProgress(options.onProgress, 250);
  let bytesDone = 0;
  const report = (phase: Progress['phase']): Progress => ({
    operation: 'compact',
    projectId: store.projectId,
    phase,
    filesDone: result.looked,
    filesTotal: totals.blobs,
    bytesDone,
    bytesTotal: totals.bytes,
  });
  if (totals.blobs === 0) return finished(result, started, progress, report);
  const thread = new CompactThread();
  try {
    let after = '';
    for (;;) {
      if (await stopping(options)) {
        result.stopped = true;
        break;
      }
      const batch = nextBatch(store, after);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.hash;
      const looks = await thread.look(store.storeDir, batch);
      // Asked to stop while the batch was looked at: it is dropped whole (nothing of it written).
      if (options.signal?.aborted) {
        result.stopped = true;
        break;
      }
      const sizes = new Map(batch.map((b) => [b.hash, b.size]));
      for (const look of looks) if (look.kind === 'damaged') store.blobs.noteDamage(look.hash, 'corrupt');
      if (result.dryRun) tally(result, looks, sizes, undefined);
      else {
        // Stopped while waiting for the writer lock (the store may be closing): nothing written.
        const settled = await options.asWriter(async () => (options.signal?.aborted ? [] : settle(store, looks, sizes)));
        count('compact.settled', settled.length);
        // Only what this run settled is its own: a blob another run settled while this one looked
        // at it is that run's to report (two runs at once report totals that add up).
        tally(result, looks, sizes, new Set(settled));
      }
      result.looked += batch.length;
      bytesDone += batch.reduce((sum, b) => sum + b.size, 0);
      progress.update(report('write'));
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    // A wait for the writer lock given up by the cancel: nothing of that batch was written.
    result.stopped = true;
  } finally {
    await thread.close();
  }
  return finished(result, started, progress, report);
}

function finished(
  result: CompactResult,
  started: number,
  progress: ReturnType<typeof throttleProgress>,
  report: (phase: Progress['phase']) => Progress,
): CompactResult {
  result.savedBytes = result.rawBytes - result.storedBytes;
  result.ms = Math.round(performance.now() - started);
  progress.finish(report('done'));
  return result;
}

/** Waits while something else writes or copies; answers whether the run is to stop. */
async function stopping(options: CompactOptions): Promise<boolean> {
  // A batch is placed synchronously: a stop asked meanwhile (a signal) is delivered by the event
  // loop's poll phase. Two turns of setImmediate take the loop through one poll phase whatever
  // phase this runs in (the first may run in this turn's check phase, right after a poll that
  // came too early); without them the next batch could start before the stop is seen.
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  for (let wait = options.busy?.(); wait !== undefined && !options.signal?.aborted; wait = options.busy?.()) {
    await wait.catch(() => undefined);
  }
  return options.signal?.aborted === true;
}

function nextBatch(store: ProjectStore, after: string): { hash: string; size: number }[] {
  const candidates = store.index.compaction.compactCandidates(COMPRESS_RANGE, after, BATCH_BLOBS);
  let bytes = 0;
  const batch: { hash: string; size: number }[] = [];
  for (const blob of candidates) {
    if (batch.length > 0 && bytes + blob.size > BATCH_BYTES) break;
    batch.push(blob);
    bytes += blob.size;
  }
  return batch;
}

/** Counts the looks of a batch; of a real run only the blobs it settled (`settled`), and what it found absent or damaged. */
function tally(result: CompactResult, looks: readonly CompactLook[], sizes: ReadonlyMap<string, number>, settled: ReadonlySet<string> | undefined): void {
  for (const look of looks) {
    const found = look.kind === 'absent' || look.kind === 'damaged';
    if (!found && settled && !settled.has(look.hash)) continue;
    if (look.kind === 'convert') {
      result.converted++;
      result.rawBytes += sizes.get(look.hash)!;
      result.storedBytes += look.bytes.length;
    } else if (look.kind === 'keep') result.keptRaw++;
    else if (look.kind === 'compressed') result.alreadyCompressed++;
    else if (look.kind === 'absent') result.absent++;
    else result.damaged++;
  }
}

/** Writes a batch's compressed files and records every blob settled, in one short transaction; answers their hashes. */
function settle(store: ProjectStore, looks: readonly CompactLook[], sizes: ReadonlyMap<string, number>): string[] {
  const byHash = new Map(looks.map((look) => [look.hash, look]));
  const settled = store.index.compaction.settleCompaction([...byHash.keys()], (hash) => {
    const look = byHash.get(hash)!;
    switch (look.kind) {
      case 'convert':
        return { stored: placeCompacted(store.blobs, hash, look.bytes), keptRaw: false };
      case 'keep':
        return { stored: sizes.get(hash)!, keptRaw: true };
      case 'compressed':
        if (look.rawLeft) removeRawLeft(store.blobs, hash);
        return { stored: look.stored, keptRaw: false };
      default:
        return undefined;
    }
  });
  return settled;
}
