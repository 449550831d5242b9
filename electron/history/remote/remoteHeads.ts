import { HindsightError } from '../../../shared/errors.js';
import type { ObjectStore, StoredObject } from './objectStore.js';
import { decodeHead, type RemoteHead } from '../remoteLayout/headFormat.js';
import { decodeIndex } from '../remoteLayout/indexFormat.js';
import { FORMAT_MARKER_KEY, hashOfKey, headKey, headsFolder, machineOfHeadKey } from '../remoteLayout/remoteKeys.js';
import type { RemoteLedger } from '../db/remoteLedger.js';
import type { TransferMeter } from '../transferMeter.js';

// Reading a project's heads: one LIST of heads/ says which machines pushed and, by ETag, which of
// them moved since the last look; only those heads are read, and only indexes they list that
// were never read before. Shared by push (to skip blobs others sent), pull and clone.

export interface ListedHead {
  machineId: string;
  etag: string;
}

export async function listHeads(store: ObjectStore, projectId: string, signal?: AbortSignal): Promise<ListedHead[]> {
  const listed: StoredObject[] = await store.list(headsFolder(projectId), signal);
  const heads: ListedHead[] = [];
  for (const object of listed) {
    const machineId = machineOfHeadKey(projectId, object.key);
    if (machineId) heads.push({ machineId, etag: object.etag });
  }
  return heads;
}

export async function readHead(store: ObjectStore, projectId: string, machineId: string, signal?: AbortSignal): Promise<RemoteHead> {
  const key = headKey(projectId, machineId);
  const head = decodeHead(await store.get(key, undefined, signal), `head of machine ${machineId}`);
  if (head.machine.id !== machineId || head.project.id !== projectId) {
    throw new HindsightError('REMOTE_CORRUPT', `The remote's head ${key} names another machine or project.`, { key });
  }
  for (const record of head.records) hashOfKey(projectId, 'record', record);
  for (const index of head.indexes) hashOfKey(projectId, 'index', index);
  return head;
}

/**
 * Other machines' heads that moved: read them and every index of theirs not read yet, so the
 * ledger locates their blobs. Returns the heads as read (moved or not), by machine.
 */
export async function refreshForeignHeads(
  store: ObjectStore,
  projectId: string,
  ownMachine: string,
  listed: ListedHead[],
  ledger: RemoteLedger,
  meter?: TransferMeter,
  signal?: AbortSignal,
): Promise<void> {
  const known = ledger.foreignHeads();
  for (const { machineId, etag } of listed) {
    if (machineId === ownMachine) continue;
    const before = known.get(machineId);
    if (before?.etag === etag) continue;
    const head = await readHead(store, projectId, machineId, signal);
    const unread = head.indexes.filter((key) => !before?.indexesRead.has(key));
    meter?.grow({ objects: unread.length + 1 });
    meter?.add({ objects: 1 });
    for (const key of unread) {
      const index = decodeIndex(await store.get(key, undefined, signal), hashOfKey(projectId, 'index', key));
      ledger.noteForeignIndex(machineId, key, index);
      meter?.add({ objects: 1 });
    }
    ledger.noteForeignHead(machineId, etag, head);
  }
}

/** The format marker: written by the first push to a prefix; a newer format is refused. */
export async function ensureFormatMarker(store: ObjectStore, signal?: AbortSignal): Promise<void> {
  if (await checkFormatMarker(store, signal)) return;
  await store.put(FORMAT_MARKER_KEY, Buffer.from(`${JSON.stringify({ format: 'hindsight-remote', version: 1 })}\n`), signal);
}

/** Whether the prefix has a marker (refusing one that is not ours or newer than this build). */
export async function checkFormatMarker(store: ObjectStore, signal?: AbortSignal): Promise<boolean> {
  let marker: unknown;
  try {
    marker = JSON.parse((await store.get(FORMAT_MARKER_KEY, undefined, signal)).toString('utf8'));
  } catch (error) {
    if (error instanceof HindsightError && error.code === 'REMOTE_OBJECT_MISSING') return false;
    if (error instanceof HindsightError) throw error;
    throw new HindsightError('REMOTE_CORRUPT', `${store.label} has a damaged ${FORMAT_MARKER_KEY}.`);
  }
  const { format, version } = (marker ?? {}) as { format?: unknown; version?: unknown };
  if (format !== 'hindsight-remote' || typeof version !== 'number') {
    throw new HindsightError('REMOTE_CORRUPT', `${store.label} has a ${FORMAT_MARKER_KEY} that is not Hindsight's.`);
  }
  if (version > 1) {
    throw new HindsightError('REMOTE_FAILED', `${store.label} was written by a newer Hindsight (remote format ${version}); update Hindsight to use it.`, {
      version,
    });
  }
  return true;
}
