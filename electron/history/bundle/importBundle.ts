import { HindsightError } from '../../../shared/errors.js';
import type { SnapshotInfo } from '../../../shared/history.js';
import type { ImportedRows, VersionRowOut } from '../db/historyIndex.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { TransferMeter } from '../transferMeter.js';
import { closeFailuresError, makeCloser, type Closer } from '../restore/backgroundCloser.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';
import { StoredBlobs } from '../store/storedBlobs.js';
import { bundleCorrupt, type BundleHeader, type BundleSnapshot } from './bundleFormat.js';
import type { ByteReader } from './byteReader.js';
import { ImportBatches } from './importBatches.js';
import { refusal, takeBlobRecords, type TakenBlobs } from './importBlobRecords.js';
import { readEndRecord, type CheckedRows } from './readBundle.js';
import { historyIdOf, setHistoryId } from './historyId.js';

// Applies a bundle to a project's store in one pass over the stream. What it checks before a
// byte is stored: the format and version, the header and the index rows against each other
// (bundleChecks.ts, readBundle.ts, before the folder is even registered), that the history is this project's
// (or the store is empty), and for an incremental bundle that the snapshot it follows and the blobs it requires
// are here (else BUNDLE_PREREQUISITES with the list). Then each blob's head is checked (importBlobRecords.ts), and a
// blob of at most 4 MiB goes with the next ones in a batch to a copy worker (importBatches.ts,
// store/checkAndPlace.ts), which hashes it, writes it to a temp beside its final path and renames
// it into place: this thread only reads the stream and decides what each blob needs. A longer one
// is hashed as it streams here, written to a temp and renamed after its close (the closer of
// restore/backgroundCloser.ts). A blob already stored is only hashed (what is stored comes from one
// listing of the store, store/storedBlobs.ts, not a stat per blob), and one damaged or of the
// wrong length is written again over its file; a blob whose size is not the one its versions
// give it is refused at its head. The index rows are committed
// last, in one transaction, after the end record's counts and digest matched: a bundle cut off
// anywhere leaves the history as it was (blobs placed but named by nothing are invisible, and the
// next import of the same bundle finds them in place). A failure removes the blobs this run
// placed, so a full disk leaves the store exactly as it was. A blob that comes compressed
// (format 4's 'Z' record) is inflated once, no further than its size, and hashed; it is kept as
// it came (never compressed again), and damage in it (a flipped byte, a cut, a bomb) is
// BLOB_CORRUPT naming every version it would have broken.

export interface ImportOutcome {
  /** Snapshots added (ids already present were the same snapshots and are left as they are). */
  added: SnapshotInfo[];
  snapshots: number;
  blobsWritten: number;
  blobsPresent: number;
  bytes: number;
}

/** What must hold before anything is written; throws with what is wrong. */
export function checkPrerequisites(store: ProjectStore, header: BundleHeader, blobs = new StoredBlobs(store.blobs)): void {
  const { index } = store;
  if (index.snapshotReads.latestSnapshotId() !== undefined && historyIdOf(store) !== header.projectId) {
    throw new HindsightError(
      'BUNDLE_OTHER_PROJECT',
      `The bundle holds the history of another project (${header.name}, recorded at ${header.root}); ${store.root} has a history of its own. Import it --as a folder without a history.`,
      { bundleProjectId: header.projectId, projectId: store.projectId, root: store.root },
    );
  }
  if (!header.since) return;
  const base = index.snapshotReads.snapshot(header.since.snapshotId);
  // A prune that folded older snapshots into this one made it the baseline: still the same moment, the same files.
  const missingSnapshot = !base || base.at !== header.since.at || (base.kind !== header.since.kind && base.kind !== 'baseline');
  const missing = header.requires.filter(([hash, size]) => !blobs.has(hash, size));
  if (missingSnapshot || missing.length > 0) {
    const what = [missingSnapshot ? `snapshot ${header.since.snapshotId}` : '', missing.length > 0 ? `${missing.length} stored contents` : '']
      .filter(Boolean)
      .join(' and ');
    throw new HindsightError(
      'BUNDLE_PREREQUISITES',
      `The bundle continues the history after snapshot ${header.since.snapshotId}, and ${store.root}'s history lacks ${what} it builds on. Import the bundle it follows first (or a full export). Nothing was imported.`,
      { snapshotId: header.since.snapshotId, missingSnapshot, missing: missing.map(([hash, size]) => ({ hash, size })) },
    );
  }
}

