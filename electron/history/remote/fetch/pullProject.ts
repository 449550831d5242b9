import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { PulledMachine, PullResult } from '../../../../shared/contract/values.js';
import { HindsightError } from '../../../../shared/errors.js';
import type { RemoteConfig } from '../../config/configSchema.js';
import type { ProgressSink } from '../../progressThrottle.js';
import type { ProjectStore } from '../../project/projectStore.js';
import { decodeIndex, type PackIndex } from '../../remoteLayout/indexFormat.js';
import { decodeRecord, type RecordedSnapshot } from '../../remoteLayout/recordFormat.js';
import { hashOfKey } from '../../remoteLayout/remoteKeys.js';
import { machineIdentity } from '../machineIdentity.js';
import type { ObjectStore } from '../objectStore.js';
import { openRemoteStore, remoteIdentity } from '../remoteConfig.js';
import { listHeads, readHead } from '../remoteHeads.js';
import type { BlobLocation, RemoteLedger } from '../../db/remoteLedger.js';
import { remoteProjectId } from '../remoteProject.js';
import { TransferMeter } from '../../transferMeter.js';
import { checkLocatedSizes, foreignSnapshotWrite, machineSnapshots } from './machineSnapshots.js';
import { appendAll } from '../../../../shared/largeArrays.js';
import { nameCollisions, rulesInside } from '../../restore/nameCollisions.js';
import { faultPoint } from '../../faultPoint.js';

// `hindsight pull`: other machines' new snapshots of this project into this history. One LIST of
// the heads; for each other machine whose head moved (or whose records are not all imported yet:
// a clone reads them but keeps only the line it forked from), its unread indexes (so the ledger
// locates its blobs) and unread records. Each machine's new snapshots are written in one
// transaction together with the ledger's note that its records are read, so a pull killed midway
// and run again imports each snapshot exactly once. Snapshots keep their machine and their id
// there; their bytes stay on the remote until a reader needs them (bytesOnDemand.ts). The folder
// is never touched: a pull adds rows to the history and nothing else.

export type { PulledMachine, PullResult };

export interface PullOptions {
  operationId?: string;
  credentials?: S3ClientConfig['credentials'];
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Told the incoming names that are one file in the folder, before anything is written. */
  onCollidingNames?: (groups: string[][]) => void;
}

