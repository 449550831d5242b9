import type { FirstCopyOptions } from './copy/firstCopy.js';
import type { WriterWait } from './project/writerLock.js';
import type { BackgroundCloseSetting } from './restore/backgroundCloser.js';
import type { BlobSource } from './restore/materializeSnapshot.js';
import type { PlanOptions } from './restore/planRestore.js';
import type { ExecuteOptions } from './restore/restoreSnapshot.js';
import type { RescanOptions } from './versions/rescan.js';

// The options of the engine's calls that are more than the contract's request (historyEngine.ts):
// what a caller in this process may add (a signal, an operation id, a copy pool, a closer).

/**
 * What any long operation takes: the caller's id (its progress events carry it), a signal that
 * cancels it, and who to tell when another process is writing the same history and it waits.
 */
export interface OperationOptions extends Pick<WriterWait, 'onWait'> {
  operationId?: string;
  signal?: AbortSignal;
}

export interface OpenOptions extends OperationOptions, Pick<FirstCopyOptions, 'exclude' | 'pool' | 'cloneMode'> {
  /** Record changes live from now on (the app and the browser host do; the CLI's one-shot commands do not). */
  watch?: boolean;
  /** The user confirmed a first copy past the largeFolderFiles / largeFolderBytes settings. */
  confirmLarge?: boolean;
  /**
   * The data folder's recorder watches the project and wrote every change it heard up to this
   * time (recorderClient.ts's askToFlush): a reopen reads history.db as it is, with no rescan.
   */
  writtenThrough?: number;
}

export interface ExportOptions extends OperationOptions {
  /** Only the snapshots after this one (an incremental bundle). */
  since?: number;
  /** Leave out contents found damaged or missing (named in the answer) instead of refusing the export. */
  skipDamaged?: boolean;
}

export type EngineRescanOptions = OperationOptions & Omit<RescanOptions, 'signal' | 'onProgress' | 'beforeCommit'>;

export interface SnapshotRestoreOptions extends OperationOptions, PlanOptions, Pick<ExecuteOptions, 'closer' | 'backgroundClose'> {
  /** Only the preview (nothing is written or recorded). */
  dryRun?: boolean;
}

export interface MaterializeOptions extends OperationOptions {
  /** Where the bytes come from (default: the project's store). */
  source?: BlobSource;
  /** The backgroundClose setting for this run; HINDSIGHT_BACKGROUND_CLOSE still wins over it. */
  backgroundClose?: BackgroundCloseSetting;
  /** Keep setuid/setgid/sticky bits that came from another history (restore/specialModes.ts). */
  keepSpecialModes?: boolean;
}
