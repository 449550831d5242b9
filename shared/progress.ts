// Progress of long work, reported to the CLI's bar and the viewer's progress bars alike.

export type ProgressPhase =
  // A first copy walking the folder: filesTotal and bytesTotal are what was found so far and still
  // grow (files already copied count in filesDone); 'copy' follows once the totals are known.
  | 'scan'
  | 'copy'
  | 'commit'
  // A rescan walking the folder and comparing it with the stat cache (no total yet); its 'copy'
  // phase files what changed, against the number of changed paths (0 when nothing changed).
  | 'rescan'
  | 'restore'
  | 'verify'
  // A remote's push: data, then the pack index, then snapshot records, then the head.
  | 'data'
  | 'index'
  | 'snapshots'
  | 'head'
  // A clone or pull: the remote's heads, indexes and records, then the bytes, then the files.
  | 'metadata'
  | 'fetch'
  | 'write'
  // A bundle sent by the page to the browser host, before the import reads it.
  | 'upload'
  | 'done';

export interface Progress {
  /**
   * search-index: the search index build, counting blobs (files) looked at of those within its size limit.
   * compact: a compaction, counting blobs looked at and their raw bytes.
   */
  operation: 'first-copy' | 'rescan' | 'restore' | 'verify' | 'push' | 'pull' | 'clone' | 'materialize' | 'export' | 'import' | 'search-index' | 'compact';
  projectId: string;
  phase: ProgressPhase;
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** Transfers with an object store count objects (packs, blobs, records) besides bytes. */
  objectsDone?: number;
  objectsTotal?: number;
  /** Estimated milliseconds left, from the rate so far; null while there is no rate yet. */
  etaMs?: number | null;
  /** A passing condition worth showing (e.g. "server unreachable, retrying in 2 s"). */
  note?: string;
}

/** Fraction done in [0, 1], by bytes when there are any, else by objects, else by files. */
export function progressFraction(p: Progress): number {
  if (p.bytesTotal > 0) return Math.min(1, p.bytesDone / p.bytesTotal);
  if (p.objectsTotal) return Math.min(1, (p.objectsDone ?? 0) / p.objectsTotal);
  if (p.filesTotal > 0) return Math.min(1, p.filesDone / p.filesTotal);
  return p.phase === 'done' ? 1 : 0;
}
