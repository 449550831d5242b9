import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { HindsightError } from '../../../shared/errors.js';
import type { SnapshotInfo } from '../../../shared/history.js';
import type { ImportedRows, VersionRowOut } from '../db/historyIndex.js';
import { fsError } from '../fsErrors.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { TransferMeter } from '../remote/transferMeter.js';
import { closeFailuresError, makeCloser, type Closer } from '../restore/backgroundCloser.js';
import { COMPRESS_UP_TO } from '../store/blobCodec.js';
import { sharedCopyPool, type CopyPool } from '../store/copyPool.js';
import { PLACE_CHECK, PLACE_COMPRESSED, PLACE_REWRITE, PLACE_WRITE, type PlaceFailure } from '../store/copyProtocol.js';
import type { BlobWrite } from '../store/blobStore.js';
import type { BlobForm } from '../store/storeLayout.js';
import { ImportBatches } from './importBatches.js';
import { StoredBlobs } from '../store/storedBlobs.js';
import { count } from '../trace.js';
import {
  BLOB_HEAD,
  bundleCorrupt,
  COMPRESSED_HEAD,
  COMPRESSED_RECORDS_FROM,
  endSchema,
  FORMAT_NAME,
  FORMAT_VERSION,
  headerSchema,
  pinsRecordSchema,
  linesRecordSchema,
  READABLE_VERSIONS,
  KIND,
  MAX_JSON_RECORD,
  modesRecordSchema,
  snapshotsRecordSchema,
  type BundleHeader,
  type BundleLine,
  type BundlePins,
  type BundleSnapshot,
} from './bundleFormat.js';
import type { ByteReader } from './byteReader.js';
import { sizeProblem } from '../remote/layout/recordChecks.js';
import { checkBundleHeader, checkBundleRows } from './bundleChecks.js';
import { historyIdOf, setHistoryId } from './historyId.js';
import { appendAll } from '../../../shared/largeArrays.js';

// Applies a bundle to a project's store in one pass over the stream. What it checks before a
// byte is stored: the format and version, the header and the index rows against each other
// (bundleChecks.ts, before the folder is even registered), that the history is this project's
// (or the store is empty), and for an incremental bundle that the snapshot it follows and the blobs it requires
// are here (else BUNDLE_PREREQUISITES with the list). Then each blob's head is checked here, and a
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

/** The first line and the header record. */
export async function readHeader(reader: ByteReader): Promise<BundleHeader> {
  const name = `${FORMAT_NAME} `;
  const first = await reader.read(name.length, 'its first line').catch((error: unknown) => {
    throw error instanceof HindsightError && error.code === 'BUNDLE_CORRUPT'
      ? bundleCorrupt('it is not a Hindsight bundle (it is shorter than a first line)')
      : error;
  });
  if (first.toString('latin1') !== name) throw bundleCorrupt('it is not a Hindsight bundle (its first line does not name the format)');
  let digits = '';
  for (;;) {
    const byte = (await reader.read(1, 'its first line'))[0]!;
    if (byte === 0x0a) break;
    if (byte < 0x30 || byte > 0x39 || digits.length >= 9) throw bundleCorrupt('its format version is not a number');
    digits += String.fromCharCode(byte);
  }
  const version = Number(digits);
  if (!READABLE_VERSIONS.includes(version)) {
    throw new HindsightError(
      'BUNDLE_VERSION',
      `The bundle has format version ${version}; this Hindsight reads format versions up to ${FORMAT_VERSION}${version > FORMAT_VERSION ? ' (it was made by a newer Hindsight: update to import it)' : ''}. Nothing was imported.`,
      { version, supported: FORMAT_VERSION },
    );
  }
  if ((await reader.peek()) !== KIND.header) throw bundleCorrupt('it has no header');
  const header = await readJson(reader, KIND.header, headerSchema, 'the header');
  if (header.version !== version) throw bundleCorrupt(`its header says format version ${header.version}, its first line ${version}`);
  checkBundleHeader(header);
  return header;
}

