import { HindsightError } from '../../../shared/errors.js';
import type { Progress } from '../../../shared/progress.js';
import type { NewVersion, StatRow } from '../db/historyIndex.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';
import { fileBytes, type CloneMode, type FiledFile } from '../store/fileIntoStore.js';
import type { CopyFailure } from '../store/copyProtocol.js';
import { fsError } from '../fsErrors.js';
import { count } from '../trace.js';
import type { WalkEntry } from '../walk/walkFolder.js';
import { BatchPlanner } from './planBatches.js';

// Files walked entries into the blob store through the shared copy workers and returns what the
// index needs: versions, blobs and stat rows. Entries can be added while the walk is still going,
// so the workers copy while the main thread walks. It waits for every copy to settle before it
// reports the first failure, so no copy is still writing when the caller decides what to keep.

export interface FiledEntries {
  versions: NewVersion[];
  blobs: { hash: string; size: number }[];
  stats: StatRow[];
  skipped: string[];
  bytes: number;
}

export interface FileEntriesOptions {
  blobsDir: string;
  pool?: CopyPool;
  cloneMode?: CloneMode;
  signal?: AbortSignal;
  onProgress?: (done: { files: number; bytes: number }) => void;
  /** Slot priority of every batch (lower first; see CopySlots). */
  priority?: number;
}

export async function fileEntries(entries: readonly WalkEntry[], options: FileEntriesOptions): Promise<FiledEntries> {
  const filing = startFiling(options);
  filing.add(entries);
  return filing.finish(entries);
}

export interface Filing {
  /** Files entries as they are found: full batches go to the copy workers at once. */
  add: (entries: readonly WalkEntry[]) => void;
  /** Sends the last batch, waits for every copy to settle, and collects the results in `all`'s order. */
  finish: (all: readonly WalkEntry[]) => Promise<FiledEntries>;
  /** Waits for the copies already sent to settle (before giving up on a walk that failed). */
  settle: () => Promise<void>;
  /** Batches sent to the copy workers so far. */
  readonly sent: number;
}

/** A filing that starts copying before the whole list is known (the first copy feeds it from the walk). */
export function startFiling(options: FileEntriesOptions): Filing {
  const pool = options.pool ?? sharedCopyPool();
  const cloneMode = options.cloneMode ?? cloneModeFromEnv();
  const results = new Map<string, FiledFile | { kind: 'link'; hash: string; size: number }>();
  const skipped: string[] = [];
  const done = { files: 0, bytes: 0 };
  const planner = new BatchPlanner<WalkEntry>();
  const running: Promise<void>[] = [];
  let firstError: HindsightError | undefined;

  const send = (batch: WalkEntry[]) => {
    running.push(
      (async () => {
        if (options.signal?.aborted || firstError) return;
        const result = await pool.run({ blobsDir: options.blobsDir, cloneMode, files: batch.map((f) => f.abs) }, options.priority);
        count('copy.mkdirs', result.mkdirs);
        count('copy.cloneFallbacks', result.cloneFallbacks);
        result.outcomes.forEach((outcome, i) => {
          const entry = batch[i]!;
          if (outcome.kind === 'filed') {
            results.set(entry.path, outcome);
            count('copy.files');
            count(`copy.${outcome.method}`);
            done.files++;
            done.bytes += outcome.size;
          } else if (outcome.kind === 'failed') {
            firstError ??= copyFailure(entry.path, outcome);
          } else {
            skipped.push(entry.path);
          }
        });
        options.onProgress?.(done);
      })(),
    );
  };

  return {
    add(entries) {
      for (const entry of entries) {
        if (entry.type === 'symlink') {
          const bytes = Buffer.from(entry.target ?? '', 'utf8');
          const { hash } = fileBytes(bytes, options.blobsDir);
          results.set(entry.path, { kind: 'link', hash, size: bytes.length });
          done.files++;
        } else if (entry.type === 'file') {
          for (const batch of planner.push(entry)) send(batch);
        }
      }
    },
    async finish(all) {
      for (const batch of planner.flush()) send(batch);
      const settled = await Promise.allSettled(running);
      for (const outcome of settled) {
        if (outcome.status === 'rejected') firstError ??= fsError('copy files of', options.blobsDir, outcome.reason, 'COPY_FAILED');
      }
      if (firstError) throw firstError;
      options.signal?.throwIfAborted();
      return collect(all, results, skipped, done.bytes);
    },
    async settle() {
      await Promise.allSettled(running);
    },
    get sent() {
      return running.length;
    },
  };
}

function copyFailure(path: string, failure: CopyFailure): HindsightError {
  return fsError('copy', path, Object.assign(new Error(failure.message), { code: failure.code }), 'COPY_FAILED');
}

function collect(
  entries: readonly WalkEntry[],
  results: Map<string, FiledFile | { kind: 'link'; hash: string; size: number }>,
  skipped: string[],
  bytes: number,
): FiledEntries {
  const versions: NewVersion[] = [];
  const stats: StatRow[] = [];
  const blobs = new Map<string, number>();
  for (const entry of entries) {
    const r = results.get(entry.path);
    if (!r) continue;
    blobs.set(r.hash, r.size);
    if (r.kind === 'link') {
      versions.push({ path: entry.path, hash: r.hash, mode: entry.mode, size: r.size, type: 'symlink', target: entry.target });
      stats.push({ ...stamp(entry), type: 'symlink', size: entry.size, mode: entry.mode, hash: r.hash, target: entry.target });
    } else {
      versions.push({ path: entry.path, hash: r.hash, mode: r.mode, size: r.size, type: 'file' });
      stats.push({ path: entry.path, type: 'file', size: r.size, mode: r.mode, mtimeNs: r.mtimeNs, ctimeNs: r.ctimeNs, ino: r.ino, hash: r.hash });
    }
  }
  return { versions, stats, skipped, bytes, blobs: [...blobs].map(([hash, size]) => ({ hash, size })) };
}

function stamp(entry: WalkEntry): Pick<StatRow, 'path' | 'mtimeNs' | 'ctimeNs' | 'ino'> {
  return { path: entry.path, mtimeNs: entry.mtimeNs, ctimeNs: entry.ctimeNs, ino: entry.ino };
}

export function cloneModeFromEnv(env: NodeJS.ProcessEnv = process.env): CloneMode {
  return env.HINDSIGHT_CLONE === 'never' ? 'never' : 'auto';
}

export function progressOf(
  projectId: string,
  phase: Progress['phase'],
  done: { files: number; bytes: number },
  total: { files: number; bytes: number },
): Progress {
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
