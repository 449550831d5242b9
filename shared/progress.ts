// Progress of long work, reported to the CLI's bar and the viewer's progress bars alike.

export type ProgressPhase = 'scan' | 'copy' | 'commit' | 'rescan' | 'restore' | 'verify' | 'done';

export interface Progress {
  operation: 'first-copy' | 'rescan' | 'restore' | 'verify';
  projectId: string;
  phase: ProgressPhase;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

/** Fraction done in [0, 1], by bytes when there are any, else by files. */
export function progressFraction(p: Progress): number {
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  if (p.filesTotal > 0) return Math.min(1, p.filesDone / p.filesTotal);
  return p.phase === 'done' ? 1 : 0;
}
