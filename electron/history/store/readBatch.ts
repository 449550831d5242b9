import type { ReadScratch } from './blobWhole.js';
import type { BlobSubject } from './blobDamage.js';
import type { BlobForm, CarryCompressed, ReadBatch, ReadRequest } from './readAheadProtocol.js';
import { resetTrace, traceSnapshot } from '../trace.js';
import { workerFailure } from '../workerFailure.js';
import { BlobStore } from './blobStore.js';

// A read-ahead thread's batch (readWorker.ts, the push's packWorker.ts): each blob of the request
// read and checked against its hash, made into its form, and all of them laid one after another in
// one buffer of its own, handed over without a copy.

/**
 * Makes a blob's form from the store: `subject` names the file a damaged blob is reported under;
 * `carry` asks for a blob kept compressed as it is kept.
 */
export type FormMaker<Encoding extends string> = (
  blobs: BlobStore,
  hash: string,
  size: number,
  subject: BlobSubject | undefined,
  carry: CarryCompressed | undefined,
) => BlobForm<Encoding>;

export function readBatch<Encoding extends string>(request: ReadRequest, form: FormMaker<Encoding>): ReadBatch<Encoding> {
  const forms: BlobForm<Encoding>[] = [];
  let total = 0;
  let failed: ReadBatch<Encoding>['failed'];
  // Damage found here goes back in the answer (`failed`), noted by the pool's store.
  const store = new BlobStore(request.blobsDir);
  try {
    for (const [hash, size, path] of request.blobs) {
      const made = form(store, hash, size, path === '' ? undefined : { path }, request.carry);
      forms.push(made);
      total += made.bytes.length;
    }
  } catch (error) {
    failed = workerFailure(error);
  }
  // A buffer of its own (never the shared pool's slab), so it can be handed over without a copy.
  const body = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const made of forms) at += made.bytes.copy(body, at);
  // This thread's counters go to the process's (the CLI's trace is written by the main thread).
  const counts = traceSnapshot();
  resetTrace();
  return { body: body.buffer as ArrayBuffer, forms: forms.map((f) => [f.bytes.length, f.encoding]), counts, ...(failed ? { failed } : {}) };
}

const scratch: ReadScratch = { buffer: Buffer.allocUnsafe(64 * 1024) };

/** A blob's checked bytes, read whole through the thread's scratch (copied out: the scratch is reused). */
export function rawForm(blobs: BlobStore, hash: string, size: number, subject: BlobSubject | undefined): BlobForm<'raw'> {
  return { bytes: Buffer.from(blobs.whole(hash, size, scratch, subject)), encoding: 'raw' };
}

/** A blob the store keeps compressed, as it is kept (checked as `carry` asks); undefined for any other. */
export function carriedBytes(
  blobs: BlobStore,
  hash: string,
  size: number,
  subject: BlobSubject | undefined,
  carry: CarryCompressed | undefined,
): Buffer | undefined {
  if (carry === undefined) return undefined;
  const kept = blobs.storedForm(hash, size, { inflate: carry === 'checked', subject });
  return kept.form === 'compressed' ? kept.bytes : undefined;
}

/** A blob's compressed form as it is kept where asked for and there is one, else its checked bytes. */
export function keptOrRaw(
  blobs: BlobStore,
  hash: string,
  size: number,
  subject: BlobSubject | undefined,
  carry: CarryCompressed | undefined,
): BlobForm<'raw' | 'zstd'> {
  const kept = carriedBytes(blobs, hash, size, subject, carry);
  return kept ? { bytes: kept, encoding: 'zstd' } : rawForm(blobs, hash, size, subject);
}
