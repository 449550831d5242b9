import type { OpenResult } from '../../../shared/history.js';
import { throttleProgress, type ProgressSink } from '../progressThrottle.js';
import type { ProjectStore } from '../project/projectStore.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';
import type { CloneMode } from '../store/fileIntoStore.js';
import { walkFolder } from '../walk/walkFolder.js';
import { fileEntries, progressOf } from './fileEntries.js';

// A project's first copy: every file into the blob store, then the baseline in one transaction.
// Nothing names a blob until every copy has settled and the folder is known to be the same one,
// so a process killed at any point leaves no baseline, and the next open simply runs this again
// (blobs already stored are found and kept).

export interface FirstCopyOptions {
  exclude?: readonly string[];
  onProgress?: ProgressSink;
  signal?: AbortSignal;
  pool?: CopyPool;
  cloneMode?: CloneMode;
}

export async function firstCopy(store: ProjectStore, options: FirstCopyOptions = {}): Promise<OpenResult> {
  const started = performance.now();
  const scanStartedAt = Date.now();
  const progress = throttleProgress(options.onProgress);
  progress.finish(progressOf(store.projectId, 'scan', { files: 0, bytes: 0 }, { files: 0, bytes: 0 }));
  (options.pool ?? sharedCopyPool()).prestart();
  const entries = await walkFolder(store.root, { exclude: options.exclude, signal: options.signal });
  const total = { files: entries.length, bytes: entries.reduce((sum, e) => sum + (e.type === 'file' ? e.size : 0), 0) };

  const filed = await fileEntries(entries, {
    blobsDir: store.blobsDir,
    pool: options.pool,
    cloneMode: options.cloneMode,
    signal: options.signal,
    onProgress: (done) => progress.update(progressOf(store.projectId, 'copy', done, total)),
  });

  // Checked once, at the end: a folder that vanished or was replaced meanwhile writes no baseline.
  store.assertFolderUnchanged();
  progress.finish(progressOf(store.projectId, 'commit', { files: filed.versions.length, bytes: filed.bytes }, total));
  store.index.commitSnapshot({ kind: 'baseline', label: 'Baseline' }, filed.versions, filed.blobs, filed.stats);
  store.index.setMeta('lastScanAt', String(scanStartedAt));
  const totals = store.index.blobTotals();
  progress.finish(progressOf(store.projectId, 'done', { files: filed.versions.length, bytes: filed.bytes }, total));
  return {
    projectId: store.projectId,
    root: store.root,
    files: filed.versions.length,
    bytes: filed.bytes,
    blobs: totals.blobs,
    ms: Math.round(performance.now() - started),
    firstCopy: true,
  };
}
