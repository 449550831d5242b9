// What a history search answers: its index's progress, the places it found, what it could not read.

/** How far the search index is: contents indexed (text, or found binary) of those within the size limit. */
export interface SearchIndexProgress {
  indexedBlobs: number;
  totalBlobs: number;
  done: boolean;
}

export interface SearchIndexStats extends SearchIndexProgress {
  /** Bytes of the text contents indexed, and of the index on disk (its ratio is the index's cost). */
  textBytes: number;
  indexBytes: number;
}

/** One place a search found its text: a line (from 1) and a column (from 1, UTF-16 code units). */
export interface SearchMatch {
  line: number;
  column: number;
  /** The matched text's length (UTF-16 code units; 0 for an empty regex match). */
  length: number;
  /** The line, cut around the match when it is long. */
  preview: string;
  /** Where the match lies in `preview` (UTF-16 offsets, clipped to the line shown): what the viewer marks. */
  previewFrom: number;
  previewTo: number;
}

export interface SearchVersionRef {
  versionId: number;
  snapshotId: number;
  at: number;
}

/** One file and one content holding the text: every version of that path with that content, newest first. */
export interface SearchHit {
  path: string;
  versions: SearchVersionRef[];
  /** When the first and the last of those versions were recorded. */
  firstSeen: number;
  lastSeen: number;
  /** Whether the file's latest version still holds the text (false: deleted, or the text is gone from it). */
  stillPresent: boolean;
  matches: SearchMatch[];
}

export interface SearchResult {
  /** False when the query was too short for the index (under 3 characters, or a regex without a 3-character literal) and every candidate was read. */
  indexed: boolean;
  /** How far the index was built; what it did not cover yet was read instead. */
  index: SearchIndexProgress;
  /** Newest first (by lastSeen). */
  results: SearchHit[];
  /** More hits exist than the limit asked for. */
  truncated: boolean;
  /** The versions the search had to skip because their stored contents are missing or damaged: they may hold the text. */
  unreadable: SearchUnreadable;
}

/** What a search could not read: every version skipped is counted, the first files are named. */
export interface SearchUnreadable {
  /** How many versions were skipped (of the groups the search reached before it stopped at its limit). */
  versions: number;
  /** Their files, in the order the search met them, each with its versions skipped, newest first (at most 100 files named). */
  files: SearchUnreadableFile[];
}

export interface SearchUnreadableFile {
  path: string;
  versions: SearchVersionRef[];
}
