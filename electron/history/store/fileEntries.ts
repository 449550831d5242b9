import { HindsightError } from '../../../shared/errors.js';
import type { UnreadablePath } from '../../../shared/history.js';
import type { NewBlob, NewVersion, StatRow } from '../db/historyIndex.js';
import { sharedCopyPool, type CopyPool } from './copyPool.js';
import type { CloneMode } from './fileIntoStore.js';
import type { BlobStore } from './blobStore.js';
import type { CopyFailure } from './copyProtocol.js';
import { FiledFiles } from './filedFiles.js';
import { packedKind, packedRepaired, packedSize, type PackedOutcomes } from './packedOutcomes.js';
import { fsError } from '../fsErrors.js';
import { count } from '../trace.js';
import { FilingBacklog } from './filingBacklog.js';
import type { StatStamp } from '../statStamp.js';
import type { WalkEntry } from '../walk/walkFolder.js';
import { BatchPlanner } from './planBatches.js';

// Files walked entries into the blob store through the shared copy workers and returns what the
// index needs: versions, blobs and stat rows. The first copy, the rescans, the change groups and
// the capture before a restore all file through here. Entries can be added while the walk is still going,
// so the workers copy while the main thread walks. It waits for every copy to settle before it
// reports the first failure, so no copy is still writing when the caller decides what to keep.

export interface FiledEntries {
  versions: NewVersion[];
  /** A blob filed in chunks comes with its chunks (the index records them). */
  blobs: NewBlob[];
  stats: StatRow[];
  skipped: string[];
  /** Files there but not readable: no version, no stat row (so the next scan tries them again). */
  unreadable: UnreadablePath[];
  bytes: number;
  /** Hashes of `damaged` whose right bytes were filed again: their marks can go. */
  repaired: string[];
}

export interface FileEntriesOptions {
  blobs: BlobStore;
  pool?: CopyPool;
  cloneMode?: CloneMode;
  signal?: AbortSignal;
  onProgress?: (done: { files: number; bytes: number }) => void;
  /** Slot priority of every batch (lower first; see CopySlots). */
  priority?: number;
  /** Blobs found missing or damaged (index.damage.damagedHashes()): rewritten, not trusted, when their bytes are filed. */
  damaged?: readonly string[];
  /**
   * The blobs already stored (index.blobRecords.trustedHashes(): damaged and marked ones left out). Given,
   * whether a blob is stored is answered from it instead of a look at each blob path.
   */
  known?: readonly string[];
  /**
   * Told each entry's rows as its result arrives, instead of keeping them for `finish` (which then
   * answers no versions, stats nor blobs): a first copy writes them in batches (store/baselineBatches.ts).
   */
  onFiled?: (entry: WalkEntry, rows: FiledRows) => void;
}

/** The rows the index records for one filed entry: its version, its stat row, and the blob it names. */
export interface FiledRows {
  version: NewVersion;
  stat: StatRow;
  blob: NewBlob;
  /** This filing placed the blob's file (its stored size is known), rather than finding it stored. */
  placed: boolean;
}

let nextKnownId = 1;

export async function fileEntries(entries: readonly WalkEntry[], options: FileEntriesOptions): Promise<FiledEntries> {
  const filing = startFiling(options);
  filing.add(entries);
  return filing.finish(entries);
}

export interface Filing {
  /** Files entries as they are found: full batches go to the copy workers at once. */
  add: (entries: readonly WalkEntry[]) => void;
  /** Sends the last batch, waits for every copy to settle, and collects the results in `all`'s order. */
  finish: (all: readonly WalkEntry[]) => Promise<FiledEntries>;
  /** Waits for the copies already sent to settle (before giving up on a walk that failed). */
  settle: () => Promise<void>;
  /** Batches sent to the copy workers so far. */
  readonly sent: number;
  /**
   * Settles once fewer than `files` files wait to be filed (sent or planned, not yet answered);
   * undefined when that is so already. What a walk that feeds the filing waits for before it is
   * told to go on, so the entries it found hold at most about that many files' worth of memory.
   */
  backlogBelow: (files: number) => Promise<void> | undefined;
}