export async function applyBundle(
  store: ProjectStore,
  reader: ByteReader,
  header: BundleHeader,
  rows: CheckedRows,
  options: { closer?: Closer; background?: boolean; meter?: TransferMeter; signal?: AbortSignal; pool?: CopyPool } = {},
): Promise<ImportOutcome> {
  // Asked once per blob (and per version not carried): one listing of the store, not a stat each.
  const blobs = new StoredBlobs(store.blobs);
  checkPrerequisites(store, header, blobs);
  const { meter, signal } = options;
  checkAgainstHistory(store, rows.snapshots);

  meter?.enter('data', { bytes: header.counts.bytes, files: header.counts.blobs });
  const closer = options.closer ?? makeCloser({ background: options.background });
  const placed: string[] = [];
  // A blob found damaged is not held, whatever its file: the bundle's checked bytes replace it.
  const damaged = new Set(store.index.damage.damagedHashes());
  const repaired: string[] = [];
  const placedOne = (hash: string, rewrite: boolean) => {
    blobs.placed(hash);
    if (rewrite) repaired.push(hash);
    else placed.push(hash);
  };
  // Blobs up to the longest a store keeps compressed are checked and placed on the copy workers.
  const batches = new ImportBatches(options.pool ?? sharedCopyPool(), store.blobs, {
    placed: placedOne,
    refused: (hash, failure) => refusal(store, hash, failure, rows.snapshots),
  });
  try {
    const taken = await takeBlobRecords({ store, reader, header, rows, blobs, batches, closer, damaged, placed: placedOne, meter, signal });
    await batches.finish();
    await readEndRecord(reader, rows, { blobs: taken.carried.length, bytes: taken.outcome.bytes });
    await closer.drain();
    store.index.damage.clearDamaged(repaired);
    if (closer.failures.length > 0) throw closeFailuresError(closer.failures);
    const added = commitRows(store, header, rows, blobs, taken);
    meter?.finish();
    return { added, snapshots: rows.snapshots.length, ...taken.outcome };
  } catch (thrown) {
    // A worker's refusal comes first: it is earlier in the stream than anything read after it.
    const error = (await batches.abandon()) ?? thrown;
    await closer.drain();
    // What this run placed goes again: the store is as it was before the import. A damaged blob
    // it rewrote stays rewritten: its right bytes are better than what was there.
    for (const hash of placed) store.blobs.remove(hash);
    store.index.damage.clearDamaged(repaired);
    if (signal?.aborted) throw new HindsightError('CANCELLED', 'The import was cancelled; the history is as it was.');
    throw error;
  }
}

/** The index rows of the bundle, in one transaction, once every blob they name is here. */
function commitRows(store: ProjectStore, header: BundleHeader, rows: CheckedRows, blobs: StoredBlobs, taken: TakenBlobs): SnapshotInfo[] {
  const { snapshots, folderModes, pins, lines } = rows;
  // Left out where it was written (found damaged there): its versions are imported with their bytes missing here, and said so.
  const named = new Set(taken.carried.map((b) => b.hash));
  const leftOut = (header.leftOut ?? []).filter(([hash, size]) => !named.has(hash) && !blobs.has(hash, size));
  for (const [hash] of leftOut) named.add(hash);
  checkNamedBlobs(blobs, snapshots, named);
  const rowsOfBlobs = [...taken.carried, ...leftOut.map(([hash, size]) => ({ hash, size }))];
  const written: ImportedRows = { snapshots: snapshots.map(toRows), folderModes, pins, lines: lines ?? [], blobs: rowsOfBlobs };
  const added = store.index.bundles.importRows(written);
  for (const [hash] of leftOut) store.index.damage.markDamaged(hash, 'missing');
  setHistoryId(store, header.projectId);
  return added;
}

/** Snapshots the store has already must be the same ones (the same bundle imported again); anything else is a diverged history. */
function checkAgainstHistory(store: ProjectStore, snapshots: readonly BundleSnapshot[]): void {
  for (const s of snapshots) {
    const here = store.index.snapshotReads.snapshot(s.idOnMachine);
    if (!here) continue;
    if (here.kind !== s.kind || here.at !== s.at || here.label !== s.label || here.files !== s.versions.length) {
      throw new HindsightError(
        'HISTORY_DIVERGED',
        `Snapshot ${s.idOnMachine} of the bundle is not snapshot ${s.idOnMachine} of ${store.root}: the two histories went separate ways after a common past. Import it --as a folder without a history. Nothing was imported.`,
        { snapshotId: s.idOnMachine },
      );
    }
  }
}

/** Every version's contents are carried, or already stored. */
function checkNamedBlobs(blobs: StoredBlobs, snapshots: readonly BundleSnapshot[], carried: Set<string>): void {
  for (const s of snapshots) {
    for (const v of s.versions) {
      if (v.hash === null || carried.has(v.hash) || blobs.has(v.hash, v.size)) continue;
      throw bundleCorrupt(`version ${v.versionId} (${v.path}) names contents it does not carry`, { hash: v.hash });
    }
  }
}

function toRows(s: BundleSnapshot): ImportedRows['snapshots'][number] {
  return {
    id: s.idOnMachine,
    kind: s.kind,
    at: s.at,
    label: s.label,
    branch: s.branch,
    head: s.head,
    machine: s.machine?.id ?? null,
    machine_snapshot: s.machine?.snapshot ?? null,
    origin: s.made?.kind ?? null,
    origin_snapshot: s.made?.snapshot ?? null,
    from_git: s.made?.fromGit ?? null,
    git_operation: s.made?.gitOperation ?? null,
    git_when: s.made?.gitWhen ?? null,
    versions: s.versions.map((v): VersionRowOut => [v.versionId, s.idOnMachine, v.path, v.hash, v.mode, v.size, v.type, v.target, v.fromVersion ?? null]),
  };
}
