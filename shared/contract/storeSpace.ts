import type { SearchIndexStats } from './search.js';
import type { LargestFile } from './values.js';

// What a project's store holds (its stats, its growth) and what a compaction did to it.

export interface StoreStats {
  projectId: string;
  snapshots: number;
  versions: number;
  /** Distinct contents stored, and their bytes as the files are (their bytes on disk: density.storedBytes). */
  blobs: number;
  blobBytes: number;
  /** What every version would take if each were stored apart. */
  logicalBytes: number;
  /** logicalBytes - blobBytes: what content addressing saved. */
  dedupeSavedBytes: number;
  largestFiles: LargestFile[];
  /** The full-text index of every version's contents (see SearchIndexProgress). */
  searchIndex: SearchIndexStats;
  /** What compression saves, and what that means for the budget. */
  density: StoreDensity;
  /** Everything the history takes on disk now, in allocated blocks (see StoreDisk). */
  disk: StoreDisk;
}

/**
 * What `<data-dir>/projects/<id>` takes on disk, as `du -s --block-size=1` counts it: allocated
 * blocks (st_blocks * 512: a 100-byte blob takes a whole block), every file and folder, each
 * inode once. `totalBytes` is the sum of the parts; `searchIndexBytes` is part of `indexBytes`.
 */
export interface StoreDisk {
  totalBytes: number;
  /** The blob files, their folders, and how many files that is. */
  blobBytes: number;
  blobFiles: number;
  /** history.db with its -wal and -shm, and (within it) the search index's pages. */
  indexBytes: number;
  searchIndexBytes: number;
  /** The index's backup. */
  backupBytes: number;
  /** Writes in progress or left by a killed process (blob temps, a restore's journal). */
  tempBytes: number;
  /** The rest: the store folder itself, its locks and markers. */
  otherBytes: number;
}

/**
 * The blobs' bytes as the files are (raw) against their bytes on disk (a compressed blob counted
 * as its compressed file; a blob whose file was not measured yet as its raw size), and how many
 * versions the budget holds at today's density against what it would hold uncompressed.
 */
export interface StoreDensity {
  rawBytes: number;
  storedBytes: number;
  /** rawBytes - storedBytes. */
  savedBytes: number;
  /** storedBytes / rawBytes (1 when there are none): 0.4 means 40% of the raw bytes are on disk. */
  ratio: number;
  /** Blobs by form: compressed, raw, and not measured yet (a compaction measures them). */
  blobsCompressed: number;
  blobsRaw: number;
  blobsUnmeasured: number;
  /** Raw blobs a compaction would still look at, and their bytes. */
  compactable: number;
  compactableBytes: number;
  /** The historyBudget setting; null: no budget (and the two estimates below are null). */
  budget: number | null;
  /** About how many versions the budget holds at the store's density, and uncompressed. */
  versionsInBudget: number | null;
  versionsInBudgetUncompressed: number | null;
}

/**
 * A compaction (`hindsight compact`, or the app's in the background): raw blobs looked at where
 * compression may pay, and what became of them. With dryRun nothing is written: `converted`,
 * `rawBytes`, `storedBytes` and `savedBytes` say what a run would do.
 */
export interface CompactResult {
  projectId: string;
  dryRun: boolean;
  /** Blobs to look at when the run began, and their raw bytes. */
  candidates: number;
  candidateBytes: number;
  /** Blobs looked at by this run. */
  looked: number;
  /** Converted to the compressed form (or would be): how many, their raw bytes, their bytes compressed, the difference. */
  converted: number;
  rawBytes: number;
  storedBytes: number;
  savedBytes: number;
  /** Found not worth compressing: kept raw, never looked at again. */
  keptRaw: number;
  /** Found compressed already (a run stopped between its rename and its record): recorded. */
  alreadyCompressed: number;
  /** Not on this disk (a clone's older versions): left alone. */
  absent: number;
  /** Bytes not those of their name: left for verify --repair (and marked damaged). */
  damaged: number;
  /** Stopped before the end (a cancel, SIGINT or SIGTERM, the store closing): the next run goes on from there. */
  stopped: boolean;
  ms: number;
}
