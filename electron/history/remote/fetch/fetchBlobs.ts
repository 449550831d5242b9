import type { ObjectStore } from '../objectStore.js';
import { blobKey, packKey } from '../../remoteLayout/remoteKeys.js';
import { blobCorrupt, unpackBlob } from '../../remoteLayout/packFormat.js';
import type { TransferMeter } from '../../transferMeter.js';
import type { FetchRequest } from './fetchPlan.js';

// Runs a fetch plan: a few requests in flight, every blob checked against its hash before it is
// handed on (unpackBlob for packed blobs; the sink re-hashes a large blob's file before placing
// it). Damaged bytes are reported as REMOTE_CORRUPT and never handed on. A zstd entry's form is
// handed on beside its checked bytes, so the store keeps it without compressing it again.

const IN_FLIGHT = 4;

export interface BlobSink {
  /**
   * Stores bytes already checked against `hash`; `compressed`: the store's compressed form they
   * came in (a zstd entry), checked by inflating it, to be kept as it is.
   */
  put(hash: string, bytes: Buffer, compressed?: Buffer): Promise<void> | void;
  /** A temp file in the store for a large blob, and the step that checks and places it. */
  tempFor(hash: string): string;
  placeChecked(hash: string, temp: string): Promise<void> | void;
}

export async function fetchBlobs(
  store: ObjectStore,
  projectId: string,
  plan: FetchRequest[],
  sink: BlobSink,
  meter?: TransferMeter,
  signal?: AbortSignal,
): Promise<void> {
  const queue = [...plan];
  const worker = async () => {
    for (let request = queue.shift(); request; request = queue.shift()) {
      signal?.throwIfAborted();
      await fetchOne(store, projectId, request, sink, meter, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, plan.length) }, worker));
}

async function fetchOne(
  store: ObjectStore,
  projectId: string,
  request: FetchRequest,
  sink: BlobSink,
  meter?: TransferMeter,
  signal?: AbortSignal,
): Promise<void> {
  if (request.kind === 'alone') {
    const temp = sink.tempFor(request.hash);
    await store.getToFile(blobKey(projectId, request.hash), temp, signal, (bytes) => meter?.add({ bytes }));
    await sink.placeChecked(request.hash, temp);
    meter?.add({ objects: 1, files: 1 });
    return;
  }
  const bytes = await store.get(packKey(projectId, request.pack), { offset: request.offset, length: request.length }, signal);
  for (const entry of request.entries) {
    const start = entry[1] - request.offset;
    const stored = bytes.subarray(start, start + entry[2]);
    if (stored.length !== entry[2]) throw blobCorrupt(entry[0], 'the pack is shorter than its index says');
    await sink.put(entry[0], unpackBlob(stored, entry), entry[4] === 'zstd' ? stored : undefined);
    meter?.add({ bytes: entry[3], files: 1 });
  }
  meter?.add({ objects: 1 });
}
