import type { UnreadablePath } from '../../../shared/history.js';
import type { CopyPool } from '../store/copyPool.js';
import type { WalkEntry, WalkOptions } from '../walk/walkFolder.js';
import { appendAll } from '../../../shared/largeArrays.js';

// A first copy's walk, run on one of the copy pool's workers instead of this thread: readdir,
// lstat and the ignore rules of every folder are the largest part of a first copy's main-thread
// work after the commit, and a copy worker is already booting while the walk starts. Entries are
// only handed on as they arrive (the first copy files them and writes their rows in batches), never
// gathered here; the lists walkFolder fills are filled the same way. A regular file comes without
// its stamp (walk/walkJob.ts: the copy worker's own fstat is the one recorded).

export interface WalkInWorkerOptions {
  exclude?: readonly string[];
  skip?: string;
  maxFileSize?: number | null;
  tracked?: WalkOptions['tracked'];
  signal?: AbortSignal;
  ignored: string[];
  folderModes: Map<string, number>;
  unreadable: UnreadablePath[];
  /**
   * Told each group of entries as it arrives (unsorted), so copying starts before the walk ends;
   * a promise answered holds the walk back until it settles (CopyPool.walk).
   */
  onEntries: (entries: WalkEntry[]) => Promise<void> | void;
}

export async function walkInWorker(pool: CopyPool, root: string, options: WalkInWorkerOptions): Promise<void> {
  const ended = await pool.walk(
    {
      root,
      exclude: options.exclude,
      skip: options.skip,
      maxFileSize: options.maxFileSize,
      tracked: options.tracked && { files: [...options.tracked.files], folders: [...options.tracked.folders] },
    },
    (entries) => {
      // A name that is not UTF-8 crosses as its bytes, which arrive as a Uint8Array.
      for (const entry of entries) if (typeof entry.abs !== 'string') entry.abs = Buffer.from(entry.abs.buffer, entry.abs.byteOffset, entry.abs.byteLength);
      return options.onEntries(entries);
    },
    options.signal,
  );
  appendAll(options.ignored, ended.ignored);
  for (const [path, mode] of ended.folderModes) options.folderModes.set(path, mode);
  appendAll(options.unreadable, ended.unreadable);
}