/** A filing that starts copying before the whole list is known (the first copy feeds it from the walk). */
export function startFiling(options: FileEntriesOptions): Filing {
  const pool = options.pool ?? sharedCopyPool();
  const cloneMode = options.cloneMode ?? cloneModeFromEnv();
  const tally: FilingTally = { filed: new FiledFiles(), skipped: [], unreadable: [], done: { files: 0, bytes: 0 }, repaired: new Set<string>() };
  const { filed, skipped, unreadable, done, repaired } = tally;
  const links = new Map<string, FiledLink>();
  const planner = new BatchPlanner<WalkEntry>();
  const running: Promise<void>[] = [];
  const rewrite = [...(options.damaged ?? [])];
  const rewriteSet = new Set(rewrite);
  const knownList = options.known ? { id: nextKnownId++, hashes: options.known } : undefined;
  // This thread's copy, for link targets; kept current with what the workers file.
  const knownHere = options.known ? new Set(options.known) : undefined;
  // The workers' hashes are added to it only when a link needs it (rare): no string per file before the rows.
  let knownThrough = 0;
  const knownNow = () => {
    if (knownHere) for (const hash of filed.hashesFrom(knownThrough)) knownHere.add(hash);
    knownThrough = filed.count;
    return knownHere;
  };

  const backlog = new FilingBacklog();

  const send = (batch: WalkEntry[]) => {
    const copying = (async () => {
      if (options.signal?.aborted || tally.firstError) return;
      const result = await pool.run(
        { blobsDir: options.blobs.dir, cloneMode, files: batch.map((f) => f.abs), rewrite, known: knownList },
        options.priority,
        options.signal,
      );
      count('copy.mkdirs', result.mkdirs);
      count('copy.cloneFallbacks', result.cloneFallbacks);
      takeBatch(tally, batch, result.outcomes, options.onFiled, knownHere);
      options.onProgress?.(done);
    })();
    // Looked at by finish or settle once the walk is over; until then a batch that fails (a cancel
    // while it waited for a slot) must not count as an unhandled rejection.
    copying.catch(() => undefined);
    void copying.finally(() => backlog.answered(batch.length)).catch(() => undefined);
    running.push(copying);
  };

  return {
    add(entries) {
      for (const entry of entries) {
        if (entry.type === 'symlink') {
          const bytes = Buffer.from(entry.target ?? '', 'utf8');
          const { hash, repaired: rewritten, stored } = options.blobs.put(bytes, { rewrite: rewriteSet, known: knownNow() });
          if (rewritten) repaired.add(hash);
          const link: FiledLink = { kind: 'link', hash, size: bytes.length, stored };
          if (options.onFiled) options.onFiled(entry, linkRows(entry, link));
          else links.set(entry.path, link);
          done.files++;
        } else if (entry.type === 'file') {
          backlog.added(1);
          for (const batch of planner.push(entry)) send(batch);
        }
      }
    },
    backlogBelow(files) {
      // The planner's last, partly filled batch goes now: waiting on it would wait forever.
      if (backlog.count >= files) for (const batch of planner.flush()) send(batch);
      return backlog.below(files);
    },
    async finish(all) {
      for (const batch of planner.flush()) send(batch);
      const settled = await Promise.allSettled(running);
      for (const outcome of settled) {
        if (outcome.status === 'rejected') tally.firstError ??= fsError('copy files of', options.blobs.dir, outcome.reason, 'COPY_FAILED');
      }
      // Cancelled: that is the answer, whatever the copies stopped midway reported.
      options.signal?.throwIfAborted();
      if (tally.firstError) throw tally.firstError;
      return { ...collect(all, filed, links, skipped, done.bytes), unreadable, repaired: [...repaired] };
    },
    async settle() {
      await Promise.allSettled(running);
    },
    get sent() {
      return running.length;
    },
  };
}

/** What a filing has gathered so far: each batch's results land here as they arrive. */
interface FilingTally {
  filed: FiledFiles;
  skipped: string[];
  unreadable: UnreadablePath[];
  done: { files: number; bytes: number };
  repaired: Set<string>;
  firstError?: HindsightError;
}

