import type { CloneMode, FileOutcome } from './fileIntoStore.js';

// Messages between the history process and its copy workers.

export interface CopyJob {
  jobId: number;
  blobsDir: string;
  cloneMode: CloneMode;
  files: string[];
  /** Hashes found missing or damaged: written again when their bytes come by. */
  rewrite?: string[];
}

export interface CopyFailure {
  kind: 'failed';
  code: string;
  message: string;
}

export interface CopyJobResult {
  jobId: number;
  outcomes: (FileOutcome | CopyFailure)[];
  mkdirs: number;
  cloneFallbacks: number;
}
