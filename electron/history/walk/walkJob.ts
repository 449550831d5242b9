import { getPriority } from 'node:os';
import { isHindsightError } from '../../../shared/errors.js';
import type { UnreadablePath } from '../../../shared/history.js';
import { WALK_ENTRIES_PER_MESSAGE, WALK_MESSAGES_AHEAD, type WalkJob, type WalkMessage } from './walkMessages.js';
import { count, resetTrace, traceSnapshot } from '../trace.js';
import { walkFolder, type WalkEntry } from './walkFolder.js';

// A first copy's walk on a copy worker (the pool's side is store/copyPool.ts walk): readdir, lstat and
// the ignore rules cost the history process's main thread nothing. Entries go back (`tell`: the
// worker host's progress under the walk's request) in groups of
// many folders, so the main thread handles one message per WALK_ENTRIES_PER_MESSAGE files rather
// than one per folder. Nothing is kept here once sent: the first copy writes its rows in any
// order (db/stagedBaseline.ts), so the walk holds one group of entries, not every file's.

class WalkStopped extends Error {}

/** Walks `job.root`, telling its entries as they are found; answers the walk's end. */
export async function runWalkJob(job: WalkJob, tell: (entries: WalkEntry[]) => void): Promise<WalkMessage> {
  let pending: WalkEntry[] = [];
  let posted = 0;
  const stopped = () => Atomics.load(job.cancel, 0) !== 0;
  const flush = () => {
    if (pending.length === 0) return;
    waitForPool(job.cancel, posted - WALK_MESSAGES_AHEAD, stopped);
    if (stopped()) throw new WalkStopped();
    tell(pending);
    posted++;
    pending = [];
  };
  const ignored: string[] = [];
  const folderModes = new Map<string, number>();
  const unreadable: UnreadablePath[] = [];
  resetTrace();
  // The niceness the walk runs at (Linux: this thread's own), for the test that it is not lowered.
  count('walk.niceness', getPriority(0));
  try {
    await walkFolder(job.root, {
      exclude: job.exclude,
      skip: job.skip,
      maxFileSize: job.maxFileSize,
      tracked: job.tracked && { files: new Set(job.tracked.files), folders: new Set(job.tracked.folders) },
      ignored,
      folderModes,
      unreadable,
      streamOnly: true,
      onEntries: (found) => {
        if (stopped()) throw new WalkStopped();
        for (const entry of found) pending.push(withoutFileStamp(entry));
        if (pending.length >= WALK_ENTRIES_PER_MESSAGE) flush();
      },
    });
    flush();
    return { kind: 'walked', ignored, folderModes: [...folderModes], unreadable, counts: traceSnapshot() };
  } catch (error) {
    if (error instanceof WalkStopped) return { kind: 'walkFailed', cancelled: true };
    if (isHindsightError(error)) return { kind: 'walkFailed', cancelled: false, error: error.toJSON() };
    return { kind: 'walkFailed', cancelled: false, error: { code: 'INTERNAL', message: (error as Error)?.message ?? String(error) } };
  }
}

/**
 * A regular file's stamp stays here: the first copy records the stamp of the copy worker's own
 * fstat of the bytes it filed (store/fileEntries.ts), never the walk's. Sent, the three strings
 * of every file would be made on the main thread and kept there until the commit, for nothing.
 * A symlink keeps its stamp: it is filed on the main thread from the walk's look.
 */
function withoutFileStamp(entry: WalkEntry): WalkEntry {
  if (entry.type === 'file') {
    entry.mtimeNs = '';
    entry.ctimeNs = '';
    entry.ino = '';
  }
  return entry;
}

/** Blocks this worker until the pool has handled `handled` entry messages, or the walk is stopped. */
function waitForPool(shared: Int32Array, handled: number, stopped: () => boolean): void {
  for (let seen = Atomics.load(shared, 1); seen < handled && !stopped(); seen = Atomics.load(shared, 1)) {
    count('walk.waitsForPool');
    Atomics.wait(shared, 1, seen, 1000);
  }
}
