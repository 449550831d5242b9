import type { ProgressSink } from '../../progressThrottle.js';
import type { ObjectStore } from '../objectStore.js';
import { encodeHead, type RemoteHead } from '../../remoteLayout/headFormat.js';
import { encodeIndex } from '../../remoteLayout/indexFormat.js';
import { encodeRecord, type RecordedSnapshot } from '../../remoteLayout/recordFormat.js';
import { headKey, indexKey, recordKey } from '../../remoteLayout/remoteKeys.js';
import type { RemoteLedger } from '../../db/remoteLedger.js';
import type { PushSource } from '../pushSource.js';
import { ensureFormatMarker, listHeads, readHead, refreshForeignHeads } from '../remoteHeads.js';
import { TransferMeter } from '../../transferMeter.js';
import { sendData, type PendingBlob, type StoredForms } from './sendData.js';

// A push (docs/REMOTE.md): data, then the pack index, then the snapshot record, then this
// machine's head, each step started only when the one before it finished, so the remote never
// names a blob it does not hold. A push with nothing new costs one LIST of the heads.

export interface PushResult {
  remote: string;
  projectId: string;
  machine: string;
  /** Nothing was new: the remote already had everything. */
  upToDate: boolean;
  /** Snapshots sent. */
  snapshots: number;
  /** Blobs sent (in packs or alone) and their bytes before packing. */
  blobs: number;
  bytes: number;
  /** Objects written and their bytes as stored. */
  objects: number;
  storedBytes: number;
  /** Objects a killed push had written already, found and not sent again. */
  resumed: number;
  ms: number;
}

export interface PushOptions {
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Before each step, for fault tests and tracing. */
  onStep?: (step: 'data' | 'index' | 'snapshots' | 'head') => void;
  /** The meter to count on (so the store's retry notices reach the same progress). */
  meter?: TransferMeter;
  /** Where small blobs' stored forms are made (pack workers); this thread when absent. */
  forms?: StoredForms;
  /** Blob sizes already looked up in this push (pendingBlobs). */
  sizes?: Map<string, number>;
}

export async function pushProject(store: ObjectStore, source: PushSource, ledger: RemoteLedger, options: PushOptions = {}): Promise<PushResult> {
  const started = performance.now();
  const { signal } = options;
  const meter = options.meter ?? new TransferMeter('push', source.projectId, options.onProgress);
  const result: PushResult = {
    remote: store.label,
    projectId: source.projectId,
    machine: source.machine.id,
    upToDate: false,
    snapshots: 0,
    blobs: 0,
    bytes: 0,
    objects: 0,
    storedBytes: 0,
    resumed: 0,
    ms: 0,
  };
  const finish = () => {
    meter.finish();
    result.ms = Math.round(performance.now() - started);
    return result;
  };

  meter.enter('metadata');
  const listed = await listHeads(store, source.projectId, signal);
  await reconcileOwnHead(store, source, ledger, listed.find((h) => h.machineId === source.machine.id)?.etag, signal);
  const link = ledger.link();
  const snapshots = source.snapshotsAfter(link.pushedOrigin);
  const unindexed = ledger.unindexed();
  const nothingNew = snapshots.length === 0 && unindexed.packs.length === 0 && unindexed.standalone.length === 0;
  if (nothingNew && link.headEtag !== null && !link.pushInProgress) {
    result.upToDate = true;
    return finish();
  }
  if (link.headEtag === null) await ensureFormatMarker(store, signal);
  // Blobs other machines sent are not sent again.
  await refreshForeignHeads(store, source.projectId, source.machine.id, listed, ledger, undefined, signal);

  const pending = pendingBlobs(snapshots, source, ledger, options.sizes);
  options.onStep?.('data');
  meter.enter('data', { bytes: pending.reduce((sum, b) => sum + b.size, 0), objects: estimateObjects(pending) });
  ledger.setPushInProgress(true);
  const sent = await sendData(store, source, ledger, pending, meter, link.pushInProgress, signal, options.forms);
  Object.assign(result, { blobs: sent.blobs, bytes: sent.bytes, objects: sent.objects, storedBytes: sent.storedBytes, resumed: sent.skipped });

  const toIndex = ledger.unindexed();
  options.onStep?.('index');
  meter.enter('index', { objects: toIndex.packs.length + toIndex.standalone.length > 0 ? 1 : 0 });
  if (toIndex.packs.length > 0 || toIndex.standalone.length > 0) {
    const index = encodeIndex(toIndex.packs, toIndex.standalone);
    const key = indexKey(source.projectId, index.hash);
    await store.put(key, index.body, signal);
    ledger.noteIndexed(key);
    countObject(result, meter, index.body.length);
  }

  options.onStep?.('snapshots');
  meter.enter('snapshots', { objects: snapshots.length > 0 ? 1 : 0 });
  if (snapshots.length > 0) {
    const record = encodeRecord(source.machine.id, snapshots);
    const first = snapshots[0]!.idOnMachine;
    const last = snapshots[snapshots.length - 1]!.idOnMachine;
    const key = recordKey(source.projectId, source.machine.id, first, last, record.hash);
    await store.put(key, record.body, signal);
    ledger.noteRecord(key, last, snapshots.length);
    result.snapshots = snapshots.length;
    countObject(result, meter, record.body.length);
  }

  options.onStep?.('head');
  meter.enter('head', { objects: 1 });
  const body = encodeHead(headOf(source, ledger));
  const { etag } = await store.put(headKey(source.projectId, source.machine.id), body, signal);
  ledger.noteHead(etag);
  countObject(result, meter, body.length);
  ledger.setPushInProgress(false);
  return finish();
}