export async function pullProject(dataDir: string, store: ProjectStore, remote: RemoteConfig, options: PullOptions = {}): Promise<PullResult> {
  const started = performance.now();
  const { signal } = options;
  const machine = machineIdentity(dataDir);
  const projectId = remoteProjectId(store);
  const meter = new TransferMeter('pull', store.projectId, options.onProgress);
  const objects = await openRemoteStore(remote, { credentials: options.credentials, onRetry: (notice) => meter.retrying(notice) });
  try {
    meter.enter('metadata', { objects: 1 });
    const listed = await listHeads(objects, projectId, signal);
    meter.add({ objects: 1 });
    if (listed.length === 0) {
      throw new HindsightError('REMOTE_PROJECT_NOT_FOUND', `${objects.label} has no project ${projectId}: push it first.`, { projectId });
    }
    const ledger = store.index.remotes.remoteLedger(remoteIdentity(remote), { projectId, machineId: machine.id });
    const known = ledger.foreignHeads();
    // Every machine's new snapshots are read before any is written: the names they hold that are
    // one file in this folder are told first, so a user who stops the pull has seen them.
    const looked: (PulledMachine | MachineRead)[] = [];
    for (const { machineId, etag } of listed) {
      if (machineId === machine.id) continue;
      const before = known.get(machineId);
      if (before?.etag === etag && before.head.records.every((key) => before.recordsRead.has(key))) {
        looked.push({ machine: machineId, name: before.head.machine.name, snapshots: 0, newest: null });
        continue;
      }
      looked.push(await readMachine(objects, store, projectId, machineId, etag, before?.indexesRead, before?.recordsRead, meter, signal));
    }
    const reads = looked.filter((m): m is MachineRead => 'fresh' in m);
    const incoming = new Set(reads.flatMap((m) => m.fresh.flatMap((s) => s.versions.map((v) => v.path))));
    const collidingNames = nameCollisions(incoming, rulesInside(store.root));
    options.onCollidingNames?.(collidingNames);
    faultPoint('pull-writing');
    const machines = looked.map((m) => ('fresh' in m ? writeMachine(store, ledger, m, signal) : m));
    const read = reads.reduce((sum, m) => sum + m.read, 0);
    store.index.setMeta('remote.pulledFrom', remote.name);
    meter.finish();
    return {
      projectId: store.projectId,
      remoteProjectId: projectId,
      remote: remote.name,
      machine: machine.id,
      snapshots: machines.reduce((sum, m) => sum + m.snapshots, 0),
      machines,
      objects: read,
      collidingNames,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    objects.close();
  }
}

/** One other machine's head, unread indexes and records, and the snapshots of them this history lacks. */
interface MachineRead {
  machineId: string;
  etag: string;
  head: Awaited<ReturnType<typeof readHead>>;
  records: string[];
  decoded: [string, PackIndex][];
  fresh: RecordedSnapshot[];
  read: number;
}

/** One other machine, read: its head, unread indexes and records (nothing is written). */
async function readMachine(
  objects: ObjectStore,
  store: ProjectStore,
  projectId: string,
  machineId: string,
  etag: string,
  indexesRead: ReadonlySet<string> = new Set(),
  recordsRead: ReadonlySet<string> = new Set(),
  meter: TransferMeter,
  signal: AbortSignal | undefined,
): Promise<MachineRead> {
  const head = await readHead(objects, projectId, machineId, signal);
  const indexes = head.indexes.filter((key) => !indexesRead.has(key));
  const records = head.records.filter((key) => !recordsRead.has(key));
  meter.grow({ objects: indexes.length + records.length + 1 });
  meter.add({ objects: 1 });
  const decoded: [string, PackIndex][] = [];
  for (const key of indexes) {
    decoded.push([key, decodeIndex(await objects.get(key, undefined, signal), hashOfKey(projectId, 'index', key))]);
    meter.add({ objects: 1 });
  }
  const snapshots: RecordedSnapshot[] = [];
  for (const key of records) {
    const record = decodeRecord(await objects.get(key, undefined, signal), hashOfKey(projectId, 'record', key));
    if (record.machine !== machineId) throw new HindsightError('REMOTE_CORRUPT', `The remote's record ${key} names another machine.`, { key });
    appendAll(snapshots, record.snapshots);
    meter.add({ objects: 1 });
  }
  // A clone already holds the snapshots its line forked from; a record may repeat none, but a
  // push killed after its record and run again can write a second one with the same snapshots.
  const checked = machineSnapshots(machineId, snapshots);
  const have = store.index.remotes.importedOrigins(machineId);
  const fresh = checked.filter((s) => !have.has(s.idOnMachine));
  return { machineId, etag, head, records, decoded, fresh, read: 1 + indexes.length + records.length };
}

/** One machine's new snapshots in one transaction, with the ledger's note that its records are read. */
function writeMachine(store: ProjectStore, ledger: RemoteLedger, read: MachineRead, signal: AbortSignal | undefined): PulledMachine {
  const { machineId, etag, head, records, decoded, fresh } = read;
  signal?.throwIfAborted();
  // Indexes noted first: a record's blobs are located before its snapshots can be read.
  for (const [key, index] of decoded) ledger.noteForeignIndex(machineId, key, index);
  checkLocatedSizes(fresh, locatedOf(ledger, fresh));
  const writes = fresh.map((snapshot) => foreignSnapshotWrite(machineId, snapshot));
  const ids = store.index.importForeign(writes, () => {
    ledger.noteForeignRecords(machineId, records);
    ledger.noteForeignHead(machineId, etag, head);
  });
  const last = fresh[fresh.length - 1];
  return {
    machine: machineId,
    name: head.machine.name,
    snapshots: writes.length,
    newest: last ? { origin: last.idOnMachine, snapshotId: ids[ids.length - 1]! } : null,
  };
}

/** Where the remote's indexes put the contents the snapshots name, each once (those they locate). */
function* locatedOf(ledger: RemoteLedger, snapshots: readonly RecordedSnapshot[]): Generator<[string, BlobLocation]> {
  const seen = new Set<string>();
  for (const s of snapshots) {
    for (const v of s.versions) {
      if (v.hash === null || seen.has(v.hash)) continue;
      seen.add(v.hash);
      const location = ledger.locate(v.hash);
      if (location) yield [v.hash, location];
    }
  }
}
