import { availableParallelism } from 'node:os';
import { isHindsightError } from '../../../shared/errors.js';
import type { UnreadablePath } from '../../../shared/history.js';
import type { Progress } from '../../../shared/progress.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';
import type { ProjectStore } from '../project/projectStore.js';
import { BaselineBatches, baselineBatchFiles, type BatchSink } from '../store/baselineBatches.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';
import { startFiling, type FiledEntries, type Filing } from '../store/fileEntries.js';
import type { CloneMode } from '../store/fileIntoStore.js';
import { count } from '../trace.js';
import { byPath } from '../walk/unreadable.js';
import { checkLargeFolder, type LargeFolderLimit } from './largeFolder.js';
import { walkInWorker } from './walkInWorker.js';

// A project's first copy: every file into the blob store, its rows written in batches where no
// reader looks (baselineBatches.ts, db/stagedBaseline.ts), then the baseline published from them in
// one transaction. Nothing names a blob until every copy has settled and the folder is known to be
// the same one, so a process killed at any point leaves no baseline, and the next open simply runs
// this again: it clears what the killed one staged, and finds and keeps the blobs already stored.

export interface FirstCopyOptions {
  exclude?: readonly string[];
  /** Files larger than this are not copied (the maxFileSize setting). */
  maxFileSize?: number | null;
  onProgress?: ProgressSink;
  signal?: AbortSignal;
  pool?: CopyPool;
  cloneMode?: CloneMode;
  /** Stops with CONFIRM_LARGE_FOLDER (keeping nothing) once the folder passes these; absent: no limit. */
  largeFolder?: LargeFolderLimit;
  /** From this many files on, the baseline is committed on a thread of its own (CommitThread); default defaultCommitThreadFrom(). */
  commitThreadFrom?: number;
  /** Files per batch of the baseline's rows; default baselineBatchFiles(). */
  baselineBatchFiles?: number;
  /** The walk is held back while this many files wait to be filed; default WALK_BACKLOG_FILES. */
  walkBacklogFiles?: number;
}

/**
 * How many files found by the walk may wait to be filed before the walk is held back. The walk
 * lists a folder far faster than its files are copied: unheld, a large folder's every entry
 * (a path, its bytes on disk, a few numbers: about 300 bytes) waited in memory, 150 MiB at
 * 500,000 files. This many (about 20 MiB of entries) keep every copy worker supplied thousands
 * of batches ahead, and leave a folder of up to this many files as it was: a held walk costs a
 * worker thread more (CopyPool.walk), tens of MiB, which pays only past this size.
 */
export const WALK_BACKLOG_FILES = 65_536;

/**
 * Below this many files the baseline's commit on this thread costs less than a thread's boot
 * (a Node isolate and SQLite's load, ~100 ms of CPU).
 */
export const COMMIT_THREAD_FILES = 8192;

/**
 * From how many files on the baseline is committed on the commit thread, on a machine of `cores`:
 * never on fewer than 4. Measured on 2 cores (seed-50005): the thread took 0.8 s off the main
 * thread but cost 2-3 s more CPU in all (the rows cross as a structured clone, a second
 * connection, the thread's boot), and with no core to spare the copy was slower for it.
 */
export function defaultCommitThreadFrom(cores: number = availableParallelism()): number {
  return cores >= 4 ? COMMIT_THREAD_FILES : Infinity;
}

// First copies take copy slots in the order they started (after recorded changes, priority 0):
// when many projects open at once, the first is ready first rather than all at the very end.
let nextFirstCopyPriority = 1;

export interface FirstCopyResult {
  files: number;
  bytes: number;
  blobs: number;
  ms: number;
  /** Files and folders left out because they could not be read; the next rescan tries them again. */
  unreadable: UnreadablePath[];
  /** Paths ignore rules left out (a folder not entered counts once): `hindsight ignored` lists them. */
  ignored: number;
}

