import { createHash } from 'node:crypto';
import { HindsightError } from '../../../shared/errors.js';
import { fsError } from '../fsErrors.js';
import type { ProjectStore } from '../project/projectStore.js';
import type { TransferMeter } from '../transferMeter.js';
import { sizeProblem } from '../remoteLayout/recordChecks.js';
import type { Closer } from '../restore/backgroundCloser.js';
import { COMPRESS_UP_TO } from '../codec/blobCodec.js';
import type { BlobWrite } from '../store/blobStore.js';
import { PLACE_CHECK, PLACE_COMPRESSED, PLACE_REWRITE, PLACE_WRITE, type PlaceFailure } from '../store/copyProtocol.js';
import type { StoredBlobs } from '../store/storedBlobs.js';
import type { BlobForm } from '../store/storeLayout.js';
import { count } from '../trace.js';
import { BLOB_HEAD, bundleCorrupt, COMPRESSED_HEAD, COMPRESSED_RECORDS_FROM, KIND, type BundleHeader, type BundleSnapshot } from './bundleFormat.js';
import type { ByteReader } from './byteReader.js';
import type { ImportBatches } from './importBatches.js';
import type { CheckedRows } from './readBundle.js';

// A bundle's blob records, taken in one pass over the stream: each checked at its head (order,
// size against the rows, a compressed form's length), then, by what the store holds, batched to a
// copy worker (at most 4 MiB: importBatches.ts), only hashed (a long blob already held), or
// streamed into the project's BlobStore as it arrives and renamed after its close.

/** What one import's blob records need. */
export interface BlobRecordsRun {
  store: ProjectStore;
  reader: ByteReader;
  header: BundleHeader;
  rows: CheckedRows;
  /** What the store holds, from one listing. */
  blobs: StoredBlobs;
  batches: ImportBatches;
  closer: Closer;
  /** Blobs found damaged: not held, whatever their file. */
  damaged: ReadonlySet<string>;
  /** Told of each blob this run placed (`rewrite`: over a file that was there before). */
  placed: (hash: string, rewrite: boolean) => void;
  meter?: TransferMeter;
  signal?: AbortSignal;
}

/** The blob records taken, and what they came to. */
export interface TakenBlobs {
  carried: { hash: string; size: number }[];
  outcome: { blobsWritten: number; blobsPresent: number; bytes: number };
}

/** Takes every blob record up to the end record; the batches still in flight are the caller's to finish. */
export async function takeBlobRecords(run: BlobRecordsRun): Promise<TakenBlobs> {
  const { reader, header, blobs, damaged, meter, signal } = run;
  const taken: TakenBlobs = { carried: [], outcome: { blobsWritten: 0, blobsPresent: 0, bytes: 0 } };
  let previous = '';
  const recordKinds: number[] = header.version >= COMPRESSED_RECORDS_FROM ? [KIND.blob, KIND.compressed] : [KIND.blob];
  for (let kind = await reader.peek(); kind !== undefined && recordKinds.includes(kind); kind = await reader.peek()) {
    signal?.throwIfAborted();
    run.batches.check();
    const compressed = kind === KIND.compressed;
    const { hash, size, length } = await readRecordHead(run, compressed, previous);
    previous = hash;
    const present = !damaged.has(hash) && blobs.has(hash, size);
    // A file of that name that is not held (damaged, or of the wrong length) was there before
    // this run: it is replaced, and never removed on a failure.
    const rewrite = !present && (damaged.has(hash) || blobs.named(hash));
    if (compressed || size <= COMPRESS_UP_TO) {
      const action = present ? PLACE_CHECK : rewrite ? PLACE_REWRITE : PLACE_WRITE;
      await run.batches.add(reader, { hash, size, length, mode: action | (compressed ? PLACE_COMPRESSED : 0) }, `blob ${hash.slice(0, 12)}…`);
      meter?.add({ bytes: size });
    } else if (present) {
      await checkOnly(reader, hash, size, meter);
    } else {
      await writeBlob(run, hash, size, rewrite);
    }
    if (present) taken.outcome.blobsPresent++;
    else taken.outcome.blobsWritten++;
    taken.carried.push({ hash, size });
    taken.outcome.bytes += size;
    meter?.add({ files: 1 });
  }
  return taken;
}

/** A blob record's head, checked: in order after `previous`, of the size its versions give it, a compressed form no longer than any. */
async function readRecordHead(run: BlobRecordsRun, compressed: boolean, previous: string): Promise<{ hash: string; size: number; length: number }> {
  const head = await run.reader.read(compressed ? COMPRESSED_HEAD : BLOB_HEAD, 'a blob head');
  const hash = head.subarray(1, 33).toString('hex');
  const size = Number(head.readBigUInt64BE(33));
  if (hash <= previous) throw bundleCorrupt('its blobs are out of order or repeated', { hash });
  if (!Number.isSafeInteger(size)) throw bundleCorrupt('a blob size is out of range', { hash });
  const wrongSize = sizeProblem(run.rows.sizes, hash, size);
  if (wrongSize !== null) throw bundleCorrupt(wrongSize, { hash });
  const length = compressed ? head.readUInt32BE(BLOB_HEAD) : size;
  if (compressed && length > COMPRESS_UP_TO)
    throw compressedRecordDamaged(hash, `its compressed form is ${length} bytes, more than a compressed blob takes`, run.rows.snapshots);
  return { hash, size, length };
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
 * `run.placed` is told once it is there.
 */
async function writeBlob(run: BlobRecordsRun, hash: string, size: number, replacing: boolean): Promise<void> {
  const { store, reader, meter } = run;
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
  await placeAfterClose(file, hash, 'raw', run.closer, replacing, () => run.placed(hash, replacing));
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
export function refusal(store: ProjectStore, hash: string, failure: PlaceFailure, snapshots: readonly BundleSnapshot[]): unknown {
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
