import { acquireFileLock, type LockHolder } from '../fileLock.js';
import type { HistoryIndex } from '../db/historyIndex.js';
import type { RecoveredRestore } from '../../../shared/history.js';
import { sweepRestoreTemps, type KilledRestore, type RestoreTemps } from './restoreTemps.js';
import { writerLockPath } from '../store/storeLayout.js';
import { noteSwept, sweepDue } from '../store/sweepDue.js';
import type { BlobStore } from '../store/blobStore.js';

// One writer per project at a time, across processes: a first copy, a rescan, a change group, a
// restore or a checkpoint runs holding the store's writer lock (a file lock, fileLock.ts), so two
// processes never both write a baseline or both record the same change. A second writer waits
// while the first lives, then finds the history as the first left it; one that died is taken over.
// Only the writer sweeps temps (blob temps, restore temps in the project): any it finds belong to
// a writer that is gone. It sweeps on its first turn in this process and after each takeover; the
// blob temps (257 folders to read) only after a takeover or when a day has passed since their last
// sweep (store/sweepDue.ts), since without a dead writer there is rarely one to find. A snapshot
// restore that died midway is completed or put back first (restore/restoreRecovery.ts, which
// restore/ sits above this folder, so the registry passes it in: StoreOptions.recoverRestore),
// before the work that took the lock (an open's catch-up), and what was done is kept in `recovered`.

export interface WriterWait {
  /** Stops waiting for another writer (its reason is thrown). */
  signal?: AbortSignal;
  /** Told once, when another live process holds the lock and this one waits for it. */
  onWait?: (holder: LockHolder) => void;
}

export type { LockHolder };

/** Completes or puts back a restore a killed writer left (restore/restoreRecovery.ts `recoverRestore`). */
export type RestoreRecovery = (store: { root: string; blobs: BlobStore; index: HistoryIndex }, killed: KilledRestore, temps: RestoreTemps) => RecoveredRestore;

export class WriterLock {
  private swept = false;
  /** The killed restores this process's sweeps completed or put back, oldest first. */
  readonly recovered: RecoveredRestore[] = [];

  constructor(private readonly store: { storeDir: string; blobs: BlobStore; root: string; index?: HistoryIndex; recoverRestore?: RestoreRecovery }) {}

  async hold<T>(work: () => Promise<T>, wait: WriterWait = {}): Promise<T> {
    const lock = await acquireFileLock(writerLockPath(this.store.storeDir), {
      label: 'writer lock of the history',
      counter: 'writer',
      failCode: 'INTERNAL',
      signal: wait.signal,
      onWait: wait.onWait,
    });
    try {
      if (!this.swept || lock.tookOver) {
        if (lock.tookOver || sweepDue(this.store.storeDir)) this.sweepBlobTemps();
        const { index, root, blobs, recoverRestore } = this.store;
        const recover =
          index &&
          recoverRestore &&
          ((killed: KilledRestore, temps: RestoreTemps) => {
            this.recovered.push(recoverRestore({ root, blobs, index }, killed, temps));
          });
        sweepRestoreTemps(this.store.storeDir, root, recover);
        this.swept = true;
      }
      return await work();
    } finally {
      lock.release();
    }
  }

  private sweepBlobTemps(): void {
    this.store.blobs.sweepTemps();
    noteSwept(this.store.storeDir);
  }
}