export async function firstCopy(store: ProjectStore, options: FirstCopyOptions = {}): Promise<FirstCopyResult> {
  const started = performance.now();
  const scanStartedAt = Date.now();
  const progress = throttleProgress(options.onProgress);
  progress.finish(progressOf(store.projectId, 'scan', { files: 0, bytes: 0 }, { files: 0, bytes: 0 }));
  const pool = options.pool ?? sharedCopyPool();
  pool.prestart();
  // The walk runs on a copy worker and feeds the others as it goes: they copy while it still walks. While it
  // walks, progress says 'scan' (the total is what was found so far and still grows); from the
  // walk's end on it says 'copy', against the total that is now known.
  const total = { files: 0, bytes: 0 };
  let copied = { files: 0, bytes: 0 };
  let walking = true;
  let commitThread: CommitThread | undefined;
  // What an earlier copy killed midway staged: this one files every file again.
  if (store.index.staged.clearStagedBaseline() > 0) count('baseline.restarted');
  const here: BatchSink = { stage: (batch) => store.index.staged.stageBaseline(batch) };
  const batches = new BaselineBatches(() => commitThread ?? here, options.baselineBatchFiles ?? baselineBatchFiles());
  const filing = startFiling({
    blobs: store.blobs,
    pool,
    cloneMode: options.cloneMode,
    signal: options.signal,
    priority: nextFirstCopyPriority++,
    damaged: store.index.damage.damagedHashes(),
    known: store.index.blobRecords.trustedHashes(),
    onFiled: (entry, filed) => batches.add(entry, filed),
    onProgress: (done) => {
      copied = { ...done };
      progress.update(progressOf(store.projectId, walking ? 'scan' : 'copy', done, total));
    },
  });
  const folderModes = new Map<string, number>();
  const unreadable: UnreadablePath[] = [];
  const ignored: string[] = [];
  try {
    await walkInWorker(pool, store.root, {
      tracked: await store.git.tracked(),
      ignored,
      exclude: options.exclude,
      skip: store.dataFolder,
      folderModes,
      unreadable,
      maxFileSize: options.maxFileSize,
      signal: options.signal,
      onEntries: (found) => {
        total.files += found.length;
        total.bytes += found.reduce((sum, e) => sum + (e.type === 'file' ? e.size : 0), 0);
        // Before this folder's files are filed: nothing past the limit is copied unconfirmed.
        if (options.largeFolder) checkLargeFolder(store.root, total, options.largeFolder);
        if (!commitThread && total.files >= (options.commitThreadFrom ?? defaultCommitThreadFrom())) commitThread = store.index.commitThread();
        filing.add(found);
        progress.update(progressOf(store.projectId, 'scan', copied, total));
        return filing.backlogBelow(options.walkBacklogFiles ?? WALK_BACKLOG_FILES);
      },
    });
    walking = false;
  } catch (error) {
    await abandon(store, filing, batches, error, commitThread);
    throw error;
  }
  count('copy.batchesSentDuringWalk', filing.sent);
  progress.finish(progressOf(store.projectId, 'copy', copied, total));
  let published: Published;
  try {
    published = await publish(store, { filing, batches, commitThread, folderModes, total }, (commit) => progress.finish(commit));
  } catch (error) {
    await abandon(store, filing, batches, error);
    throw error;
  } finally {
    await commitThread?.close();
  }
  const { filed, files } = published;
  store.index.setMeta('lastScanAt', String(scanStartedAt));
  const totals = store.index.blobRecords.blobTotals();
  progress.finish(progressOf(store.projectId, 'done', { files, bytes: filed.bytes }, total));
  return {
    files,
    bytes: filed.bytes,
    blobs: totals.blobs,
    ms: Math.round(performance.now() - started),
    unreadable: byPath([...unreadable, ...filed.unreadable]),
    ignored: ignored.length,
  };
}

type CommitThread = ReturnType<ProjectStore['index']['commitThread']>;

interface CopyParts {
  filing: Filing;
  batches: BaselineBatches;
  commitThread: CommitThread | undefined;
  folderModes: Map<string, number>;
  /** The files and bytes the walk found. */
  total: { files: number; bytes: number };
}

/** What the filing answered, and how many files the published baseline holds. */
interface Published {
  filed: FiledEntries;
  files: number;
}

/** Waits for every copy and staged batch, then publishes the baseline in one transaction. */
async function publish(store: ProjectStore, parts: CopyParts, onCommit: ProgressSink): Promise<Published> {
  const { filing, batches, commitThread, folderModes, total } = parts;
  // The filing hands every result to the batches as it comes: it answers no rows of its own.
  const filed = await filing.finish([]);
  await batches.settle();
  store.index.damage.clearDamaged(filed.repaired);

  // Checked once, at the end: a folder that vanished or was replaced meanwhile writes no baseline.
  store.assertFolderUnchanged();
  const files = store.index.staged.stagedBaselineFiles();
  onCommit(progressOf(store.projectId, 'commit', { files, bytes: filed.bytes }, total));
  // The folders' modes go with the baseline, in its transaction.
  const baseline = { snapshot: { kind: 'baseline' as const, label: 'Baseline' }, folderModes };
  count('baseline.transactions');
  if (commitThread) await commitThread.publish(baseline);
  else store.index.publishBaseline(baseline);
  return { filed, files };
}

/**
 * A first copy that failed waits for its copies and batches to settle, closes the commit thread
 * when asked to (otherwise its caller does), and forgets what it staged.
 */
async function abandon(store: ProjectStore, filing: Filing, batches: BaselineBatches, error: unknown, commitThread?: CommitThread): Promise<void> {
  await filing.settle();
  await batches.settle().catch(() => undefined);
  await commitThread?.close();
  forgetStaged(store);
  keepNothingAfter(store, error);
}

function progressOf(projectId: string, phase: Progress['phase'], done: { files: number; bytes: number }, total: { files: number; bytes: number }): Progress {
  return {
    operation: 'first-copy',
    projectId,
    phase,
    filesDone: done.files,
    filesTotal: total.files,
    bytesDone: done.bytes,
    bytesTotal: total.bytes,
  };
}

/** A first copy that failed leaves no staged rows behind (the next one would clear them anyway). */
function forgetStaged(store: ProjectStore): void {
  try {
    store.index.staged.clearStagedBaseline();
  } catch {
    // The failure being reported may be the index's own; the next first copy clears them.
  }
}

/**
 * A first copy that was not confirmed, or that filled the disk, keeps nothing: its blobs would
 * leave the disk full for nothing (another failure keeps them, so the next open finds them stored).
 */
function keepNothingAfter(store: ProjectStore, error: unknown): void {
  if (isHindsightError(error) && (error.code === 'CONFIRM_LARGE_FOLDER' || error.code === 'DISK_FULL')) dropUnnamedBlobs(store);
}

/**
 * Drops every blob of a store without a baseline. With no baseline the index names no blob
 * (blobs are named only when a snapshot is committed), and this runs as the store's one writer:
 * every blob in the store is unnamed, those of an earlier unfinished copy included.
 */
function dropUnnamedBlobs(store: ProjectStore): void {
  if (store.index.snapshotReads.baselineId() !== undefined) return;
  store.blobs.empty();
}
