import { createHash } from 'node:crypto';
import { BlobUndecodable, checkCompressedForm, compressBlob, formToKeep } from '../codec/blobCodec.js';
import { PLACE_CHECK, PLACE_COMPRESSED, PLACE_REWRITE, type PlaceFailure, type PlaceJob, type PlaceResult } from './copyProtocol.js';
import type { PlaceStats } from './placeBlob.js';
import type { BlobForm } from './storeLayout.js';
import { writeBlobFile } from './storeBytes.js';
import { counter } from '../trace.js';

// A batch of blobs that came from outside under a claimed hash (an import's records), checked and
// placed on a copy worker: the history process only reads the stream and decides what each blob
// needs. Each blob's bytes are hashed (a compressed form inflated no further than its size:
// blobCodec.ts checkCompressedForm), and a blob to write goes through a temp beside its file,
// 0600, renamed into place (storeBytes.ts writeBlobFile): the store's rule that a blob appears
// whole or not at all holds on this thread as on any other. No fsync per blob: the import's
// commit is its one sync, as for a first copy. The batch stops at the first blob that fails; the
// blobs before it are done (and the caller removes what was placed if it gives up).

export function checkAndPlace(job: PlaceJob, exactCreateMode: boolean): PlaceResult {
  const before = { compressions: counter('store.compressions'), decompressions: counter('store.decompressions') };
  const result = placeAll(job, exactCreateMode);
  // This thread's codec counts, told to the history process (its trace is per thread).
  result.counts = {
    'store.compressions': counter('store.compressions') - before.compressions,
    'store.decompressions': counter('store.decompressions') - before.decompressions,
  };
  return result;
}

function placeAll(job: PlaceJob, exactCreateMode: boolean): PlaceResult {
  const stats: PlaceStats = { mkdirs: 0 };
  let temps = 0;
  let at = 0;
  for (let i = 0; i < job.hashes.length; i++) {
    const hash = job.hashes[i]!;
    const mode = job.modes[i]!;
    const length = job.lengths[i]!;
    const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset + at, length);
    at += length;
    let kept: { form: BlobForm; bytes: Uint8Array } | undefined;
    try {
      kept = checked(hash, job.sizes[i]!, bytes, (mode & PLACE_COMPRESSED) !== 0);
    } catch (error) {
      const failure: PlaceFailure =
        error instanceof BlobUndecodable
          ? { index: i, kind: 'undecodable', why: error.why }
          : { index: i, kind: 'mismatch', why: 'its bytes do not match their hash' };
      return { kind: 'placed', jobId: job.jobId, bytes: job.bytes, done: i, temps, mkdirs: stats.mkdirs, failure };
    }
    const action = mode & ~PLACE_COMPRESSED;
    if (action === PLACE_CHECK) continue;
    try {
      // A raw record is compressed where that pays, only when it is written.
      const small = kept ? undefined : compressBlob(bytes);
      kept ??= small ? { form: 'compressed', bytes: small } : { form: 'raw', bytes };
      temps++;
      writeBlobFile(job.blobsDir, hash, kept.bytes, kept.form, { counters: stats, exactCreateMode, replacing: action === PLACE_REWRITE });
    } catch (error) {
      const err = error as NodeJS.ErrnoException;
      return {
        kind: 'placed',
        jobId: job.jobId,
        bytes: job.bytes,
        done: i,
        temps,
        mkdirs: stats.mkdirs,
        failure: { index: i, kind: 'failed', why: err.message, code: err.code },
      };
    }
  }
  return { kind: 'placed', jobId: job.jobId, bytes: job.bytes, done: job.hashes.length, temps, mkdirs: stats.mkdirs };
}

/**
 * Checks a blob's bytes against its name: a compressed form answers the form to keep it in, raw
 * bytes undefined (kept as they are, or compressed when written). Throws BlobUndecodable, or an
 * Error for raw bytes that do not match.
 */
function checked(hash: string, size: number, bytes: Buffer, compressed: boolean): { form: BlobForm; bytes: Uint8Array } | undefined {
  if (compressed) return formToKeep(checkCompressedForm(hash, size, bytes), bytes);
  if (bytes.length !== size || createHash('sha256').update(bytes).digest('hex') !== hash) throw new Error('mismatch');
  return undefined;
}
