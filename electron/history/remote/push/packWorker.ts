import { parentPort, workerData } from 'node:worker_threads';
import { isHindsightError } from '../../../../shared/errors.js';
import { readBlobHead, readBlobWhole, readStoredForm, type BlobSubject, type ReadScratch } from '../../store/blobReader.js';
import { lowestThreadPriority } from '../../threadPriority.js';
import { resetTrace, traceSnapshot } from '../../trace.js';
import { carriedForm, storedForm, type StoredBlob } from '../layout/packFormat.js';
import type { FromPackWorker, PackRequest, PackWorkerData } from './packProtocol.js';

// A push's pack worker: reads a batch of small blobs from the store, each hashed in the pass that
// reads it (readBlobHead refuses bytes that do not match their name), and compresses each into
// its stored form (packFormat.ts); a blob the store keeps compressed is taken as it is kept
// (encoding zstd), never compressed again. The push's own thread only assembles the packs in order and
// uploads them, so reading, hashing and compressing run on the other cores beside the uploads and
// the start of the push (the S3 client's modules, the LIST of heads). An export or a snapshot
// written into a new folder asks for the checked bytes as they are (raw: store/readAhead.ts): on a
// cold cache, reads of many small files on several threads overlap their waits for the disk.

const { lowPriority } = (workerData ?? { lowPriority: false }) as PackWorkerData;

/** The app's background push leaves the cores to local work (Linux: the thread's own niceness). */
function lower(): number | null {
  return lowPriority ? lowestThreadPriority() : null;
}

function send(message: FromPackWorker, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

const scratch: ReadScratch = { buffer: Buffer.allocUnsafe(64 * 1024) };

/** A blob's checked bytes, read whole through the thread's scratch (copied out: the scratch is reused). */
function rawForm(blobsDir: string, hash: string, size: number, subject: BlobSubject | undefined): StoredBlob {
  return { bytes: Buffer.from(readBlobWhole(blobsDir, hash, size, scratch, subject)), encoding: 'raw' };
}

function formOf(request: PackRequest, hash: string, size: number, subject: BlobSubject | undefined): StoredBlob {
  if (request.carry) {
    const kept = readStoredForm(request.blobsDir, hash, size, { inflate: request.carry === 'checked', subject });
    if (kept.form === 'compressed') return carriedForm(kept.bytes);
  }
  return request.raw ? rawForm(request.blobsDir, hash, size, subject) : storedForm(readBlobHead(request.blobsDir, hash, Number.MAX_SAFE_INTEGER, size, subject));
}

function pack(request: PackRequest): void {
  const forms: StoredBlob[] = [];
  let total = 0;
  let failed: Extract<FromPackWorker, { type: 'packed' }>['failed'];
  try {
    for (const [hash, size, path] of request.blobs) {
      const subject = path === '' ? undefined : { path };
      const form = formOf(request, hash, size, subject);
      forms.push(form);
      total += form.bytes.length;
    }
  } catch (error) {
    failed = isHindsightError(error) ? { code: error.code, message: error.message, details: error.details } : { message: error instanceof Error ? error.message : String(error) };
  }
  // A buffer of its own (never the shared pool's slab), so it can be handed over without a copy.
  const body = Buffer.allocUnsafeSlow(total);
  let at = 0;
  for (const form of forms) at += form.bytes.copy(body, at);
  const buffer = body.buffer as ArrayBuffer;
  // This thread's counters go to the process's (the CLI's trace is written by the main thread).
  const counts = traceSnapshot();
  resetTrace();
  send({ type: 'packed', id: request.id, body: buffer, stored: forms.map((f) => [f.bytes.length, f.encoding]), counts, ...(failed ? { failed } : {}) }, [buffer]);
}

send({ type: 'ready', niceness: lower() });
parentPort?.on('message', (request: PackRequest) => pack(request));