/** What must hold before anything is written; throws with what is wrong. */
export function checkPrerequisites(store: ProjectStore, header: BundleHeader, blobs = new StoredBlobs(store.blobs)): void {
  const { index } = store;
  if (index.latestSnapshotId() !== undefined && historyIdOf(store) !== header.projectId) {
    throw new HindsightError(
      'BUNDLE_OTHER_PROJECT',
      `The bundle holds the history of another project (${header.name}, recorded at ${header.root}); ${store.root} has a history of its own. Import it --as a folder without a history.`,
      { bundleProjectId: header.projectId, projectId: store.projectId, root: store.root },
    );
  }
  if (!header.since) return;
  const base = index.snapshot(header.since.snapshotId);
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

/**
 * The index rows, read before anything is registered or written (they come before the blobs),
 * and checked against each other (bundleChecks.ts): answers them with the size each hash they
 * name must have.
 */
export async function readRows(reader: ByteReader, header: BundleHeader, options: { meter?: TransferMeter; signal?: AbortSignal } = {}): Promise<CheckedRows> {
  const { meter, signal } = options;
  meter?.enter('index', { files: header.snapshots.count });
  const snapshots: BundleSnapshot[] = [];
  const folderModes: [string, number, number][] = [];
  // Format 1 carried no pins: null asks the import to pin the checkpoints a person made.
  const pins: BundlePins | null = header.version === 1 ? null : { snapshots: [], versions: [] };
  // Format 3 carries the lines of history; before it everything lands on this machine's line.
  const lines: BundleLine[] | null = header.version >= 3 ? [] : null;
  const rowKinds: number[] = [KIND.snapshots, KIND.modes, ...(pins ? [KIND.pins] : []), ...(lines ? [KIND.lines] : [])];
  for (let kind = await reader.peek(); kind !== undefined && rowKinds.includes(kind); kind = await reader.peek()) {
    signal?.throwIfAborted();
    if (kind === KIND.snapshots) {
      const record = await readJson(reader, KIND.snapshots, snapshotsRecordSchema, 'a snapshot record');
      appendAll(snapshots, record);
      meter?.add({ files: record.length });
    } else if (kind === KIND.modes) {
      appendAll(folderModes, await readJson(reader, KIND.modes, modesRecordSchema, 'a folder-mode record'));
    } else if (kind === KIND.lines) {
      appendAll(lines!, await readJson(reader, KIND.lines, linesRecordSchema, 'the lines record'));
    } else {
      const record = await readJson(reader, KIND.pins, pinsRecordSchema, 'a pin record');
      appendAll(pins!.snapshots, record.snapshots);
      appendAll(pins!.versions, record.versions);
    }
  }
  const rows = { snapshots, folderModes, pins, lines };
  return { ...rows, sizes: checkBundleRows(header, rows) };
}

/** Rows read and checked, with the size each hash they name must have. */
export interface CheckedRows {
  snapshots: BundleSnapshot[];
  folderModes: [string, number, number][];
  pins: BundlePins | null;
  /** Null before format 3: everything lands on this machine's line. */
  lines: BundleLine[] | null;
  sizes: ReadonlyMap<string, number>;
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
  const { snapshots, folderModes, pins, lines, sizes } = rows;
  checkAgainstHistory(store, snapshots);

  meter?.enter('data', { bytes: header.counts.bytes, files: header.counts.blobs });
  const closer = options.closer ?? makeCloser({ background: options.background });
  const placed: string[] = [];
  const carried: { hash: string; size: number }[] = [];
  const outcome = { blobsWritten: 0, blobsPresent: 0, bytes: 0 };
  // A blob found damaged is not held, whatever its file: the bundle's checked bytes replace it.
  const damaged = new Set(store.index.damagedHashes());
  const repaired: string[] = [];
  const placedOne = (hash: string, rewrite: boolean) => {
    blobs.placed(hash);
    if (rewrite) repaired.push(hash);
    else placed.push(hash);
  };
  // Blobs up to the longest a store keeps compressed are checked and placed on the copy workers.
  const batches = new ImportBatches(options.pool ?? sharedCopyPool(), store.blobs, {
    placed: placedOne,
    refused: (hash, failure) => refusal(store, hash, failure, snapshots),
  });
  try {
    let previous = '';
    const recordKinds: number[] = header.version >= COMPRESSED_RECORDS_FROM ? [KIND.blob, KIND.compressed] : [KIND.blob];
    for (let kind = await reader.peek(); kind !== undefined && recordKinds.includes(kind); kind = await reader.peek()) {
      signal?.throwIfAborted();
      batches.check();
      const compressed = kind === KIND.compressed;
      const head = await reader.read(compressed ? COMPRESSED_HEAD : BLOB_HEAD, 'a blob head');
      const hash = head.subarray(1, 33).toString('hex');
      const size = Number(head.readBigUInt64BE(33));
      if (hash <= previous) throw bundleCorrupt('its blobs are out of order or repeated', { hash });
      if (!Number.isSafeInteger(size)) throw bundleCorrupt('a blob size is out of range', { hash });
      const wrongSize = sizeProblem(sizes, hash, size);
      if (wrongSize !== null) throw bundleCorrupt(wrongSize, { hash });
      previous = hash;
      const length = compressed ? head.readUInt32BE(BLOB_HEAD) : size;
      if (compressed && length > COMPRESS_UP_TO)
        throw compressedRecordDamaged(hash, `its compressed form is ${length} bytes, more than a compressed blob takes`, snapshots);
      const present = !damaged.has(hash) && blobs.has(hash, size);
      // A file of that name that is not held (damaged, or of the wrong length) was there before
      // this run: it is replaced, and never removed on a failure.
      const rewrite = !present && (damaged.has(hash) || blobs.named(hash));
      const what = `blob ${hash.slice(0, 12)}…`;
      if (compressed || size <= COMPRESS_UP_TO) {
        const action = present ? PLACE_CHECK : rewrite ? PLACE_REWRITE : PLACE_WRITE;
        await batches.add(reader, { hash, size, length, mode: action | (compressed ? PLACE_COMPRESSED : 0) }, what);
        meter?.add({ bytes: size });
      } else if (present) {
        await checkOnly(reader, hash, size, meter);
      } else {
        await writeBlob(store, reader, hash, size, closer, rewrite, () => placedOne(hash, rewrite), meter);
      }
      if (present) outcome.blobsPresent++;
      else outcome.blobsWritten++;
      carried.push({ hash, size });
      outcome.bytes += size;
      meter?.add({ files: 1 });
    }
    await batches.finish();
    const before = reader.digestSoFar();
    if ((await reader.peek()) !== KIND.end)
      throw bundleCorrupt((await reader.atEnd()) ? 'it ends early, before its end record' : 'an unknown record follows the blobs');
    const end = await readJson(reader, KIND.end, endSchema, 'the end record');
    if (!(await reader.atEnd())) throw bundleCorrupt('bytes follow its end record');
    const versions = snapshots.reduce((sum, s) => sum + s.versions.length, 0);
    if (end.sha256 !== before) throw bundleCorrupt('its digest does not match its bytes');
    const pinCount = pins ? pins.snapshots.length + pins.versions.length : undefined;
    const counted = end.snapshots === snapshots.length && end.versions === versions && end.blobs === carried.length && end.bytes === outcome.bytes;
    if (!counted || end.folderModes !== folderModes.length || end.pins !== pinCount || end.lines !== lines?.length) {
      throw bundleCorrupt('its end record does not count what it carried');
    }
    await closer.drain();
    store.index.clearDamaged(repaired);
    if (closer.failures.length > 0) throw closeFailuresError(closer.failures);
    // Left out where it was written (found damaged there): its versions are imported with their bytes missing here, and said so.
    const named = new Set(carried.map((b) => b.hash));
    const leftOut = (header.leftOut ?? []).filter(([hash, size]) => !named.has(hash) && !blobs.has(hash, size));
    for (const [hash] of leftOut) named.add(hash);
    checkNamedBlobs(blobs, snapshots, named);
    const rowsOfBlobs = [...carried, ...leftOut.map(([hash, size]) => ({ hash, size }))];
    const written: ImportedRows = { snapshots: snapshots.map(toRows), folderModes, pins, lines: lines ?? [], blobs: rowsOfBlobs };
    const added = store.index.importRows(written);
    for (const [hash] of leftOut) store.index.markDamaged(hash, 'missing');
    setHistoryId(store, header.projectId);
    meter?.finish();
    return { added, snapshots: snapshots.length, ...outcome };
  } catch (thrown) {
    // A worker's refusal comes first: it is earlier in the stream than anything read after it.
    const error = (await batches.abandon()) ?? thrown;
    await closer.drain();
    // What this run placed goes again: the store is as it was before the import. A damaged blob
    // it rewrote stays rewritten: its right bytes are better than what was there.
    for (const hash of placed) store.blobs.remove(hash);
    store.index.clearDamaged(repaired);
    if (signal?.aborted) throw new HindsightError('CANCELLED', 'The import was cancelled; the history is as it was.');
    throw error;
  }
}

/** Snapshots the store has already must be the same ones (the same bundle imported again); anything else is a diverged history. */
function checkAgainstHistory(store: ProjectStore, snapshots: readonly BundleSnapshot[]): void {
  for (const s of snapshots) {
    const here = store.index.snapshot(s.idOnMachine);
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

async function checkOnly(reader: ByteReader, hash: string, size: number, meter?: TransferMeter): Promise<void> {
  const digest = createHash('sha256');
  for await (const piece of reader.pieces(size, `blob ${hash.slice(0, 12)}…`)) {
    digest.update(piece);
    meter?.add({ bytes: piece.length });
  }
  if (digest.digest('hex') !== hash) throw blobMismatch(hash);
}

/**
 * Writes a carried blob longer than any the store keeps compressed (the shorter ones go to the
 * workers in batches: importBatches.ts) to a temp as it arrives, raw, and renames it into place
 * after its close (over a file of that name, if any: the caller decided it is to be replaced);
 * `placed` runs once it is there.
 */
async function writeBlob(
  store: ProjectStore,
  reader: ByteReader,
  hash: string,
  size: number,
  closer: Closer,
  replacing: boolean,
  placed: () => void,
  meter?: TransferMeter,
): Promise<void> {
  let file: BlobWrite;
  try {
    file = store.blobs.openWrite(hash);
    count('import.blobTemps');
  } catch (error) {
    throw fsError('store a blob in', store.storeDir, error, 'COPY_FAILED');
  }
  const digest = createHash('sha256');
  try {
    for await (const piece of reader.pieces(size, `blob ${hash.slice(0, 12)}…`)) {
      digest.update(piece);
      file.write(piece);
      meter?.add({ bytes: piece.length });
    }
    if (digest.digest('hex') !== hash) throw blobMismatch(hash);
  } catch (error) {
    file.close();
    file.drop();
    throw fsError('store a blob in', store.storeDir, error, 'COPY_FAILED');
  }
  await placeAfterClose(file, hash, 'raw', closer, replacing, placed);
}

/** Renames a written temp into place after its close (the closer's); `placed` runs once it is there. */
function placeAfterClose(file: BlobWrite, hash: string, form: BlobForm, closer: Closer, replacing: boolean, placed: () => void): Promise<void> {
  return closer.close(
    file.fd,
    hash,
    () => {
      file.place(hash, form, replacing);
      placed();
    },
    () => file.drop(),
  );
}

/** The typed error for a blob a copy worker refused (store/checkAndPlace.ts). */
function refusal(store: ProjectStore, hash: string, failure: PlaceFailure, snapshots: readonly BundleSnapshot[]): unknown {
  if (failure.kind === 'mismatch') return blobMismatch(hash);
  if (failure.kind === 'undecodable') return compressedRecordDamaged(hash, failure.why, snapshots);
  return fsError('store a blob in', store.storeDir, Object.assign(new Error(failure.why), { code: failure.code }), 'COPY_FAILED');
}

function compressedRecordDamaged(hash: string, why: string, snapshots: readonly BundleSnapshot[]): HindsightError {
  const versions = snapshots.flatMap((s) => s.versions.filter((v) => v.hash === hash).map((v) => ({ path: v.path, versionId: v.versionId })));
  const named = versions.slice(0, 3).map((v) => `${v.path} (version ${v.versionId})`);
  const what =
    versions.length === 0 ? 'a blob' : `${named.join(', ')}${versions.length > named.length ? ` and ${versions.length - named.length} more versions` : ''}`;
  return new HindsightError('BLOB_CORRUPT', `The bundle's copy of ${what} is damaged (blob ${hash.slice(0, 12)}…: ${why}); nothing was imported.`, {
    hash,
    versions,
  });
}

function blobMismatch(hash: string): HindsightError {
  return bundleCorrupt(`the bytes of blob ${hash.slice(0, 12)}… do not match their hash`, { hash });
}

async function readJson<T>(reader: ByteReader, kind: number, schema: z.ZodType<T>, what: string): Promise<T> {
  const head = await reader.read(5, what);
  if (head[0] !== kind) throw bundleCorrupt(`${what} is missing`);
  const length = head.readUInt32BE(1);
  if (length > MAX_JSON_RECORD) throw bundleCorrupt(`${what} is longer than any bundle writes`);
  const text = await reader.read(length, what);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch {
    throw bundleCorrupt(`${what} is not JSON`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw bundleCorrupt(`${what} has an unexpected shape (${result.error.issues[0]?.message ?? 'unknown'})`);
  return result.data;
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