/**
 * This machine's head as the remote has it, against what the ledger noted: gone (the remote was
 * emptied or is another one: send everything again), or newer (a push killed after writing it:
 * take its lists).
 */
async function reconcileOwnHead(store: ObjectStore, source: PushSource, ledger: RemoteLedger, etag: string | undefined, signal?: AbortSignal): Promise<void> {
  const link = ledger.link();
  if (etag === undefined) {
    if (link.headEtag !== null) ledger.forgetSent();
    return;
  }
  if (etag === link.headEtag) return;
  ledger.adoptHead(await readHead(store, source.projectId, source.machine.id, signal), etag);
}

/**
 * Blobs the unsent snapshots name that the remote lacks, in the order the snapshots name them.
 * `sizes` keeps the sizes looked up, for a second call in the same push.
 */
export function pendingBlobs(snapshots: RecordedSnapshot[], source: PushSource, ledger: RemoteLedger, sizes = new Map<string, number>()): PendingBlob[] {
  const seen = new Set<string>();
  const pending: PendingBlob[] = [];
  for (const snapshot of snapshots) {
    for (const version of snapshot.versions) {
      const hash = version.hash;
      if (hash === null || seen.has(hash)) continue;
      seen.add(hash);
      if (ledger.locate(hash)) continue;
      let size = sizes.get(hash);
      if (size === undefined) sizes.set(hash, (size = source.blobSize(hash) ?? version.size));
      pending.push({ hash, size, path: version.path });
    }
  }
  return pending;
}

function estimateObjects(pending: PendingBlob[]): number {
  let alone = 0;
  let packed = 0;
  for (const blob of pending) {
    if (blob.size >= 4 * 1024 * 1024) alone++;
    else packed += blob.size;
  }
  return alone + Math.ceil(packed / (16 * 1024 * 1024));
}

function headOf(source: PushSource, ledger: RemoteLedger): RemoteHead {
  const link = ledger.link();
  return {
    format: 1,
    machine: { id: source.machine.id, name: source.machine.name },
    project: { id: source.projectId, name: source.name, root: source.root },
    fork: source.fork,
    updatedAt: Date.now(),
    lastOrigin: link.pushedOrigin,
    snapshots: link.pushedSnapshots,
    records: link.records,
    indexes: link.indexes,
  };
}

function countObject(result: PushResult, meter: TransferMeter, bytes: number): void {
  result.objects++;
  result.storedBytes += bytes;
  meter.add({ objects: 1 });
}
