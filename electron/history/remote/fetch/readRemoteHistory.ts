import { HindsightError } from '../../../../shared/errors.js';
import type { RemoteHead } from '../../remoteLayout/headFormat.js';
import { decodeIndex, type PackIndex } from '../../remoteLayout/indexFormat.js';
import { decodeRecord, type RecordedSnapshot } from '../../remoteLayout/recordFormat.js';
import { hashOfKey } from '../../remoteLayout/remoteKeys.js';
import type { ObjectStore } from '../objectStore.js';
import { checkFormatMarker, listHeads, readHead } from '../remoteHeads.js';
import type { TransferMeter } from '../../transferMeter.js';
import { machineSnapshots } from './machineSnapshots.js';
import { appendAll } from '../../../../shared/largeArrays.js';

// A project's whole history on a remote, without one blob byte: every machine's head, the pack
// indexes it lists (where each blob is) and its snapshot records (what each snapshot recorded).
// What a clone reads first. Every object is checked against the hash in its name.

export interface RemoteLine {
  machineId: string;
  etag: string;
  head: RemoteHead;
  /** This machine's snapshots, oldest first. */
  snapshots: RecordedSnapshot[];
}

export interface RemoteHistory {
  lines: Map<string, RemoteLine>;
  indexes: { machineId: string; key: string; index: PackIndex }[];
}

export async function readRemoteHistory(store: ObjectStore, projectId: string, meter?: TransferMeter, signal?: AbortSignal): Promise<RemoteHistory> {
  if (!(await checkFormatMarker(store, signal))) throw projectMissing(store, projectId);
  const listed = await listHeads(store, projectId, signal);
  if (listed.length === 0) throw projectMissing(store, projectId);
  const lines = new Map<string, RemoteLine>();
  const indexes: RemoteHistory['indexes'] = [];
  for (const { machineId, etag } of listed) {
    const head = await readHead(store, projectId, machineId, signal);
    meter?.grow({ objects: head.records.length + head.indexes.length + 1 });
    meter?.add({ objects: 1 });
    const snapshots: RecordedSnapshot[] = [];
    for (const key of head.records) {
      const record = decodeRecord(await store.get(key, undefined, signal), hashOfKey(projectId, 'record', key));
      if (record.machine !== machineId) throw new HindsightError('REMOTE_CORRUPT', `The remote's record ${key} names another machine.`, { key });
      appendAll(snapshots, record.snapshots);
      meter?.add({ objects: 1 });
    }
    for (const key of head.indexes) {
      indexes.push({ machineId, key, index: decodeIndex(await store.get(key, undefined, signal), hashOfKey(projectId, 'index', key)) });
      meter?.add({ objects: 1 });
    }
    lines.set(machineId, { machineId, etag, head, snapshots: machineSnapshots(machineId, snapshots) });
  }
  return { lines, indexes };
}

function projectMissing(store: ObjectStore, projectId: string): HindsightError {
  return new HindsightError('REMOTE_PROJECT_NOT_FOUND', `${store.label} has no project ${projectId}: push it from the machine that has it first.`, {
    projectId,
  });
}

/** A snapshot of a remote history: its machine and its id there. */
export interface RemoteSnapshotRef {
  machine: string;
  origin: number;
}

/**
 * The snapshot a clone starts from: `wanted` as typed (`ID`: a snapshot of the machine that
 * started the project; `MACHINE:ID`: of the machine whose id starts with MACHINE), or the newest.
 */
export function chooseSnapshot(history: RemoteHistory, wanted: string | undefined): RemoteSnapshotRef {
  const lines = [...history.lines.values()];
  if (wanted === undefined) {
    let best: { ref: RemoteSnapshotRef; at: number } | undefined;
    for (const line of lines) {
      const last = line.snapshots[line.snapshots.length - 1];
      if (last && (!best || last.at > best.at)) best = { ref: { machine: line.machineId, origin: last.idOnMachine }, at: last.at };
    }
    if (!best) throw new HindsightError('REMOTE_PROJECT_NOT_FOUND', 'The remote has this project but no snapshot of it yet.');
    return best.ref;
  }
  const match = /^(?:([0-9a-f-]{1,36}):)?(\d+)$/.exec(wanted);
  if (!match) throw new HindsightError('SNAPSHOT_NOT_FOUND', `"${wanted}" is not a snapshot: give its id, or MACHINE:ID.`, { snapshot: wanted });
  const origin = Number(match[2]);
  const candidates = match[1] ? lines.filter((l) => l.machineId.startsWith(match[1]!)) : lines.filter((l) => l.head.fork === null);
  if (candidates.length !== 1) {
    throw new HindsightError(
      'SNAPSHOT_NOT_FOUND',
      `"${wanted}" does not name one machine of this project (machines: ${lines.map((l) => l.machineId.slice(0, 8)).join(', ')}).`,
      {
        snapshot: wanted,
      },
    );
  }
  const line = candidates[0]!;
  if (!line.snapshots.some((s) => s.idOnMachine === origin))
    throw new HindsightError('SNAPSHOT_NOT_FOUND', `The remote has no snapshot ${wanted}.`, { snapshot: wanted });
  return { machine: line.machineId, origin };
}

/** The snapshots leading to `ref`, oldest first: the line it forked from up to the fork, then its own. */
export function lineTo(history: RemoteHistory, ref: RemoteSnapshotRef): { machine: string; snapshot: RecordedSnapshot }[] {
  const chain: { machine: string; snapshot: RecordedSnapshot }[][] = [];
  const seen = new Set<string>();
  for (let at: RemoteSnapshotRef | null = ref; at;) {
    const line = history.lines.get(at.machine);
    if (!line || seen.has(at.machine))
      throw new HindsightError('REMOTE_CORRUPT', `The remote's line of machine ${at.machine} is missing or loops.`, { machine: at.machine });
    seen.add(at.machine);
    const upTo = at.origin;
    chain.unshift(line.snapshots.filter((s) => s.idOnMachine <= upTo).map((snapshot) => ({ machine: line.machineId, snapshot })));
    at = line.head.fork;
  }
  return chain.flat();
}