/** Sorts one batch's outcomes into the tally; rows handed on as they come (`onFiled`) are held only for this batch. */
function takeBatch(
  tally: FilingTally,
  batch: readonly WalkEntry[],
  packed: PackedOutcomes,
  onFiled: FileEntriesOptions['onFiled'],
  knownHere: Set<string> | undefined,
): void {
  const details = packed.details.length === 0 ? undefined : new Map(packed.details.map((d) => [d.at, d]));
  const into = onFiled ? new FiledFiles() : tally.filed;
  const repairedSlots: number[] = [];
  const filedHere: WalkEntry[] = [];
  for (let i = 0; i < batch.length; i++) {
    const entry = batch[i]!;
    const kind = packedKind(packed, i);
    if (kind === 'filed') {
      const slot = into.add(entry.path, packed, i, details?.get(i)?.chunks);
      if (onFiled) filedHere.push(entry);
      if (packedRepaired(packed, i)) repairedSlots.push(slot);
      tally.done.files++;
      tally.done.bytes += packedSize(packed, i);
    } else if (kind === 'failed') {
      tally.firstError ??= copyFailure(entry.path, details!.get(i)!.failure!);
    } else if (kind === 'cancelled') {
      count('copy.cancelled');
    } else if (kind === 'unreadable') {
      count('copy.unreadable');
      tally.unreadable.push({ path: entry.path, reason: details!.get(i)!.reason! });
    } else {
      tally.skipped.push(entry.path);
    }
  }
  into.addText(packed.text);
  for (const slot of repairedSlots) tally.repaired.add(into.hashOf(slot));
  if (onFiled) handOn(into, filedHere, onFiled, knownHere);
  for (const [method, files] of Object.entries(packed.methods)) {
    count('copy.files', files);
    count(`copy.${method}`, files);
  }
}

/** A symlink filed here: its target's bytes, and their file's bytes on disk when this filing placed it. */
interface FiledLink {
  kind: 'link';
  hash: string;
  size: number;
  stored: number | undefined;
}

function copyFailure(path: string, failure: Pick<CopyFailure, 'code' | 'message'>): HindsightError {
  return fsError('copy', path, Object.assign(new Error(failure.message), { code: failure.code }), 'COPY_FAILED');
}

function collect(
  entries: readonly WalkEntry[],
  filed: FiledFiles,
  links: Map<string, FiledLink>,
  skipped: string[],
  bytes: number,
): Omit<FiledEntries, 'unreadable' | 'repaired'> {
  const versions: NewVersion[] = [];
  const stats: StatRow[] = [];
  const blobs = new Map<string, NewBlob>();
  for (const entry of entries) {
    const slot = filed.slotOf(entry.path);
    if (slot !== undefined) {
      const version = filed.version(slot, entry.path);
      // The bytes on disk of the file this filing placed; a blob already stored keeps what its row says.
      if (filed.storedOf(slot) !== undefined || !blobs.has(version.hash!)) blobs.set(version.hash!, filed.blob(slot));
      versions.push(version);
      stats.push(filed.stat(slot, entry.path));
      continue;
    }
    const link = links.get(entry.path);
    if (!link) continue;
    const rows = linkRows(entry, link);
    if (rows.placed || !blobs.has(link.hash)) blobs.set(link.hash, rows.blob);
    versions.push(rows.version);
    stats.push(rows.stat);
  }
  return { versions, stats, skipped, bytes, blobs: [...blobs.values()] };
}

/** A batch's filed files handed on as rows (their hashes known to this thread's set, for link targets). */
function handOn(batch: FiledFiles, entries: readonly WalkEntry[], onFiled: (entry: WalkEntry, rows: FiledRows) => void, known: Set<string> | undefined): void {
  entries.forEach((entry, slot) => {
    const version = batch.version(slot, entry.path);
    known?.add(version.hash!);
    onFiled(entry, { version, stat: batch.stat(slot, entry.path), blob: batch.blob(slot), placed: batch.storedOf(slot) !== undefined });
  });
}

function linkRows(entry: WalkEntry, link: FiledLink): FiledRows {
  return {
    version: { path: entry.path, hash: link.hash, mode: entry.mode, size: link.size, type: 'symlink', target: entry.target },
    stat: { path: entry.path, type: 'symlink', ...stampOf(entry), hash: link.hash, target: entry.target },
    blob: { hash: link.hash, size: link.size, ...(link.stored === undefined ? {} : { storedSize: link.stored }) },
    placed: link.stored !== undefined,
  };
}

function stampOf(from: StatStamp): StatStamp {
  return { size: from.size, mode: from.mode, mtimeNs: from.mtimeNs, ctimeNs: from.ctimeNs, ino: from.ino };
}

export function cloneModeFromEnv(env: NodeJS.ProcessEnv = process.env): CloneMode {
  if (env.HINDSIGHT_CLONE === 'never' || env.HINDSIGHT_CLONE === 'clone') return env.HINDSIGHT_CLONE;
  return 'auto';
}
